package dev.ptotools.analyzer.rules.grouping;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.fixes.SourceEdits;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO106: a statement in the loop that is not a pure view (a tensor creation, a collective, a
 * print...). Fix: move it before the loop when it is loop-invariant (it reads nothing the loop
 * defines and nothing else in the loop assigns what it binds).
 */
public final class NonViewStatementRule extends NotGroupedRule {

	public NonViewStatementRule() {
		super(Condition.ONLY_VIEWS);
	}

	@Override
	public String name() {
		return "non-view-statement-in-rank-loop";
	}

	@Override
	public String title() {
		return "Rank loop holds a statement that is not a view";
	}

	@Override
	public String description() {
		return "Building a group needs the loop to do nothing but slice views and dispatch. Any other call"
				+ " (tensor creation, collectives, sub-workers, prints, pl.submit) would run between building"
				+ " one rank's arguments and the next, so the loop is published rank by rank.";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		if (loop.offending().isEmpty()) {
			return List.of();
		}
		Stmt s = loop.offending().get(0);
		Stmt.For f = loop.loop();
		String text = ctx.text();
		if (!f.body().contains(s) || !Walk.children(s).isEmpty() || !SourceEdits.ownsLines(text, s.span())
				|| !SourceEdits.ownsLines(text, f.span())
				|| Walk.ownCalls(s).stream().anyMatch(loop.dispatches()::contains)) {
			return List.of(); // y[r] = self.f(...): the dispatch itself never moves
		}
		// Only statements before the first dispatch: one after it may act on what the dispatch did
		// (a barrier on its signal), and hoisting it would run it first.
		for (Stmt other : f.body()) {
			if (other == s) {
				break;
			}
			if (!loop.dispatches().isEmpty() && Walk.ownCalls(other).stream().anyMatch(loop.dispatches()::contains)) {
				return List.of();
			}
		}
		Set<String> definedInLoop = new HashSet<>(Walk.boundNames(f.target()));
		for (Stmt other : f.body()) {
			Walk.statements(List.of(other), x -> {
				if (x instanceof Stmt.Assign a && x != s) {
					a.targets().forEach(t -> definedInLoop.addAll(Walk.boundNames(t)));
				}
			});
		}
		Set<String> reads = new HashSet<>();
		Set<String> binds = new HashSet<>();
		if (s instanceof Stmt.Assign a) {
			a.targets().forEach(t -> binds.addAll(Walk.boundNames(t)));
			if (a.value() != null) {
				reads.addAll(Walk.names(a.value()));
			}
			a.targets().stream().filter(t -> !(t instanceof Expr.Name)).forEach(t -> reads.addAll(Walk.names(t)));
		} else if (s instanceof Stmt.ExprStmt e) {
			reads.addAll(Walk.names(e.value()));
		} else {
			return List.of();
		}
		for (String r : reads) {
			if (definedInLoop.contains(r) || binds.contains(r)) {
				return List.of(); // depends on the iteration: not loop-invariant
			}
		}
		for (String b : binds) {
			if (definedInLoop.contains(b)) {
				return List.of();
			}
		}
		Span lines = SourceEdits.wholeLines(text, s.span());
		String block = text.substring(lines.start(), lines.end());
		String from = SourceEdits.indent(text, s.span().start());
		String to = SourceEdits.indent(text, f.span().start());
		String moved = SourceEdits.reindent(block, from, to);
		if (!moved.endsWith("\n") && !moved.endsWith("\r")) {
			moved += SourceEdits.newline(text);
		}
		int loopLine = SourceEdits.lineStart(text, f.span().start());
		return List.of(new Fix("Move '" + Render.stmt(s) + "' before the loop (it does not depend on the rank)",
				List.of(new Fix.Edit(new Span(loopLine, loopLine), moved), new Fix.Edit(lines, "")), true));
	}
}
