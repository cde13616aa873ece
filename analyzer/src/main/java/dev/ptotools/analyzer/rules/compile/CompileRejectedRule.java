package dev.ptotools.analyzer.rules.compile;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;

/** PTO500: pypto rejects the program. Reported from the compiler's findings (see {@link CompileFindings}). */
public final class CompileRejectedRule extends CompileFindingRule {

	public CompileRejectedRule() {
		super(CompileFindings.Kind.REJECTED);
	}

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
}
