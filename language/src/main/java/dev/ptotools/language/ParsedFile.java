package dev.ptotools.language;

import java.util.List;

import org.eclipse.xtext.nodemodel.ICompositeNode;

import dev.ptotools.language.python.SourceFile;
import dev.ptotools.language.source.LineMap;

/**
 * One parsed source file: its text, its AST (possibly partial), the node model that holds every
 * token with its position, and its syntax problems in source order. The AST and node model are null
 * only in a copy made by {@link #withoutSyntaxTree()}.
 */
public record ParsedFile(String text, SourceFile ast, ICompositeNode rootNode, List<SyntaxProblem> problems,
		LineMap lines, SpanIndex spans) {

	/**
	 * This file without its EMF AST, node model and span index, which are most of its memory (about
	 * ten times its IR). For holders of many files, such as the language server with every open
	 * document, once lowering has read them: text, lines and problems stay.
	 */
	public ParsedFile withoutSyntaxTree() {
		return new ParsedFile(text, null, null, problems, lines, SpanIndex.of((ICompositeNode) null));
	}

	public boolean hasSyntaxTree() {
		return ast != null;
	}

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
