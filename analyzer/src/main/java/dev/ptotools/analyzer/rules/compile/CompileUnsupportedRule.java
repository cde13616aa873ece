package dev.ptotools.analyzer.rules.compile;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;

/** PTO501: not compiled: a construct this compiler does not reproduce yet. Reported from the compiler's findings (see {@link CompileFindings}). */
public final class CompileUnsupportedRule extends CompileFindingRule {

	public CompileUnsupportedRule() {
		super(CompileFindings.Kind.UNSUPPORTED);
	}

	@Override
	public String id() {
		return "PTO501";
	}

	@Override
	public String name() {
		return "compile-unsupported";
	}

	@Override
	public String title() {
		return "not compiled: a construct this compiler does not reproduce yet";
	}

	@Override
	public String description() {
		return "The program is valid for pypto, but this compiler cannot yet produce exactly what pypto writes for it, so it writes none of the program's files rather than files that differ. pypto itself compiles it.";
	}

	@Override
	public Severity defaultSeverity() {
		// Our limitation, not the user's mistake: a warning in check, the editor and SARIF, as pyright reports
		// what it cannot analyze. pto compile still fails for the program it did not write.
		return Severity.WARNING;
	}
}
