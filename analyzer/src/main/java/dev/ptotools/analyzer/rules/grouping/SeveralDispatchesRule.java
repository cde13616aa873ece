package dev.ptotools.analyzer.rules.grouping;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.facts.Views;
import dev.ptotools.analyzer.fixes.SourceEdits;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO104: more than one dispatch per iteration. Fix: one loop per dispatch, each with the views that
 * dispatch uses, when the body partitions cleanly (only views beside direct dispatches, and no
 * dispatch's result is used later in the iteration).
 */
public final class SeveralDispatchesRule extends NotGroupedRule {

	public SeveralDispatchesRule() {
		super(Condition.SINGLE_DISPATCH);
	}

	@Override
	public String name() {
		return "several-dispatches-per-rank";
	}

	@Override
	public String title() {
		return "Rank loop dispatches more than once per rank";
	}

	@Override
	public String description() {
		return "A group publishes one dispatch per rank. A loop that dispatches two CHIP orchestrators per"
				+ " iteration is published rank by rank; one loop per dispatch lets each be grouped.";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.RANK_LOOPS, Keys.CALLS, Keys.SUBSCRIPTS);
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		String text = ctx.text();
		CallResolution calls = ctx.get(Keys.CALLS);
		SubscriptOps subs = ctx.get(Keys.SUBSCRIPTS);
		Stmt.For f = loop.loop();
		if (!f.orelse().isEmpty() || !SourceEdits.ownsLines(text, f.span())) {
			return List.of();
		}
		List<Stmt> body = f.body();
		List<Integer> dispatchAt = new ArrayList<>();
		for (int i = 0; i < body.size(); i++) {
			Stmt s = body.get(i);
			if (!SourceEdits.ownsLines(text, s.span())) {
				return List.of();
			}
			Expr.Call d = directDispatch(s, loop);
			if (d != null) {
				dispatchAt.add(i);
			} else if (!Views.isViewAssignment(calls, subs, s) && !Views.isNeutral(s)) {
				return List.of();
			}
		}
		if (dispatchAt.size() != loop.dispatches().size() || dispatchAt.size() < 2) {
			return List.of(); // a nested dispatch: no clean partition
		}
		// A dispatch whose result a later statement reads ties the iteration together.
		for (int i : dispatchAt) {
			if (body.get(i) instanceof Stmt.Assign a) {
				Set<String> bound = new HashSet<>();
				a.targets().forEach(t -> bound.addAll(Walk.boundNames(t)));
				for (int j = i + 1; j < body.size(); j++) {
					for (Expr e : Walk.ownExpressions(body.get(j))) {
						if (Walk.names(e).stream().anyMatch(bound::contains)) {
							return List.of();
						}
					}
				}
			}
		}
		String header = text.substring(SourceEdits.lineStart(text, f.span().start()),
				SourceEdits.nextLineStart(text, f.headerSpan().end()));
		if (!header.strip().endsWith(":")) {
			return List.of();
		}
		StringBuilder out = new StringBuilder();
		for (int k = 0; k < dispatchAt.size(); k++) {
			int d = dispatchAt.get(k);
			Set<Integer> keep = new HashSet<>();
			keep.add(d);
			needViews(body, d, keep, calls, subs);
			if (k == 0) {
				for (int j = 0; j < body.size(); j++) {
					if (!dispatchAt.contains(j) && !usedByAny(body, j, dispatchAt, calls, subs)) {
						keep.add(j);
					}
				}
			}
			out.append(header);
			for (int j = 0; j < body.size(); j++) {
				if (keep.contains(j)) {
					Span lines = SourceEdits.wholeLines(text, body.get(j).span());
					String chunk = text.substring(lines.start(), lines.end());
					out.append(chunk);
					if (!chunk.endsWith("\n") && !chunk.endsWith("\r")) {
						out.append(SourceEdits.newline(text));
					}
				}
			}
		}
		Span whole = SourceEdits.wholeLines(text, f.span());
		String original = text.substring(whole.start(), whole.end());
		if (!original.endsWith("\n") && !original.endsWith("\r")) {
			out.setLength(out.length() - SourceEdits.newline(text).length());
		}
		return List.of(new Fix("Split into " + dispatchAt.size() + " loops, one per dispatch",
				List.of(new Fix.Edit(whole, out.toString())), true));
	}

	private static Expr.Call directDispatch(Stmt s, RankLoop loop) {
		Expr v = s instanceof Stmt.ExprStmt e ? e.value() : s instanceof Stmt.Assign a ? a.value() : null;
		return v instanceof Expr.Call c && loop.dispatches().contains(c) ? c : null;
	}

	/** Adds the view statements a statement reads, transitively. */
	private static void needViews(List<Stmt> body, int at, Set<Integer> keep, CallResolution calls,
			SubscriptOps subs) {
		Set<String> reads = new HashSet<>();
		for (Expr e : Walk.ownExpressions(body.get(at))) {
			if (!(body.get(at) instanceof Stmt.Assign a && a.targets().contains(e))) {
				reads.addAll(Walk.names(e));
			}
		}
		for (int j = at - 1; j >= 0; j--) {
			if (body.get(j) instanceof Stmt.Assign a && Views.isViewAssignment(calls, subs, a)
					&& a.targets().get(0) instanceof Expr.Name n && reads.contains(n.id()) && keep.add(j)) {
				needViews(body, j, keep, calls, subs);
			}
		}
	}

	private static boolean usedByAny(List<Stmt> body, int view, List<Integer> dispatches, CallResolution calls,
			SubscriptOps subs) {
		for (int d : dispatches) {
			Set<Integer> keep = new HashSet<>();
			needViews(body, d, keep, calls, subs);
			if (keep.contains(view)) {
				return true;
			}
		}
		return false;
	}
}
