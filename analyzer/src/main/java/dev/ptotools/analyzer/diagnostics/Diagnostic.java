package dev.ptotools.analyzer.diagnostics;

import java.util.List;

import dev.ptotools.analyzer.ir.Span;

/**
 * One finding: a rule, its severity (after configuration), a message, the primary span, related
 * spans that explain it, and the fixes that make it go away.
 */
public record Diagnostic(String rule, Severity severity, String message, Span span, List<Related> related,
		List<Fix> fixes) {

	/** A secondary location with a note ("the loop iterates here"). */
	public record Related(Span span, String message) {
	}

	public Diagnostic withSeverity(Severity s) {
		return new Diagnostic(rule, s, message, span, related, fixes);
	}

	public Diagnostic withFixes(List<Fix> more) {
		return new Diagnostic(rule, severity, message, span, related, more);
	}
}
