package dev.ptotools.analyzer.report;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.language.source.LineMap;

/**
 * A span as people and report formats count: 1-based lines and columns (UTF-16 code units, as LSP
 * and SARIF's default column kind), the end column just past the last character.
 */
public record Range(int line, int column, int endLine, int endColumn) {

	public static Range of(Span span, LineMap lines) {
		Span s = span == null ? Span.NONE : span;
		return new Range(lines.line(s.start()), lines.column(s.start()), lines.line(s.end()), lines.column(s.end()));
	}

	public boolean empty() {
		return line == endLine && column == endColumn;
	}
}
