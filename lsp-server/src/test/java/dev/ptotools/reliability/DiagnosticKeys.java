package dev.ptotools.reliability;

import java.util.List;

import org.eclipse.lsp4j.PublishDiagnosticsParams;

import dev.ptotools.analyzer.pipeline.Analysis;

/**
 * Findings as comparable text, from a publication and from an analysis alike: rule, range (0-based
 * lines and columns) and message, sorted. The compile's findings (PTO500, PTO501) are left out: the
 * server publishes them in a second step.
 */
final class DiagnosticKeys {

	private DiagnosticKeys() {
	}

	static List<String> of(PublishDiagnosticsParams p) {
		return p.getDiagnostics().stream()
				.filter(d -> !d.getCode().getLeft().equals("PTO500") && !d.getCode().getLeft().equals("PTO501"))
				.map(d -> d.getCode().getLeft() + "@" + d.getRange().getStart().getLine() + ":"
						+ d.getRange().getStart().getCharacter() + "-" + d.getRange().getEnd().getLine() + ":"
						+ d.getRange().getEnd().getCharacter() + ":" + d.getMessage())
				.sorted().toList();
	}

	static List<String> of(Analysis a) {
		var lines = a.file().lines();
		return a.diagnostics().stream()
				.filter(d -> !d.rule().equals("PTO500") && !d.rule().equals("PTO501"))
				.map(d -> d.rule() + "@" + (lines.line(d.span().start()) - 1) + ":"
						+ (lines.column(d.span().start()) - 1) + "-" + (lines.line(d.span().end()) - 1) + ":"
						+ (lines.column(d.span().end()) - 1) + ":" + d.message())
				.sorted().toList();
	}
}
