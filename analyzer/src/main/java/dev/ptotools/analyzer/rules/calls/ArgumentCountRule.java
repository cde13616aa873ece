package dev.ptotools.analyzer.rules.calls;

import java.util.List;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO402: a call of a program function with the wrong number of arguments. */
public final class ArgumentCountRule extends CallRule {

	@Override
	public String id() {
		return "PTO402";
	}

	@Override
	public String name() {
		return "wrong-argument-count";
	}

	@Override
	public String title() {
		return "Program function called with the wrong number of arguments";
	}

	@Override
	public String description() {
		return "A call of a program function passes every parameter positionally, Out and InOut ones"
				+ " included; pypto rejects a call with more or fewer arguments.";
	}

	@Override
	void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call) {
		Function callee = calls.target(call);
		if (callee == null || call.args().stream().anyMatch(a -> a instanceof Expr.Starred)) {
			return;
		}
		int given = call.args().size();
		if (p.style() == Program.Style.JIT) {
			// jit style moves keywords naming parameters to their positions
			given += (int) call.keywords().stream().filter(k -> k.name() != null && callee.param(k.name()) != null).count();
		}
		int expected = callee.params().size();
		if (given != expected) {
			List<String> params = callee.params().stream().map(ArgumentCountRule::describe).toList();
			ctx.report(UnknownFunctionRule.attrSpan(call), "Function '" + callee.name() + "' expects " + expected
					+ " argument(s), got " + given + " (parameters: " + params + ")");
		}
	}

	private static String describe(Param p) {
		return p.name() + ": " + (p.direction() == Direction.In ? "In" : p.direction().name());
	}
}
