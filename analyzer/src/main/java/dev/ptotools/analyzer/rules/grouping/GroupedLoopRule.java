package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO100: marks every rank loop that is published to all ranks as one group. */
public final class GroupedLoopRule implements Rule {

	@Override
	public String id() {
		return "PTO100";
	}

	@Override
	public String name() {
		return "grouped-dispatch";
	}

	@Override
	public String title() {
		return "Rank loop is grouped: all ranks start together";
	}

	@Override
	public String description() {
		return "This rank loop meets every condition of grouped dispatch: the compiler builds every rank's"
				+ " arguments first and publishes all ranks as one runtime group, so they start together.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.INFO;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.RANK_LOOPS);
	}

	@Override
	public void check(RuleContext ctx) {
		for (RankLoop loop : ctx.get(Keys.RANK_LOOPS).loops()) {
			if (loop.grouped()) {
				String callee = loop.dispatch() != null ? loop.dispatch().funcText() : "the dispatch";
				ctx.report(loop.loop().headerSpan(), "grouped dispatch: every rank's " + callee
						+ " is published as one group (" + loop.groupId() + "); all ranks start together",
						List.of(new Diagnostic.Related(loop.dispatch() == null ? loop.loop().span() : loop.dispatch().span(),
								"the grouped dispatch")),
						List.of());
			}
		}
	}

	/** A verdict on the whole loop: one repaired statement in it can change it. */
	@Override
	public Extent extent() {
		return Extent.RANK_LOOP;
	}
}
