package dev.ptotools.language.parser;

import java.util.List;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.parser.ParseResult;

import dev.ptotools.language.SpanIndex;

/**
 * Xtext's parse result plus the problems the token layout found. It is what the bound parser
 * returns, so an XtextResource carries the layout problems too.
 */
public class PythonParseResult extends ParseResult {

	private final List<LexicalProblem> lexicalProblems;
	private final List<Integer> logicalLineEnds;
	private final SpanIndex spans;
	private final List<EObject> syntaxCheckObjects;

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems) {
		this(root, rootNode, parserErrors, lexicalProblems, List.of());
	}

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems, List<Integer> logicalLineEnds) {
		this(root, rootNode, parserErrors, lexicalProblems, logicalLineEnds, null, null);
	}

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems, List<Integer> logicalLineEnds, SpanIndex spans,
			List<EObject> syntaxCheckObjects) {
		super(root, rootNode, parserErrors || !lexicalProblems.isEmpty());
		this.lexicalProblems = lexicalProblems;
		this.logicalLineEnds = logicalLineEnds;
		this.spans = spans;
		this.syntaxCheckObjects = syntaxCheckObjects;
	}

	public List<LexicalProblem> getLexicalProblems() {
		return lexicalProblems;
	}

	/**
	 * The spans of the AST objects, noted while the parser built the nodes; null when they were not (a
	 * parse through another entry point, or one the parser had to repair), and then a walk over the node
	 * model ({@link SpanIndex#of(ICompositeNode)}) gives them.
	 */
	public SpanIndex getSpans() {
		return spans;
	}

	/**
	 * The objects of {@link #getSpans()} that the syntax checks look at, in the same order; null exactly
	 * when the spans are.
	 */
	public List<EObject> getSyntaxCheckObjects() {
		return syntaxCheckObjects;
	}

	/** Offsets of the NEWLINEs that end logical lines, in order; empty when not known. */
	public List<Integer> getLogicalLineEnds() {
		return logicalLineEnds;
	}
}
