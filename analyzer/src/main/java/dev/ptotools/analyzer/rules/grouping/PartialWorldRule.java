package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO101: the rank loop iterates a fixed count or part of the world, not every rank. */
public final class PartialWorldRule extends NotGroupedRule {

	public PartialWorldRule() {
		super(Condition.FULL_WORLD);
	}

	@Override
	public String name() {
		return "rank-loop-not-full-world";
	}

	@Override
	public String title() {
		return "Rank loop does not iterate the full world";
	}

	@Override
	public String description() {
		return "A group holds every rank, so only a loop over pl.range(pld.world_size()) can be grouped. A"
				+ " constant bound such as pl.range(4), a start other than 0 or a step other than 1 dispatches"
				+ " rank by rank.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		if (!(loop.loop().iter() instanceof Expr.Call iter) || iter.args().isEmpty() || !iter.keywords().isEmpty()) {
			return List.of();
		}
		String pld = ctx.get(Keys.MODULE).pld();
		if (pld == null || !ctx.text().contains("distributed")) {
			return List.of(); // pld is not imported; the fix would not run
		}
		Span args = new Span(iter.args().get(0).span().start(), iter.args().get(iter.args().size() - 1).span().end());
		return List.of(new Fix("Iterate all ranks with pl.range(" + pld + ".world_size()) (changes which ranks run)",
				List.of(new Fix.Edit(args, pld + ".world_size()")), false));
	}
}
