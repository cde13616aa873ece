package dev.ptotools.language.parser;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.antlr.runtime.ANTLRStringStream;
import org.antlr.runtime.CharStream;
import org.antlr.runtime.CommonToken;
import org.antlr.runtime.IntStream;
import org.antlr.runtime.TokenSource;
import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.impl.NodeModelBuilder;
import org.eclipse.xtext.parser.antlr.XtextTokenStream;
import org.eclipse.xtext.parser.IParseResult;

import dev.ptotools.language.SpanIndex;
import dev.ptotools.language.SpanTrackingNodeModelBuilder;
import dev.ptotools.language.parser.antlr.PythonParser;
import dev.ptotools.language.parser.antlr.internal.InternalPythonParser;

/**
 * The generated parser, extended to hand the layout's problems over in the parse result. Bound as
 * the language's IParser, so every parse (batch, editor, content assist's full parse) gets them.
 */
public class PythonSourceParser extends PythonParser {

	// doParse creates the token source and runs the parse on the same thread, with no way to reach
	// the token source afterwards; this carries it from createLexer back to doParse.
	private static final ThreadLocal<PythonLayoutTokenSource> CURRENT = new ThreadLocal<>();

	/** Brackets an earlier parse of the same text found never closed, for {@link #parseText}'s next parse. */
	private static final ThreadLocal<Set<Integer>> NEVER_CLOSED = ThreadLocal.withInitial(Set::of);

	/** Parses of one text at most: each further one places one more never-closed bracket's end. */
	private static final int MAX_PARSES = 6;

	@Override
	protected TokenSource createLexer(CharStream stream) {
		TokenSource source = super.createLexer(stream);
		if (source instanceof PythonLayoutTokenSource layout) {
			layout.closeNeverClosedAt(NEVER_CLOSED.get());
			CURRENT.set(layout);
		}
		return source;
	}

	/**
	 * The generated parser, with one change to ANTLR's error recovery: a line break, indent or dedent is
	 * never deleted as an unwanted token. Deleting it would splice the next line into the broken one
	 * ({@code x = pl.} then {@code y = ...} read as {@code x = pl.y = ...}), turning one error into two
	 * broken statements; without it, the missing token is conjured and the line ends where it ends.
	 */
	@Override
	protected InternalPythonParser createParser(XtextTokenStream stream) {
		return new InternalPythonParser(stream, getGrammarAccess()) {
			@Override
			public boolean mismatchIsUnwantedToken(IntStream input, int ttype) {
				int next = input.LA(1);
				if (next == InternalPythonParser.RULE_NEWLINE || next == InternalPythonParser.RULE_INDENT
						|| next == InternalPythonParser.RULE_DEDENT) {
					return false;
				}
				return super.mismatchIsUnwantedToken(input, ttype);
			}
		};
	}

	/**
	 * Xtext's token stream, except that the parse's first question, the whole text, is answered with the
	 * text itself: the inherited answer concatenates the text of every token (a substring each), since
	 * the layout, not the lexer, is the stream's token source.
	 */
	@Override
	protected XtextTokenStream createTokenStream(TokenSource tokenSource) {
		return new XtextTokenStream(tokenSource, getTokenDefProvider()) {
			@Override
			public String toString() {
				if (p == -1) {
					fillBuffer();
				}
				String whole = tokenSource instanceof PythonLayoutTokenSource layout ? wholeText(layout.getCharStream())
						: null;
				return whole != null && tokensSpell(tokens, whole.length()) ? whole : super.toString();
			}
		};
	}

	private static String wholeText(CharStream chars) {
		return chars == null ? null : chars.substring(0, chars.size() - 1);
	}

	/**
	 * Whether the tokens, one after the other, spell exactly the first length characters of their input:
	 * each token of the input starts where the one before ended, and every other token (the layout's
	 * INDENT, DEDENT and synthetic NEWLINE) is empty.
	 */
	private static boolean tokensSpell(List<?> tokens, int length) {
		int pos = 0;
		for (Object o : tokens) {
			if (!(o instanceof CommonToken c)) {
				return false;
			}
			if (c.getInputStream() == null) {
				String text = c.getText();
				if (text == null || !text.isEmpty()) {
					return false;
				}
			} else {
				if (c.getStartIndex() != pos) {
					return false;
				}
				pos = c.getStopIndex() + 1;
			}
		}
		return pos == length;
	}

	@Override
	protected IParseResult doParse(String ruleName, CharStream in, NodeModelBuilder builder, int lookAhead) {
		CURRENT.remove();
		try {
			IParseResult result = super.doParse(ruleName, in, builder, lookAhead);
			PythonLayoutTokenSource layout = CURRENT.get();
			List<LexicalProblem> problems = layout == null ? List.of() : List.copyOf(layout.getProblems());
			List<Integer> ends = layout == null ? List.of() : List.copyOf(layout.getLogicalLineEnds());
			// spans noted while the nodes were built, for a parse the parser did not have to repair
			SpanIndex spans = null;
			List<EObject> checked = null;
			if (builder instanceof SpanTrackingNodeModelBuilder tracking && !result.hasSyntaxErrors()) {
				spans = tracking.spans();
				checked = spans == null ? null : tracking.syntaxCheckObjects();
			}
			return new PythonParseResult(result.getRootASTElement(), result.getRootNode(), result.hasSyntaxErrors(),
					problems, ends, spans, checked);
		} finally {
			CURRENT.remove();
		}
	}

	/**
	 * Parses text without the copy through a Reader that the inherited entry point makes. A text with a
	 * bracket that is never closed (a half-typed call) is parsed again with that bracket closed where its
	 * statement ends, so the statements after it keep their own shape; the problems reported are the same.
	 * The node model builder notes the spans of the AST objects as it goes ({@link PythonParseResult#getSpans}).
	 */
	public PythonParseResult parseText(String text) {
		Set<Integer> neverClosed = new HashSet<>();
		try {
			for (int parse = 1;; parse++) {
				NEVER_CLOSED.set(Set.copyOf(neverClosed));
				PythonParseResult result = (PythonParseResult) doParse(getDefaultRuleName(), new ANTLRStringStream(text),
						new SpanTrackingNodeModelBuilder(), 0);
				boolean more = false;
				for (LexicalProblem p : result.getLexicalProblems()) {
					more |= p.code().equals("unclosed-bracket") && neverClosed.add(p.offset());
				}
				if (!more || parse == MAX_PARSES) {
					return result;
				}
			}
		} finally {
			NEVER_CLOSED.remove();
		}
	}
}
