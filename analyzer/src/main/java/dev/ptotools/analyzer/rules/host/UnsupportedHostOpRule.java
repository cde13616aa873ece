package dev.ptotools.analyzer.rules.host;

import java.util.List;

import java.util.Set;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO303: a tensor or tile op that the HOST orchestrator's codegen cannot lower. */
public final class UnsupportedHostOpRule extends HostRule {

	/** The tensor ops pypto's distributed codegen handles at HOST level. */
	private static final Set<String> SUPPORTED = Set.of("tensor.create", "tensor.slice", "tensor.assemble");

	@Override
	public String id() {
		return "PTO303";
	}

	@Override
	public String name() {
		return "unsupported-host-op";
	}

	@Override
	public String title() {
		return "Tensor or tile op that a HOST orchestrator cannot run";
	}

	@Override
	public String description() {
		return "A HOST orchestrator runs as Python on the host: it can create, slice and assemble tensors and"
				+ " dispatch work, but it cannot compute. pypto's distributed codegen rejects every other tensor"
				+ " or tile op there.";
	}

	@Override
	void checkHost(RuleContext ctx, Program p, Function host) {
		CallResolution calls = ctx.get(Keys.CALLS);
		List<dev.ptotools.analyzer.ir.Span> lower = lowerLevelScopes(ctx, host);
		for (Expr.Call c : calls.callsIn(host)) {
			if (lower.stream().anyMatch(sp -> sp.contains(c.span()))) {
				continue; // runs at the scope's level once pypto outlines it
			}
			if (!(calls.of(c) instanceof Callee.BuiltinCall b) || b.builtin().op() == null) {
				continue;
			}
			String op = b.builtin().op().split(" \\| ")[0];
			if ((op.startsWith("tensor.") || op.startsWith("tile.")) && !SUPPORTED.contains(op)) {
				ctx.report(c.span(), "DistributedCodegen does not support op '" + op + "' in function '" + host.name()
						+ "'. Move this operation into a lower-level function or add a registered HOST-orchestrator"
						+ " lowering.");
			}
		}
	}
}
