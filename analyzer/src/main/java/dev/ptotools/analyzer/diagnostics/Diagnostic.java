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

	/**
	 * The same finding with every place it names (its span, its related locations, its fixes' edits) put
	 * through {@code place}; null when {@code place} gives null for any of them (it has no counterpart).
	 */
	public Diagnostic withPlaces(java.util.function.UnaryOperator<Span> place) {
		Span moved = place.apply(span);
		if (moved == null) {
			return null;
		}
		List<Related> movedRelated = new java.util.ArrayList<>(related.size());
		for (Related r : related) {
			Span s = place.apply(r.span());
			if (s == null) {
				return null;
			}
			movedRelated.add(s.equals(r.span()) ? r : new Related(s, r.message()));
		}
		List<Fix> movedFixes = new java.util.ArrayList<>(fixes.size());
		for (Fix f : fixes) {
			List<Fix.Edit> edits = new java.util.ArrayList<>(f.edits().size());
			for (Fix.Edit e : f.edits()) {
				Span s = place.apply(e.span());
				if (s == null) {
					return null;
				}
				edits.add(s.equals(e.span()) ? e : new Fix.Edit(s, e.replacement()));
			}
			movedFixes.add(new Fix(f.title(), List.copyOf(edits), f.preferred()));
		}
		return new Diagnostic(rule, severity, message, moved, List.copyOf(movedRelated), List.copyOf(movedFixes));
	}

	public Diagnostic withFixes(List<Fix> more) {
		return new Diagnostic(rule, severity, message, span, related, more);
	}
}
