package dev.ptotools.analyzer.diagnostics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.ptotools.analyzer.ir.Span;

/**
 * A quick-fix as data: text edits on the source. {@code preferred} marks the one obvious fix
 * (editors apply it on a keystroke). Edits never overlap.
 */
public record Fix(String title, List<Edit> edits, boolean preferred) {

	/** Replace the text of a span (an empty span inserts). */
	public record Edit(Span span, String replacement) {
	}

	/** Applies the edits to a text, from last to first so offsets stay valid. */
	public String applyTo(String text) {
		List<Edit> sorted = new ArrayList<>(edits);
		sorted.sort(Comparator.comparingInt((Edit e) -> e.span().start()).reversed());
		StringBuilder b = new StringBuilder(text);
		for (Edit e : sorted) {
			b.replace(e.span().start(), e.span().end(), e.replacement());
		}
		return b.toString();
	}
}
