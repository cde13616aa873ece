package dev.ptotools.analyzer.rules.compile;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO500: pypto rejects the program. Reported from the compiler's findings (see {@link CompileFindings}). */
public final class CompileRejectedRule implements Rule {

	@Override
	public String id() {
		return "PTO500";
	}

	@Override
	public String name() {
		return "compile-rejected";
	}

	@Override
	public String title() {
		return "pypto rejects the program";
	}

	@Override
	public String description() {
		return "The program does not compile with pypto: its front end, one of its passes or its code generator raises an error here, so pypto writes none of the program's files. The message is pypto's.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.COMPILE);
	}

	@Override
	public void check(RuleContext ctx) {
		for (CompileFindings.Finding f : ctx.get(Keys.COMPILE).findings()) {
			if (f.kind() == CompileFindings.Kind.REJECTED) {
				ctx.report(f.span(), f.program() == null ? f.message() : "[" + f.program() + "] " + f.message());
			}
		}
	}
}
