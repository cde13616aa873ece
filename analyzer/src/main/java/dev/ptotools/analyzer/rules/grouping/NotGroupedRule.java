package dev.ptotools.analyzer.rules.grouping;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * Shared shape of the rules that explain why a rank loop is not grouped: one rule per condition,
 * reporting each loop whose first failed condition is its own, at the place that breaks it, with
 * the loop as related location and the rule's fixes.
 */
abstract class NotGroupedRule implements Rule {

	private final Condition condition;

	NotGroupedRule(Condition condition) {
		this.condition = condition;
	}

	@Override
	public final String id() {
		return condition.rule();
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.WARNING;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.RANK_LOOPS, Keys.CALLS);
	}

	/** The fixes for one loop; empty where no fix is correct. */
	abstract List<Fix> fixes(RuleContext ctx, RankLoop loop);

	/** What to do about it, appended to the message ("; ..."), where the rule knows what works; else "". */
	String advice(RuleContext ctx, RankLoop loop) {
		return "";
	}

	@Override
	public void check(RuleContext ctx) {
		for (RankLoop loop : ctx.get(Keys.RANK_LOOPS).loops()) {
			if (loop.failed() != condition) {
				continue;
			}
			RankLoop.Check c = loop.failedCheck();
			Span where = c.where() != null ? c.where() : loop.loop().headerSpan();
			List<Diagnostic.Related> related = new ArrayList<>(c.related());
			related.add(new Diagnostic.Related(loop.loop().headerSpan(), "rank loop of " + loop.function().name()));
			ctx.report(where, "rank loop is not grouped: " + c.detail() + advice(ctx, loop), List.copyOf(related),
					fixes(ctx, loop));
		}
	}

	/** A verdict on the whole loop: one repaired statement in it can change it. */
	@Override
	public Extent extent() {
		return Extent.RANK_LOOP;
	}
}
