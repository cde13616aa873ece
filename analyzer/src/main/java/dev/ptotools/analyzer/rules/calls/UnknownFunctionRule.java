package dev.ptotools.analyzer.rules.calls;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.fixes.Names;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO401: self.f(...) names no function of the program. Fix: the closest name, when one is close. */
public final class UnknownFunctionRule extends CallRule {

	@Override
	public String id() {
		return "PTO401";
	}

	@Override
	public String name() {
		return "unknown-program-function";
	}

	@Override
	public String title() {
		return "Call of a function the program does not define";
	}

	@Override
	public String description() {
		return "self.f(...) calls the @pl.function method f of the same program. pypto rejects the program"
				+ " when there is no such method (a method without @pl.function is not part of the program).";
	}

	@Override
	void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call) {
		if (!(calls.of(call) instanceof Callee.UnknownFunction u) || !u.viaSelf()) {
			return;
		}
		List<String> names = p.functions().stream().map(Function::name).toList();
		String closest = Names.closest(u.name(), names);
		List<Fix> fixes = List.of();
		if (closest != null && call.func() instanceof Expr.Attribute a) {
			fixes = List.of(new Fix("Call self." + closest, List.of(new Fix.Edit(a.attrSpan(), closest)), true));
		}
		ctx.report(call.func() instanceof Expr.Attribute a ? a.attrSpan() : call.span(),
				"Function '" + u.name() + "' not defined in program " + p.name() + " (available: " + names + ")"
						+ (closest != null ? "; did you mean '" + closest + "'?" : ""),
				List.of(), fixes);
	}

	static Span attrSpan(Expr.Call call) {
		return call.func() instanceof Expr.Attribute a ? a.attrSpan() : call.span();
	}
}
