package dev.ptotools.analyzer.rules.grouping;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.fixes.SourceEdits;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Keys;
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
	String advice(RuleContext ctx, RankLoop loop) {
		Inline inline = inline(ctx, loop);
		if (inline == null) {
			return "";
		}
		return "; a grouped loop holds only views and its dispatch: write the expression into the dispatch's"
				+ " arguments" + (inline.hoist() ? " with " + inline.worldCall() + " before the loop" : "")
				+ " (" + inline.dispatchText() + ")";
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		Inline inline = inline(ctx, loop);
		if (inline != null) {
			return List.of(inline.fix());
		}
		return moveBeforeLoop(ctx, loop);
	}

	/**
	 * A scalar computed in the loop from the rank and the world size only ({@code peer = (r + 1) %
	 * pld.world_size()}) and read only by the dispatch: written into the dispatch's arguments, with the world
	 * size read before the loop, the loop is grouped (no statement besides the dispatch, no call in it).
	 */
	private record Inline(Fix fix, boolean hoist, String worldCall, String dispatchText) {
	}

	private static Inline inline(RuleContext ctx, RankLoop loop) {
		if (loop.offending().isEmpty() || loop.dispatch() == null) {
			return null;
		}
		Stmt s = loop.offending().get(0);
		Stmt.For f = loop.loop();
		String text = ctx.text();
		if (!(s instanceof Stmt.Assign a) || a.targets().size() != 1 || !(a.targets().get(0) instanceof Expr.Name v)
				|| a.value() == null || !f.body().contains(s) || !SourceEdits.ownsLines(text, s.span())
				|| !SourceEdits.ownsLines(text, f.span())) {
			return null;
		}
		CallResolution calls = ctx.get(Keys.CALLS);
		List<Expr.Call> world = new ArrayList<>();
		for (Expr.Call c : Walk.calls(a.value())) {
			if (!calls.isBuiltin(c, "pld.system.world_size") || !c.args().isEmpty() || !c.keywords().isEmpty()) {
				return null; // another call: it would still run while the group is built
			}
			world.add(c);
		}
		boolean[] otherSubscript = { false };
		Walk.expressions(a.value(), e -> otherSubscript[0] |= e instanceof Expr.Subscript);
		if (otherSubscript[0]) {
			return null; // an element read is a call in pypto's IR
		}
		Expr.Call d = loop.dispatch();
		List<Expr> args = new ArrayList<>(d.args());
		d.keywords().forEach(k -> args.add(k.value()));
		// every read of the name in the function, but the assignment, is inside the dispatch's arguments
		List<Expr.Name> uses = new ArrayList<>();
		boolean[] elsewhere = { false };
		Walk.statements(loop.function().body(), st -> {
			for (Expr e : Walk.ownExpressions(st)) {
				Walk.expressions(e, x -> {
					if (x instanceof Expr.Name n && n.id().equals(v.id()) && n != v) {
						if (args.stream().anyMatch(arg -> arg.span().contains(n.span()))) {
							uses.add(n);
						} else {
							elsewhere[0] = true;
						}
					}
				});
			}
			if (st != s && st instanceof Stmt.Assign other
					&& other.targets().stream().anyMatch(t -> Walk.boundNames(t).contains(v.id()))) {
				elsewhere[0] = true;
			}
		});
		if (uses.isEmpty() || elsewhere[0] || Walk.boundNames(f.target()).contains(v.id())) {
			return null;
		}
		String name = world.isEmpty() ? null
				: WorldSizeNames.existing(f, new FunctionScope(loop.function(), calls));
		boolean hoist = !world.isEmpty() && name == null;
		if (hoist) {
			name = WorldSizeNames.fresh(loop, "world_size");
		}
		String worldCall = world.isEmpty() ? null : text.substring(world.get(0).span().start(), world.get(0).span().end());
		StringBuilder value = new StringBuilder();
		int at = a.value().span().start();
		for (Expr.Call c : world) {
			value.append(text, at, c.span().start()).append(name);
			at = c.span().end();
		}
		value.append(text, at, a.value().span().end());
		boolean atomic = a.value() instanceof Expr.Name || a.value() instanceof Expr.Literal;
		List<Fix.Edit> edits = new ArrayList<>();
		if (hoist) {
			edits.add(SourceEdits.insertLineBefore(text, f.span().start(), SourceEdits.indent(text, f.span().start()),
					name + " = " + worldCall));
		}
		edits.add(new Fix.Edit(SourceEdits.wholeLines(text, s.span()), ""));
		StringBuilder dispatch = new StringBuilder();
		int from = d.span().start();
		List<Expr> bare = new ArrayList<>(args); // places a value needs no parentheses in
		args.forEach(arg -> Walk.expressions(arg, x -> {
			if (x instanceof Expr.Subscript sub) {
				bare.addAll(sub.indices());
			}
		}));
		for (Expr.Name u : uses) {
			boolean plain = bare.stream().anyMatch(x -> x == u);
			String replacement = plain || atomic ? value.toString() : "(" + value + ")";
			edits.add(new Fix.Edit(u.span(), replacement));
			dispatch.append(text, from, u.span().start()).append(replacement);
			from = u.span().end();
		}
		dispatch.append(text, from, d.span().end());
		Fix fix = new Fix("Write '" + Render.expr(a.value()) + "' into the dispatch's arguments"
				+ (hoist ? " and hoist " + worldCall + " into '" + name + "' before the loop" : ""), List.copyOf(edits), true);
		return new Inline(fix, hoist, worldCall, dispatch.toString());
	}

	private static List<Fix> moveBeforeLoop(RuleContext ctx, RankLoop loop) {
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
