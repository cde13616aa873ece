package dev.ptotools.analyzer.rules.host;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO302: pl.create_tensor nested in a for or if of a HOST orchestrator. */
public final class NestedHostCreateRule extends HostRule {

	@Override
	public String id() {
		return "PTO302";
	}

	@Override
	public String name() {
		return "nested-host-tensor-create";
	}

	@Override
	public String title() {
		return "pl.create_tensor nested in a HOST orchestrator's for or if";
	}

	@Override
	public String description() {
		return "The host allocates its intermediate tensors once, before the orchestration runs"
				+ " (_alloc_intermediates), which needs every pl.create_tensor to be a top-level, unconditional"
				+ " statement of the HOST orchestrator.";
	}

	@Override
	void checkHost(RuleContext ctx, Program p, Function host) {
		CallResolution calls = ctx.get(Keys.CALLS);
		FunctionScope scope = new FunctionScope(host, calls);
		Walk.statements(host.body(), s -> {
			for (Expr.Call c : Walk.ownCalls(s)) {
				if (!calls.isBuiltin(c, "tensor.create")) {
					continue;
				}
				String where = null;
				for (Stmt outer : scope.enclosing(s)) {
					if (outer instanceof Stmt.For) {
						where = "for-loop";
						break;
					}
					if (outer instanceof Stmt.If i) {
						where = i.body().stream().anyMatch(b -> b.span().contains(s.span())) ? "if-then" : "if-else";
						break;
					}
				}
				if (where != null) {
					ctx.report(c.span(), "pl.create_tensor in HOST orchestrator must be a top-level statement (not"
							+ " nested inside " + where + "). Pre-init hoisting requires static, unconditional allocation.");
				}
			}
		});
	}
}
