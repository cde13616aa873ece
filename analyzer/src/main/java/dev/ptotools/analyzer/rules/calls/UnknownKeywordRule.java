package dev.ptotools.analyzer.rules.calls;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO403: a keyword a program-function call does not accept. A call takes attrs=, and device= only
 * when the callee is an orchestrator; in jit style, keywords that name parameters too.
 */
public final class UnknownKeywordRule extends CallRule {

	@Override
	public String id() {
		return "PTO403";
	}

	@Override
	public String name() {
		return "unknown-keyword-argument";
	}

	@Override
	public String title() {
		return "Program function called with a keyword it does not accept";
	}

	@Override
	public String description() {
		return "Calls of program functions pass arguments positionally. The only keywords are attrs= and, for"
				+ " a dispatch to an orchestrator, device=; pypto rejects any other.";
	}

	@Override
	void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call) {
		Function callee = calls.target(call);
		if (callee == null) {
			return;
		}
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		FunctionInfo info = kinds.of(callee);
		boolean orchestrator = info.role() == Role.Orchestrator;
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() == null || k.name().equals("attrs")) {
				continue;
			}
			if (k.name().equals("device") && orchestrator) {
				continue;
			}
			if (p.style() == Program.Style.JIT && callee.param(k.name()) != null) {
				continue;
			}
			List<String> allowed = new ArrayList<>(List.of("attrs"));
			if (orchestrator) {
				allowed.add("device");
			}
			String why = k.name().equals("device") ? "; " + callee.name() + " is a " + info.describe()
					+ ", and only orchestrators are dispatched to a device" : "";
			ctx.report(k.nameSpan(), "Function '" + callee.name() + "' does not accept keyword argument '" + k.name()
					+ "' (allowed: " + allowed + ")" + why);
		}
	}
}
