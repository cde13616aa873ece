package dev.ptotools.language.parser;

import java.util.List;

import org.antlr.runtime.ANTLRStringStream;
import org.antlr.runtime.CharStream;
import org.antlr.runtime.TokenSource;
import org.eclipse.xtext.nodemodel.impl.NodeModelBuilder;
import org.eclipse.xtext.parser.IParseResult;

import dev.ptotools.language.parser.antlr.PythonParser;

/**
 * The generated parser, extended to hand the layout's problems over in the parse result. Bound as
 * the language's IParser, so every parse (batch, editor, content assist's full parse) gets them.
 */
public class PythonSourceParser extends PythonParser {

	// doParse creates the token source and runs the parse on the same thread, with no way to reach
	// the token source afterwards; this carries it from createLexer back to doParse.
	private static final ThreadLocal<PythonLayoutTokenSource> CURRENT = new ThreadLocal<>();

	@Override
	protected TokenSource createLexer(CharStream stream) {
		TokenSource source = super.createLexer(stream);
		if (source instanceof PythonLayoutTokenSource layout) {
			CURRENT.set(layout);
		}
		return source;
	}

	@Override
	protected IParseResult doParse(String ruleName, CharStream in, NodeModelBuilder builder, int lookAhead) {
		CURRENT.remove();
		try {
			IParseResult result = super.doParse(ruleName, in, builder, lookAhead);
			PythonLayoutTokenSource layout = CURRENT.get();
			List<LexicalProblem> problems = layout == null ? List.of() : List.copyOf(layout.getProblems());
			return new PythonParseResult(result.getRootASTElement(), result.getRootNode(), result.hasSyntaxErrors(),
					problems);
		} finally {
			CURRENT.remove();
		}
	}

	/** Parses text without the copy through a Reader that the inherited entry point makes. */
	public PythonParseResult parseText(String text) {
		return (PythonParseResult) parse(getDefaultRuleName(), new ANTLRStringStream(text));
	}
}
