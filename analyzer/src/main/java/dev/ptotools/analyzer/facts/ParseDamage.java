package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.ir.Span;

/**
 * Where a file's syntax errors broke its programs, so that findings standing on broken code are not
 * reported, as pyright and rust-analyzer leave out the follow-on diagnostics of a syntax error. The parser
 * recovers and the analysis runs on what it made; these are the places that recovery made up.
 *
 * @param broken what the parser had to repair: the statement holding a syntax error (a compound statement
 *            whole when the error is in its header), what its error recovery left in a statement list, a
 *            function whole when its header is broken (and every call of it), a program whole when its
 *            class header is; in source order
 * @param brokenReads later reads of a name that a broken assignment binds to what the parser made up
 * @param brokenFunctions the DSL functions holding something broken
 * @param loops every rank loop, with whether it holds something broken
 */
public record ParseDamage(List<Span> broken, List<Span> brokenReads, List<Span> brokenFunctions, List<Loop> loops) {

	/** A rank loop: its span, its header, and whether anything in it is broken. */
	public record Loop(Span span, Span header, boolean broken) {
	}

	public static final ParseDamage NONE = new ParseDamage(List.of(), List.of(), List.of(), List.of());

	public boolean isEmpty() {
		return broken.isEmpty();
	}

	/** Whether a span meets something broken, or reads a name a broken statement bound. */
	public boolean breaks(Span span) {
		return meets(broken, span) || meets(brokenReads, span);
	}

	/** Whether the function around a span holds something broken. */
	public boolean inBrokenFunction(Span span) {
		return brokenFunctions.stream().anyMatch(f -> f.contains(span));
	}

	/**
	 * Whether a verdict is on a broken rank loop: the innermost rank loop holding the finding, or the one
	 * its related locations name by its header. A loop is broken when it holds something broken or its
	 * header reads a name a broken statement bound; a read in its body breaks the statement there, not the
	 * verdict (two dispatches stay two whatever their arguments hold).
	 */
	public boolean onBrokenLoop(Diagnostic d) {
		Loop innermost = null;
		for (Loop l : loops) {
			if (d.related().stream().anyMatch(r -> r.span().equals(l.header()))) {
				return l.broken();
			}
			if (l.span().contains(d.span()) && (innermost == null || innermost.span().contains(l.span()))) {
				innermost = l;
			}
		}
		return innermost != null && innermost.broken();
	}

	private static boolean meets(List<Span> spans, Span s) {
		for (Span b : spans) {
			if (overlap(b, s) || overlap(s, b)) {
				return true;
			}
		}
		return false;
	}

	/** Whether b shares a character with a, or an empty b lies inside a or at its end. */
	private static boolean overlap(Span a, Span b) {
		return b.start() < a.end() && a.start() < b.end() || b.start() == b.end() && a.start() <= b.start()
				&& b.start() <= a.end();
	}
}
