package dev.ptotools.analyzer.fixes;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.ir.Span;

/** Text helpers for building fixes: lines, indentation, the file's line break. */
public final class SourceEdits {

	private SourceEdits() {
	}

	/** The line break the file uses ("\r\n" when its first line break is one, else "\n"). */
	public static String newline(String text) {
		int i = text.indexOf('\n');
		if (i > 0 && text.charAt(i - 1) == '\r') {
			return "\r\n";
		}
		if (i < 0 && text.indexOf('\r') >= 0) {
			return "\r";
		}
		return "\n";
	}

	public static int lineStart(String text, int offset) {
		int i = Math.min(offset, text.length());
		while (i > 0 && text.charAt(i - 1) != '\n' && text.charAt(i - 1) != '\r') {
			i--;
		}
		return i;
	}

	/** Offset of the line break ending the line of offset (or the text length). */
	public static int lineEnd(String text, int offset) {
		int i = Math.max(0, offset);
		while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
			i++;
		}
		return i;
	}

	/** Offset just past the line break ending the line of offset. */
	public static int nextLineStart(String text, int offset) {
		int i = lineEnd(text, offset);
		if (i < text.length() && text.charAt(i) == '\r') {
			i++;
		}
		if (i < text.length() && text.charAt(i) == '\n') {
			i++;
		}
		return i;
	}

	/** The leading whitespace of the line holding offset. */
	public static String indent(String text, int offset) {
		int start = lineStart(text, offset);
		int i = start;
		while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
			i++;
		}
		return text.substring(start, i);
	}

	/** The indentation one level deeper than a header's, guessed from the file (4 spaces by default). */
	public static String bodyIndent(String text, int headerOffset, int bodyOffset) {
		String body = indent(text, bodyOffset);
		return body.length() > indent(text, headerOffset).length() ? body : indent(text, headerOffset) + "    ";
	}

	/**
	 * Whether a span occupies whole lines: only whitespace before it on its first line, and only
	 * whitespace or a comment after it on its last.
	 */
	public static boolean ownsLines(String text, Span span) {
		int start = lineStart(text, span.start());
		if (!text.substring(start, span.start()).isBlank()) {
			return false;
		}
		int end = lineEnd(text, span.end());
		String rest = text.substring(span.end(), end).strip();
		return rest.isEmpty() || rest.startsWith("#");
	}

	/** The whole lines of a span, line breaks included. */
	public static Span wholeLines(String text, Span span) {
		return new Span(lineStart(text, span.start()), nextLineStart(text, span.end()));
	}

	/** Re-indents a block of lines from one indentation to another. */
	public static String reindent(String block, String from, String to) {
		StringBuilder b = new StringBuilder();
		for (String line : block.split("(?<=\n)|(?<=\r)(?!\n)", -1)) {
			if (line.startsWith(from)) {
				b.append(to).append(line.substring(from.length()));
			} else {
				b.append(line);
			}
		}
		return b.toString();
	}

	/** Inserts a line of code before the line holding offset, at a given indentation. */
	public static Fix.Edit insertLineBefore(String text, int offset, String indent, String code) {
		int at = lineStart(text, offset);
		return new Fix.Edit(new Span(at, at), indent + code + newline(text));
	}

	public static Fix.Edit replace(Span span, String replacement) {
		return new Fix.Edit(span, replacement);
	}
}
