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
}
