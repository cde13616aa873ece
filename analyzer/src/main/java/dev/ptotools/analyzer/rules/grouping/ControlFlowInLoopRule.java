package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO110: the rank loop body holds an if, a loop, a with block, return, break or continue. */
public final class ControlFlowInLoopRule extends NotGroupedRule {

	public ControlFlowInLoopRule() {
		super(Condition.NO_CONTROL_FLOW);
	}

	@Override
	public String name() {
		return "control-flow-in-rank-loop";
	}

	@Override
	public String title() {
		return "Rank loop body holds control flow";
	}

	@Override
	public String description() {
		return "A grouped loop's body is views and one dispatch, nothing else. Nested if, loops, with blocks,"
				+ " return, break and continue make the set of dispatched ranks depend on run-time control flow.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		return List.of();
	}
}
