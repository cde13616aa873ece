package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO102: a loop over the world dispatches no CHIP orchestrator of the program. */
public final class NoDispatchRule extends NotGroupedRule {

	public NoDispatchRule() {
		super(Condition.HAS_DISPATCH);
	}

	@Override
	public String name() {
		return "rank-loop-without-chip-dispatch";
	}

	@Override
	public String title() {
		return "Rank loop dispatches no CHIP orchestrator";
	}

	@Override
	public String description() {
		return "Grouping publishes one CHIP-orchestrator dispatch per rank. A loop over the world that"
				+ " dispatches none (or dispatches a kernel or sub-worker with device=) has nothing to group.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		return List.of();
	}
}
