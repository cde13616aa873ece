package dev.ptotools.lsp;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.language.source.LineMap;

/** Conversions between our offsets and spans and LSP positions, ranges and diagnostics. */
public final class Lsp {

	/** Source name of our diagnostics. */
	public static final String SOURCE = "pto";

	private Lsp() {
	}

	public static Position position(LineMap lines, int offset) {
		return new Position(lines.line(offset) - 1, lines.column(offset) - 1);
	}

	public static Range range(LineMap lines, Span span) {
		return new Range(position(lines, span.start()), position(lines, span.end()));
	}

	/** The offset of a position, clamped into the text (positions past a line's end mean its end). */
	public static int offset(LineMap lines, String text, Position p) {
		if (p == null) {
			return 0;
		}
		int line = Math.max(0, p.getLine()) + 1;
		if (line > lines.lineCount()) {
			return text.length();
		}
		int start = lines.lineStart(line);
		int end = lines.lineEnd(text, line);
		return Math.min(end, start + Math.max(0, p.getCharacter()));
	}

	public static DiagnosticSeverity severity(Severity s) {
		switch (s) {
		case ERROR:
			return DiagnosticSeverity.Error;
		case WARNING:
			return DiagnosticSeverity.Warning;
		case INFO:
			return DiagnosticSeverity.Information;
		default:
			return DiagnosticSeverity.Hint;
		}
	}

	public static org.eclipse.lsp4j.Diagnostic diagnostic(Diagnostic d, LineMap lines, String uri, boolean related) {
		org.eclipse.lsp4j.Diagnostic out = new org.eclipse.lsp4j.Diagnostic(range(lines, d.span()), d.message(),
				severity(d.severity()), SOURCE, d.rule());
		String doc = RuleDocs.uri(d.rule());
		if (doc != null) {
			out.setCodeDescription(new org.eclipse.lsp4j.DiagnosticCodeDescription(doc));
		}
		if (related && !d.related().isEmpty()) {
			List<DiagnosticRelatedInformation> infos = new ArrayList<>();
			for (Diagnostic.Related r : d.related()) {
				infos.add(new DiagnosticRelatedInformation(new Location(uri, range(lines, r.span())), r.message()));
			}
			out.setRelatedInformation(infos);
		}
		return out;
	}

	public static List<TextEdit> edits(Fix fix, LineMap lines) {
		List<TextEdit> out = new ArrayList<>();
		for (Fix.Edit e : fix.edits()) {
			out.add(new TextEdit(range(lines, e.span()), e.replacement()));
		}
		return out;
	}

	/** A local path for a file: URI, else null (untitled documents have none). */
	public static Path path(String uri) {
		try {
			URI u = URI.create(uri);
			return "file".equals(u.getScheme()) ? Path.of(u) : null;
		} catch (RuntimeException e) {
			return null;
		}
	}

	public static String uri(Path path) {
		return path.toUri().toString();
	}

	public static boolean contains(Range outer, Position p) {
		return compare(outer.getStart(), p) <= 0 && compare(p, outer.getEnd()) <= 0;
	}

	public static int compare(Position a, Position b) {
		return a.getLine() != b.getLine() ? Integer.compare(a.getLine(), b.getLine())
				: Integer.compare(a.getCharacter(), b.getCharacter());
	}
}
