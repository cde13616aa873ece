package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO109: the rank loop is pl.parallel, pl.unroll, pl.pipeline or not a pl loop. Fix: use pl.range. */
public final class NonSequentialLoopRule extends NotGroupedRule {

	public NonSequentialLoopRule() {
		super(Condition.SEQUENTIAL);
	}

	@Override
	public String name() {
		return "rank-loop-not-sequential";
	}

	@Override
	public String title() {
		return "Rank loop is not a sequential pl.range loop";
	}

	@Override
	public String description() {
		return "Grouped dispatch is defined for sequential pl.range loops. pl.parallel, pl.unroll and"
				+ " pl.pipeline loops are lowered differently and keep per-rank submission.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		CallResolution calls = ctx.get(Keys.CALLS);
		if (!(loop.loop().iter() instanceof Expr.Call iter) || !iter.keywords().isEmpty()) {
			return List.of(); // pl.pipeline(stage=...) and the like: replacing would drop the keywords
		}
		if (!(calls.of(iter) instanceof Callee.BuiltinCall b)
				|| !(b.builtin().name().equals("pl.parallel") || b.builtin().name().equals("pl.unroll"))) {
			return List.of();
		}
		String pl = ctx.get(Keys.MODULE).pl();
		String written = ctx.text().substring(iter.func().span().start(), iter.func().span().end());
		return List.of(new Fix("Replace " + written + " by " + pl + ".range",
				List.of(new Fix.Edit(iter.func().span(), pl + ".range")), true));
	}
}
