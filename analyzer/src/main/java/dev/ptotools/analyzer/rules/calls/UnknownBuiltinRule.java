package dev.ptotools.analyzer.rules.calls;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.catalog.Builtins;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.fixes.Names;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO404: pl.x(...) or pld.x(...) where x is not a member of pypto's public surface. Fix: the closest member. */
public final class UnknownBuiltinRule extends CallRule {

	@Override
	public String id() {
		return "PTO404";
	}

	@Override
	public String name() {
		return "unknown-pl-member";
	}

	@Override
	public String title() {
		return "Unknown pl. or pld. member";
	}

	@Override
	public String description() {
		return "pypto resolves pl.* and pld.* calls against its op namespaces; a name that is not there is an"
				+ " 'Unknown operation' error when the program is parsed.";
	}

	@Override
	void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call) {
		if (!(calls.of(call) instanceof Callee.UnknownBuiltin u) || Builtins.get().isNamespace(u.written())) {
			return;
		}
		int dot = u.written().lastIndexOf('.');
		String prefix = u.written().substring(0, dot + 1);
		String member = u.written().substring(dot + 1);
		List<String> candidates = new ArrayList<>(Builtins.get().membersOf(prefix));
		String closest = Names.closest(member, candidates);
		List<Fix> fixes = List.of();
		if (closest != null && call.func() instanceof Expr.Attribute a) {
			fixes = List.of(new Fix("Call " + prefix + closest, List.of(new Fix.Edit(a.attrSpan(), closest)), true));
		}
		String kind = u.written().startsWith("pld.") ? "distributed operation" : "operation";
		ctx.report(call.func() instanceof Expr.Attribute a ? a.attrSpan() : call.span(),
				"Unknown " + kind + " '" + u.written() + "'" + (closest != null ? "; did you mean '" + prefix + closest + "'?" : ""),
				List.of(), fixes);
	}
}
