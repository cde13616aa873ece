package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO204: Two window allocations share a name */
public final class DuplicateAllocationRule extends CommProblemRule {

	public DuplicateAllocationRule() {
		super(CommDomains.Kind.DUPLICATE_ALLOCATION);
	}

	@Override
	public String id() {
		return "PTO204";
	}

	@Override
	public String name() {
		return "duplicate-window-allocation";
	}

	@Override
	public String title() {
		return "Two window allocations share a name";
	}

	@Override
	public String description() {
		return "A window buffer is named after the variable it is assigned to, and the name must be unique in the program (within a comm domain the runtime addresses buffers by name).";
	}
}
