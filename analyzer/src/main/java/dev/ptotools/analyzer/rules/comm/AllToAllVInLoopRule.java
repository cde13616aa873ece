package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO205: pld.tensor.all_to_all_v inside a loop of a HOST orchestrator */
public final class AllToAllVInLoopRule extends CommProblemRule {

	public AllToAllVInLoopRule() {
		super(CommDomains.Kind.ALL_TO_ALL_V_IN_LOOP);
	}

	@Override
	public String id() {
		return "PTO205";
	}

	@Override
	public String name() {
		return "all-to-all-v-in-loop";
	}

	@Override
	public String title() {
		return "pld.tensor.all_to_all_v inside a loop of a HOST orchestrator";
	}

	@Override
	public String description() {
		return "all_to_all_v's signal protocol is single-use and cannot be reused across dynamic loop iterations, so pypto rejects it inside a for or while loop of a HOST orchestrator.";
	}
}
