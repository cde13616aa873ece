package dev.ptotools.analyzer.rules.host;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO304: a HOST orchestrator calls a function that is neither a CHIP orchestrator nor a HOST sub-worker. */
public final class HierarchyCallRule extends HostRule {

	@Override
	public String id() {
		return "PTO304";
	}

	@Override
	public String name() {
		return "host-calls-wrong-level";
	}

	@Override
	public String title() {
		return "HOST orchestrator calls a function of the wrong level";
	}

	@Override
	public String description() {
		return "Each level dispatches only to the next level down: a HOST orchestrator calls CHIP orchestrators"
				+ " (or HOST-level sub-workers); kernels are called by the CHIP orchestrator.";
	}

	@Override
	void checkHost(RuleContext ctx, Program p, Function host) {
		CallResolution calls = ctx.get(Keys.CALLS);
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		for (Expr.Call c : calls.callsIn(host)) {
			Function callee = calls.target(c);
			if (callee == null) {
				continue;
			}
			FunctionInfo info = kinds.of(callee);
			boolean nextLevel = info.kind() == FunctionInfo.Kind.CHIP_ORCHESTRATOR;
			boolean sameLevelWorker = info.level() == Level.HOST && info.role() == Role.SubWorker;
			if (!nextLevel && !sameLevelWorker) {
				ctx.report(c.span(), "HOSTLevel Orch func '" + host.name() + "' can only call same level sub-worker or"
						+ " next level Orch, but call to func '" + callee.name() + "' has level = '"
						+ (info.level() == null ? "none" : info.level()) + "', role = '"
						+ (info.role() == null ? "none" : info.role()) + "'.");
			}
		}
	}
}
