package dev.ptotools.language;

import java.util.List;

import org.eclipse.xtext.nodemodel.ICompositeNode;

import dev.ptotools.language.python.SourceFile;
import dev.ptotools.language.source.LineMap;

/**
 * One parsed source file: its text, its AST (never null, possibly partial), the node model that
 * holds every token with its position, and its syntax problems in source order.
 */
public record ParsedFile(String text, SourceFile ast, ICompositeNode rootNode, List<SyntaxProblem> problems,
		LineMap lines, SpanIndex spans) {

	public boolean hasProblems() {
		return !problems.isEmpty();
	}

	/** The exact span of an AST object of this file. */
	public Spans.Span span(org.eclipse.emf.ecore.EObject object) {
		return spans.of(object);
	}

	/** The source text of a span. */
	public String text(Spans.Span span) {
		return text.substring(span.offset(), span.end());
	}
}
