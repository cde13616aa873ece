package dev.ptotools.language.parser;

import java.util.List;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.parser.ParseResult;

/**
 * Xtext's parse result plus the problems the token layout found. It is what the bound parser
 * returns, so an XtextResource carries the layout problems too.
 */
public class PythonParseResult extends ParseResult {

	private final List<LexicalProblem> lexicalProblems;
	private final List<Integer> logicalLineEnds;

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems) {
		this(root, rootNode, parserErrors, lexicalProblems, List.of());
	}

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems, List<Integer> logicalLineEnds) {
		super(root, rootNode, parserErrors || !lexicalProblems.isEmpty());
		this.lexicalProblems = lexicalProblems;
		this.logicalLineEnds = logicalLineEnds;
	}

	public List<LexicalProblem> getLexicalProblems() {
		return lexicalProblems;
	}

	/** Offsets of the NEWLINEs that end logical lines, in order; empty when not known. */
	public List<Integer> getLogicalLineEnds() {
		return logicalLineEnds;
	}
}
