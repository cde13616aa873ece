package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO201: Window allocation has no pld.window view */
public final class DeadAllocationRule extends CommProblemRule {

	public DeadAllocationRule() {
		super(CommDomains.Kind.DEAD_ALLOCATION);
	}

	@Override
	public String id() {
		return "PTO201";
	}

	@Override
	public String name() {
		return "dead-window-allocation";
	}

	@Override
	public String title() {
		return "Window allocation has no pld.window view";
	}

	@Override
	public String description() {
		return "pypto's MaterializeCommDomainScopes pass rejects a pld.alloc_window_buffer that no pld.window view materializes: the buffer would be allocated on every rank and never used.";
	}

	/** That no view of the function materializes the buffer: a repaired statement may be one. */
	@Override
	public Extent extent() {
		return Extent.FUNCTION;
	}
}
