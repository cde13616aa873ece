package dev.ptotools.analyzer.rules.host;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** Shared shape of the rules that check HOST orchestrators the way pypto's distributed codegen does. */
abstract class HostRule implements Rule {

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
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			for (Function f : p.functions()) {
				if (kinds.isHostOrchestrator(f)) {
					checkHost(ctx, p, f);
				}
			}
		}
	}

	abstract void checkHost(RuleContext ctx, Program p, Function host);

	/**
	 * The bodies of {@code with pl.at(level=L, ...)} scopes in a HOST function whose level L is below HOST
	 * (CHIP, CORE_GROUP...): pypto's OutlineHierarchyScopes moves each into a function of that level
	 * ({@code <host>_chip_orch_0}) before the distributed codegen runs, so their statements are not HOST
	 * code. Returned as spans, outermost scopes only.
	 */
	static List<dev.ptotools.analyzer.ir.Span> lowerLevelScopes(RuleContext ctx, Function host) {
		List<dev.ptotools.analyzer.ir.Span> out = new java.util.ArrayList<>();
		dev.ptotools.analyzer.ir.Imports imports = ctx.get(Keys.MODULE).imports();
		dev.ptotools.analyzer.ir.Walk.statements(host.body(), s -> {
			if (!(s instanceof dev.ptotools.analyzer.ir.Stmt.With w) || w.body().isEmpty()
					|| out.stream().anyMatch(sp -> sp.contains(w.span()))) {
				return;
			}
			for (dev.ptotools.analyzer.ir.Stmt.WithItem item : w.items()) {
				if (item.context() instanceof dev.ptotools.analyzer.ir.Expr.Call c && c.funcText() != null
						&& "pl.at".equals(imports.normalize(c.funcText())) && c.keyword("level") != null) {
					String dotted = dev.ptotools.analyzer.lower.ExprLowering.dotted(c.keyword("level").value());
					String last = dotted == null ? null : dotted.substring(dotted.lastIndexOf('.') + 1);
					dev.ptotools.analyzer.ir.Level level = last == null ? null : dev.ptotools.analyzer.ir.Level.named(last);
					if (level != null && level.ordinal() < dev.ptotools.analyzer.ir.Level.HOST.ordinal()) {
						out.add(w.span());
					}
				}
			}
		});
		return out;
	}
}
