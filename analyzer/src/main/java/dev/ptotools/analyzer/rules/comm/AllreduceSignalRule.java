package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO206: pld.tensor.allreduce cannot get its signal buffer here */
public final class AllreduceSignalRule extends CommProblemRule {

	public AllreduceSignalRule() {
		super(CommDomains.Kind.ALLREDUCE_SIGNAL);
	}

	@Override
	public String id() {
		return "PTO206";
	}

	@Override
	public String name() {
		return "allreduce-signal";
	}

	@Override
	public String title() {
		return "pld.tensor.allreduce cannot get its signal buffer here";
	}

	@Override
	public String description() {
		return "A HOST allreduce without an explicit signal gets a synthesized signal buffer, which needs the call to be a direct assignment, expression statement or return, and outside any loop.";
	}
}
