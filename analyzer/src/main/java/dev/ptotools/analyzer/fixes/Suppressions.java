package dev.ptotools.analyzer.fixes;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.ir.Span;

/** The suppress fixes every finding offers: {@code # pto: ignore[ID]} on its line or for the file. */
public final class Suppressions {

	private static final Pattern LINE_COMMENT = Pattern.compile("#\\s*pto:\\s*ignore\\[([A-Za-z0-9_,\\s]*)\\]");

	private Suppressions() {
	}

	public static List<Fix> fixesFor(Diagnostic d, String text) {
		return List.of(onLine(d, text), forFile(d, text));
	}

	static Fix onLine(Diagnostic d, String text) {
		int start = SourceEdits.lineStart(text, d.span().start());
		int end = SourceEdits.lineEnd(text, d.span().start());
		String line = text.substring(start, end);
		Matcher m = LINE_COMMENT.matcher(line);
		Fix.Edit edit;
		if (m.find()) {
			int at = start + m.end(1);
			edit = new Fix.Edit(new Span(at, at), ", " + d.rule());
		} else {
			edit = new Fix.Edit(new Span(end, end), "  # pto: ignore[" + d.rule() + "]");
		}
		return new Fix("Suppress " + d.rule() + " on this line", List.of(edit), false);
	}

	static Fix forFile(Diagnostic d, String text) {
		int at = 0;
		// Keep a shebang and a coding declaration first.
		for (int i = 0; i < 2; i++) {
			int end = SourceEdits.lineEnd(text, at);
			String line = text.substring(at, end);
			if (line.startsWith("#!") || (line.startsWith("#") && line.contains("coding"))) {
				at = SourceEdits.nextLineStart(text, at);
			} else {
				break;
			}
		}
		return new Fix("Suppress " + d.rule() + " in this file",
				List.of(new Fix.Edit(new Span(at, at), "# pto: ignore-file[" + d.rule() + "]" + SourceEdits.newline(text))),
				false);
	}
}
