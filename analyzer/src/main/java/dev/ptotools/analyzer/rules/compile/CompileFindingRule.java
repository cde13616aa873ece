package dev.ptotools.analyzer.rules.compile;

import java.util.List;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * Shared shape of the rules that report the compiler's findings of one kind (the compile runs as a pass,
 * {@link Keys#COMPILE}): each finding at its place, with the program it concerns.
 */
abstract class CompileFindingRule implements Rule {

	private final CompileFindings.Kind kind;

	CompileFindingRule(CompileFindings.Kind kind) {
		this.kind = kind;
	}

	@Override
	public final List<Key<?>> needs() {
		return List.of(Keys.COMPILE);
	}

	@Override
	public final void check(RuleContext ctx) {
		for (CompileFindings.Finding f : ctx.get(Keys.COMPILE).findings()) {
			if (f.kind() == kind) {
				ctx.report(f.span(), f.program() == null ? f.message() : "[" + f.program() + "] " + f.message());
			}
		}
	}
}
