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

	public PythonParseResult(EObject root, ICompositeNode rootNode, boolean parserErrors,
			List<LexicalProblem> lexicalProblems) {
		super(root, rootNode, parserErrors || !lexicalProblems.isEmpty());
		this.lexicalProblems = lexicalProblems;
	}

	public List<LexicalProblem> getLexicalProblems() {
		return lexicalProblems;
	}
}
