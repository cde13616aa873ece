package dev.ptotools.analyzer.rules.grouping;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO105: the dispatch is not pinned to the loop variable with device=<v>. Fix: pin it. */
public final class UnpinnedDeviceRule extends NotGroupedRule {

	public UnpinnedDeviceRule() {
		super(Condition.PINNED);
	}

	@Override
	public String name() {
		return "dispatch-not-pinned";
	}

	@Override
	public String title() {
		return "Rank loop dispatch is not pinned to the loop variable";
	}

	@Override
	public String description() {
		return "Each member of a group runs on its own rank, named by device=<loop variable>. A dispatch"
				+ " without device=, or with device=0 or another expression, does not say which rank each"
				+ " iteration's work belongs to, so the loop cannot be grouped.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		Expr.Call d = loop.dispatch();
		if (d == null || loop.loopVar() == null) {
			return List.of();
		}
		String v = loop.loopVar();
		Expr.Keyword device = d.keyword("device");
		if (device != null) {
			return List.of(new Fix("Pin the dispatch to the loop variable: device=" + v,
					List.of(new Fix.Edit(device.value().span(), v)), true));
		}
		// Insert before the closing parenthesis, after the last argument.
		int close = d.span().end() - 1;
		if (close < 0 || ctx.text().charAt(close) != ')') {
			return List.of();
		}
		boolean empty = d.args().isEmpty() && d.keywords().isEmpty();
		int at = empty ? close : lastArgumentEnd(d);
		String insert = empty ? "device=" + v : ", device=" + v;
		return List.of(new Fix("Pin the dispatch to the loop variable: device=" + v,
				List.of(new Fix.Edit(new Span(at, at), insert)), true));
	}

	private static int lastArgumentEnd(Expr.Call d) {
		int end = 0;
		for (Expr a : d.args()) {
			end = Math.max(end, a.span().end());
		}
		for (Expr.Keyword k : d.keywords()) {
			end = Math.max(end, k.span().end());
		}
		return end;
	}
}
