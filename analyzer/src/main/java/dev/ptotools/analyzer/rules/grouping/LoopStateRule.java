package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO108: the rank loop carries state (init_values=, pl.yield_ or a tuple target). */
public final class LoopStateRule extends NotGroupedRule {

	public LoopStateRule() {
		super(Condition.NO_LOOP_STATE);
	}

	@Override
	public String name() {
		return "rank-loop-carries-state";
	}

	@Override
	public String title() {
		return "Rank loop carries state between iterations";
	}

	@Override
	public String description() {
		return "With init_values= or pl.yield_, each iteration depends on the one before, so the ranks cannot"
				+ " be built independently and published together.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		return List.of(); // removing loop state changes the program's meaning
	}
}
