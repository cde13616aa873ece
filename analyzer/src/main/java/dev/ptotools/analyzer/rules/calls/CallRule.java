package dev.ptotools.analyzer.rules.calls;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** Shared shape of the rules that check each call of each DSL function. */
abstract class CallRule implements Rule {

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.FUNCTIONS);
	}

	@Override
	public final void check(RuleContext ctx) {
		CallResolution calls = ctx.get(Keys.CALLS);
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			for (Function f : p.functions()) {
				for (Expr.Call c : calls.callsIn(f)) {
					checkCall(ctx, calls, p, f, c);
				}
			}
		}
	}

	abstract void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call);
}
