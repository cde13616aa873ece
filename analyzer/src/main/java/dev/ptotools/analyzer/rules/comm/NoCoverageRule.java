package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO207: A collective's buffer has no comm domain */
public final class NoCoverageRule extends CommProblemRule {

	public NoCoverageRule() {
		super(CommDomains.Kind.NO_COVERAGE);
	}

	@Override
	public String id() {
		return "PTO207";
	}

	@Override
	public String name() {
		return "collective-without-domain";
	}

	@Override
	public String title() {
		return "A collective's buffer has no comm domain";
	}

	@Override
	public String description() {
		return "A collective's signal buffer inherits the comm domain of its data buffer, and a barrier's signal needs its own device= dispatch; without one the buffer belongs to no domain and pypto rejects the program.";
	}

	/** That no dispatch of the function covers the buffer: a repaired statement may be one. */
	@Override
	public Extent extent() {
		return Extent.FUNCTION;
	}
}
