package dev.ptotools.language.parser;

import org.antlr.runtime.EarlyExitException;
import org.antlr.runtime.MismatchedTokenException;
import org.antlr.runtime.MissingTokenException;
import org.antlr.runtime.RecognitionException;
import org.antlr.runtime.Token;
import org.antlr.runtime.UnwantedTokenException;
import org.eclipse.xtext.AbstractRule;
import org.eclipse.xtext.GrammarUtil;
import org.eclipse.xtext.nodemodel.INode;
import org.eclipse.xtext.parser.antlr.SyntaxErrorMessageProvider;
import org.eclipse.xtext.diagnostics.Diagnostic;
import org.eclipse.xtext.nodemodel.SyntaxErrorMessage;

import dev.ptotools.language.parser.antlr.internal.InternalPythonParser;

/**
 * Parser errors in the words of CPython's own messages ("expected ':'", "invalid syntax. Perhaps you
 * forgot a comma?") instead of ANTLR's token dumps. Errors that CPython's tokenizer reports are found
 * earlier, by {@link PythonLayoutTokenSource}.
 */
public class PythonSyntaxErrorMessages extends SyntaxErrorMessageProvider {

	/** Issue code of every parser syntax error; the message says which. */
	public static final String SYNTAX_ERROR = Diagnostic.SYNTAX_DIAGNOSTIC;

	private static final TokenKinds KINDS = new TokenKinds(InternalPythonParser.tokenNames);

	@Override
	public SyntaxErrorMessage getSyntaxErrorMessage(IParserErrorContext context) {
		return new SyntaxErrorMessage(message(context.getRecognitionException(), context.getCurrentNode()),
				SYNTAX_ERROR);
	}

	static String message(RecognitionException e, INode current) {
		if (e == null) {
			return "invalid syntax";
		}
		Token found = e.token;
		int foundType = found == null ? Token.EOF : found.getType();
		int expecting = -1;
		if (e instanceof MissingTokenException missing) {
			expecting = missing.expecting;
		} else if (e instanceof UnwantedTokenException unwanted) {
			expecting = unwanted.expecting;
		} else if (e instanceof MismatchedTokenException mismatched) {
			expecting = mismatched.expecting;
		}
		if (foundType == KINDS.indent()) {
			return "unexpected indent";
		}
		if (expecting == KINDS.colon()) {
			if ("=".equals(text(found)) && !(e instanceof UnwantedTokenException)) {
				return "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
			}
			return "expected ':'";
		}
		if (expecting == KINDS.indent()) {
			return "expected an indented block";
		}
		String rule = ruleName(current);
		if (isClosingBracket(expecting) && startsExpression(foundType)) {
			return "invalid syntax. Perhaps you forgot a comma?";
		}
		if (foundType == Token.EOF) {
			return "unexpected end of file";
		}
		if (foundType == KINDS.dedent()) {
			return "unexpected unindent";
		}
		if ("=".equals(text(found)) && rule != null && !rule.equals("ExpressionStmt")) {
			return "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
		}
		if (foundType == KINDS.newline() && !(e instanceof EarlyExitException)) {
			if (expecting >= 0) {
				return "expected " + KINDS.describe(expecting);
			}
			return "invalid syntax: the statement is incomplete";
		}
		if (expecting >= 0 && expecting != Token.EOF) {
			return "invalid syntax: expected " + KINDS.describe(expecting) + ", found " + describe(found);
		}
		return "invalid syntax: unexpected " + describe(found);
	}

	private static String describe(Token t) {
		if (t == null || t.getType() == Token.EOF) {
			return "end of file";
		}
		int type = t.getType();
		if (type == KINDS.newline()) {
			return "end of line";
		}
		if (type == KINDS.dedent()) {
			return "unindent";
		}
		String text = t.getText();
		if (text == null || text.isEmpty()) {
			return KINDS.describe(type);
		}
		if (text.length() > 30) {
			text = text.substring(0, 27) + "...";
		}
		if (type == KINDS.id()) {
			return "name '" + text + "'";
		}
		if (type == KINDS.string()) {
			return "string " + text;
		}
		return "'" + text + "'";
	}

	private static String text(Token t) {
		return t == null ? null : t.getText();
	}

	private static boolean isClosingBracket(int type) {
		return type >= 0 && type < KINDS.bracket.length && KINDS.bracket[type] < 0;
	}

	private static boolean startsExpression(int type) {
		if (type == KINDS.id() || type == KINDS.string() || type == KINDS.number) {
			return true;
		}
		if (type >= 0 && type < KINDS.bracket.length && KINDS.bracket[type] > 0) {
			return true;
		}
		String kw = KINDS.keywordText(type);
		return kw != null && switch (kw) {
		case "True", "False", "None", "lambda", "not", "await", "...", "-", "+", "~" -> true;
		default -> false;
		};
	}

	private static String ruleName(INode node) {
		for (INode n = node; n != null; n = n.getParent()) {
			if (n.getGrammarElement() != null) {
				AbstractRule rule = n.getGrammarElement() instanceof AbstractRule r ? r
						: GrammarUtil.containingRule(n.getGrammarElement());
				if (rule != null) {
					return rule.getName();
				}
			}
		}
		return null;
	}
}
