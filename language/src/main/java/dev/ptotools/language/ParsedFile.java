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

	/**
	 * The offsets of the nodes the parser's recovery marked with a syntax error, in the whole node model
	 * or in the pieces an {@link IncrementalParser} composed the file from.
	 */
	public List<Integer> syntaxErrorNodeOffsets() {
		List<Integer> out = new java.util.ArrayList<>();
		for (int at : spans.syntaxErrorOffsets()) {
			out.add(at);
		}
		return out;
	}

	/** The AST object of the token at an offset (as the node model finds it), or null. */
	public org.eclipse.emf.ecore.EObject objectAt(int offset) {
		SpanIndex.PieceRoot holder = null;
		for (SpanIndex.PieceRoot piece : roots()) {
			if (piece.start() <= offset) {
				holder = piece; // the pieces are contiguous: the last one starting at or before the offset
			}
		}
		org.eclipse.xtext.nodemodel.INode leaf = holder == null ? null
				: org.eclipse.xtext.nodemodel.util.NodeModelUtils.findLeafNodeAtOffset(holder.root(), offset - holder.start());
		return leaf == null ? null : org.eclipse.xtext.nodemodel.util.NodeModelUtils.findActualSemanticObjectFor(leaf);
	}

	private List<SpanIndex.PieceRoot> roots() {
		if (rootNode != null) {
			return List.of(new SpanIndex.PieceRoot(rootNode, 0));
		}
		return spans == null ? List.of() : spans.pieceRoots();
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
