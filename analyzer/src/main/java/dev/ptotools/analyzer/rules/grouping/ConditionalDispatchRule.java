package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO103: the dispatch sits under an if, a while, an inner loop or a with block. */
public final class ConditionalDispatchRule extends NotGroupedRule {

	public ConditionalDispatchRule() {
		super(Condition.UNCONDITIONAL);
	}

	@Override
	public String name() {
		return "conditional-dispatch";
	}

	@Override
	public String title() {
		return "Rank loop dispatches under a condition";
	}

	@Override
	public String description() {
		return "A group is built before any rank runs, so every rank must be dispatched on every iteration. A"
				+ " dispatch under if/while/an inner loop/with may skip ranks, and the loop is published rank by rank.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		return List.of(); // moving the condition changes what runs; only the author can decide
	}
}
