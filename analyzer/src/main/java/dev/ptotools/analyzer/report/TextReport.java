package dev.ptotools.analyzer.report;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * {@code pto check} for people: {@code path:line:col: ID message}, the source line with a caret under
 * the finding, the notes and fixes, and a summary line with counts. ANSI colour only when asked for
 * (the CLI asks on a terminal without NO_COLOR).
 */
public final class TextReport {

	private static final String RESET = "\u001b[0m";
	private static final String BOLD = "\u001b[1m";
	private static final String DIM = "\u001b[2m";

	private TextReport() {
	}

	public static String write(List<FileReport> files, int filesChecked, boolean color) {
		StringBuilder b = new StringBuilder();
		for (FileReport f : files) {
			for (Diagnostic d : f.diagnostics()) {
				finding(b, f, d, color);
			}
		}
		b.append(summary(Summary.of(files), filesChecked, color)).append('\n');
		return b.toString();
	}

	static void finding(StringBuilder b, FileReport f, Diagnostic d, boolean color) {
		Range r = Range.of(d.span(), f.lines());
		String sev = colour(d.severity());
		b.append(paint(f.path() + ":" + r.line() + ":" + r.column() + ":", BOLD, color)).append(' ')
				.append(paint(d.rule(), BOLD + sev, color)).append(' ').append(printable(d.message())).append('\n');
		String source = Sources.lineText(f, d.span().start());
		String number = Integer.toString(r.line());
		String gutter = " ".repeat(number.length());
		int startCol = Math.min(r.column() - 1, source.length());
		int endCol = r.endLine() == r.line() ? Math.min(r.endColumn() - 1, source.length()) : source.length();
		// A long line is shown around the finding only, and control characters as visible symbols, so a
		// minified or binary file cannot flood or drive the terminal.
		int from = 0;
		int to = source.length();
		if (to > MAX_SHOWN) {
			from = Math.max(0, Math.min(startCol - CONTEXT, to - MAX_SHOWN));
			to = from + MAX_SHOWN;
		}
		String line = (from > 0 ? "…" : "") + printable(source.substring(from, to)) + (to < source.length() ? "…" : "");
		int shift = from > 0 ? 1 - from : 0;
		startCol = Math.max(0, startCol + shift);
		endCol = Math.max(startCol, Math.min(endCol + shift, line.length()));
		b.append(paint("  " + number + " | ", DIM, color)).append(line).append('\n');
		int width = Math.max(1, endCol - startCol);
		StringBuilder pad = new StringBuilder();
		for (int i = 0; i < startCol && i < line.length(); i++) {
			pad.append(line.charAt(i) == '\t' ? '\t' : ' ');
		}
		b.append(paint("  " + gutter + " | ", DIM, color)).append(pad).append(paint("^".repeat(width), sev, color))
				.append('\n');
		for (Diagnostic.Related rel : d.related()) {
			Range rr = Range.of(rel.span(), f.lines());
			b.append("  ").append(gutter).append(" = note: ").append(f.path()).append(':').append(rr.line()).append(':')
					.append(rr.column()).append(": ").append(rel.message()).append('\n');
		}
		for (Fix fix : d.fixes()) {
			if (!fix.title().startsWith("Suppress ")) {
				b.append("  ").append(gutter).append(" = fix").append(fix.preferred() ? " (preferred)" : "").append(": ")
						.append(fix.title()).append('\n');
			}
		}
	}

	/** The longest part of a source line shown, and how much of it goes before the finding. */
	static final int MAX_SHOWN = 160;
	static final int CONTEXT = 60;

	/**
	 * Text safe to print: C0 controls but tab, DEL, C1 controls and the bidirectional overrides (which
	 * reorder what a terminal shows) become one visible symbol each (U+2400 Control Pictures, else
	 * U+FFFD), so columns stay where they were.
	 */
	static String printable(String s) {
		StringBuilder out = null;
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			char shown = c < 0x20 && c != '\t' ? (char) (0x2400 + c)
					: c == 0x7F ? '\u2421'
							: (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)
									? '\uFFFD'
									: c;
			if (shown != c && out == null) {
				out = new StringBuilder(s.length()).append(s, 0, i);
			}
			if (out != null) {
				out.append(shown);
			}
		}
		return out == null ? s : out.toString();
	}

	/** "Found 3 findings (1 error, 2 warnings) in 2 of 5 files." or "No findings in 5 files." */
	public static String summary(Summary s, int filesChecked, boolean color) {
		String files = filesChecked + (filesChecked == 1 ? " file" : " files");
		if (s.total() == 0) {
			return paint("No findings in " + files + ".", BOLD, color);
		}
		List<String> parts = new ArrayList<>();
		part(parts, s.count(Severity.ERROR), "error", "errors");
		part(parts, s.count(Severity.WARNING), "warning", "warnings");
		part(parts, s.count(Severity.INFO), "info", "info");
		part(parts, s.count(Severity.HINT), "hint", "hints");
		return paint("Found " + s.total() + (s.total() == 1 ? " finding" : " findings") + " (" + String.join(", ", parts)
				+ ") in " + s.filesWithFindings() + " of " + files + ".", BOLD, color);
	}

	private static void part(List<String> parts, int n, String one, String many) {
		if (n > 0) {
			parts.add(n + " " + (n == 1 ? one : many));
		}
	}

	private static String colour(Severity s) {
		return switch (s) {
		case ERROR -> "\u001b[31m";
		case WARNING -> "\u001b[33m";
		case INFO, HINT -> "\u001b[36m";
		};
	}

	private static String paint(String s, String code, boolean color) {
		return color ? code + s + RESET : s;
	}
}
