package dev.ptotools.analyzer.rules.grouping;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.facts.Views;
import dev.ptotools.analyzer.fixes.SourceEdits;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO107: a call hides in an argument of the dispatch, such as {@code (r + 1) % pld.world_size()}.
 * Fix: hoist pld.world_size() into a variable before the loop (reusing the loop bound's variable
 * when there is one).
 */
public final class CallInArgumentRule extends NotGroupedRule {

	public CallInArgumentRule() {
		super(Condition.NO_CALL_IN_ARGUMENTS);
	}

	@Override
	public String name() {
		return "call-in-dispatch-argument";
	}

	@Override
	public String title() {
		return "A call hides in an argument of the rank loop's dispatch";
	}

	@Override
	public String description() {
		return "Views written inline as arguments (self.f(x[r], device=r)) are fine, but any other call in"
				+ " an argument runs while the group is being built, which a group does not admit.";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.RANK_LOOPS, Keys.CALLS, Keys.SUBSCRIPTS);
	}

	@Override
	List<Fix> fixes(RuleContext ctx, RankLoop loop) {
		CallResolution calls = ctx.get(Keys.CALLS);
		Expr.Call d = loop.dispatch();
		if (d == null) {
			return List.of();
		}
		List<Expr> args = new ArrayList<>(d.args());
		d.keywords().forEach(k -> args.add(k.value()));
		SubscriptOps subs = ctx.get(Keys.SUBSCRIPTS);
		List<Expr.Call> worldCalls = new ArrayList<>();
		for (Expr a : args) {
			for (Expr c : Views.otherCalls(calls, subs, a)) {
				if (c instanceof Expr.Call call && calls.isBuiltin(call, "pld.system.world_size")
						&& call.args().isEmpty()) {
					worldCalls.add(call);
				} else {
					return List.of(); // another call (or an element read) besides world_size: hoisting is not enough
				}
			}
		}
		if (worldCalls.isEmpty()) {
			return List.of();
		}
		Stmt.For f = loop.loop();
		String text = ctx.text();
		FunctionScope scope = new FunctionScope(loop.function(), calls);
		String name = WorldSizeNames.existing(f, scope);
		List<Fix.Edit> edits = new ArrayList<>();
		if (name == null) {
			name = WorldSizeNames.fresh(loop, "world_size");
			String call = text.substring(worldCalls.get(0).span().start(), worldCalls.get(0).span().end());
			edits.add(SourceEdits.insertLineBefore(text, f.span().start(), SourceEdits.indent(text, f.span().start()),
					name + " = " + call));
		}
		for (Expr.Call c : worldCalls) {
			edits.add(new Fix.Edit(c.span(), name));
		}
		return List.of(new Fix("Hoist " + text.substring(worldCalls.get(0).span().start(), worldCalls.get(0).span().end())
				+ " into '" + name + "' before the loop", List.copyOf(edits), true));
	}
}
