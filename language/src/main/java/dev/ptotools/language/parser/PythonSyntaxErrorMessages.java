package dev.ptotools.language.parser;

import java.util.Set;

import org.antlr.runtime.CommonToken;
import org.antlr.runtime.MismatchedTokenException;
import org.antlr.runtime.MissingTokenException;
import org.antlr.runtime.NoViableAltException;
import org.antlr.runtime.RecognitionException;
import org.antlr.runtime.Token;
import org.antlr.runtime.TokenStream;
import org.antlr.runtime.UnwantedTokenException;
import org.eclipse.xtext.AbstractRule;
import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.GrammarUtil;
import org.eclipse.xtext.RuleCall;
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

	/** Rules that parse expressions: an error in them is about a missing or malformed expression. */
	private static final Set<String> EXPRESSION_RULES = Set.of("AssignValue", "TargetList", "Target", "StarExpressions",
			"StarExpression", "StarNamedExpressions", "StarNamedExpression", "NamedExpr", "YieldExpr", "Expression",
			"Lambda", "Disjunction", "Conjunction", "Inversion", "Comparison", "BitOr", "BitXor", "BitAnd", "Shift",
			"Sum", "Term", "Factor", "Power", "AwaitPrimary", "Primary", "Argument", "Slices", "Slice", "Atom",
			"ParenAtom", "ListAtom", "BraceAtom", "DictEntry", "ComprehensionCondition", "StarAnnotation");

	/** Rules between brackets, where two expressions side by side mean a missing comma. */
	private static final Set<String> BRACKET_RULES = Set.of("ArgumentList", "ParenAtom", "ListAtom", "BraceAtom",
			"Slices", "ParameterList");

	@Override
	public SyntaxErrorMessage getSyntaxErrorMessage(IParserErrorContext context) {
		return message(context.getRecognitionException(), context.getCurrentNode());
	}

	static SyntaxErrorMessage message(RecognitionException e, INode current) {
		if (e == null) {
			return plain("invalid syntax");
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
		String rule = ruleName(current);
		boolean inExpression = rule != null && EXPRESSION_RULES.contains(rule);
		if (foundType == KINDS.indent()) {
			return plain("unexpected indent");
		}
		Token next = e instanceof NoViableAltException ? nextSignificant(e) : null;
		if (next != null && "=".equals(next.getText()) && startsExpression(foundType) && inExpression) {
			// The decision failed one token later than ANTLR says: point at the '='.
			return at(next, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
		}
		if (expecting == KINDS.colon()) {
			if ("=".equals(text(found))) {
				return plain("invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
			}
			return plain("expected ':'");
		}
		if (expecting == KINDS.indent()) {
			return plain("expected an indented block");
		}
		if ("TryStmt".equals(rule)) {
			return plain("expected 'except' or 'finally' block");
		}
		if ("DefStmt".equals(rule) && e instanceof NoViableAltException) {
			return plain("expected 'def' or 'class' after a decorator");
		}
		if (next != null && isAtom(foundType) && startsExpression(next.getType()) && innermostBracketRule(current)) {
			// Two atoms side by side: ANTLR stops at the first, the fault is before the second.
			return at(next, "invalid syntax. Perhaps you forgot a comma?");
		}
		if (startsExpression(foundType) && (isClosingBracket(expecting) || innermostBracketRule(current))) {
			return plain("invalid syntax. Perhaps you forgot a comma?");
		}
		if (foundType == Token.EOF) {
			return plain("unexpected end of file");
		}
		if (foundType == KINDS.dedent()) {
			return plain("unexpected unindent");
		}
		if (expecting == KINDS.id()) {
			return plain("invalid syntax: expected a name, found " + describe(found));
		}
		if (foundType == KINDS.newline()) {
			if (inExpression || e instanceof NoViableAltException) {
				return plain("invalid syntax: expected an expression");
			}
			if (expecting >= 0) {
				return plain("invalid syntax: expected " + KINDS.describe(expecting));
			}
			return plain("invalid syntax");
		}
		if (expecting >= 0 && expecting != Token.EOF) {
			return plain("invalid syntax: expected " + KINDS.describe(expecting) + ", found " + describe(found));
		}
		return plain("invalid syntax: unexpected " + describe(found));
	}

	private static SyntaxErrorMessage plain(String message) {
		return new SyntaxErrorMessage(message, SYNTAX_ERROR);
	}

	/** A message for another token than the one ANTLR stopped at, its range carried as issue data. */
	private static SyntaxErrorMessage at(Token t, String message) {
		if (t instanceof CommonToken c) {
			int length = c.getStopIndex() - c.getStartIndex() + 1;
			return new SyntaxErrorMessage(message, SYNTAX_ERROR, new String[] { c.getStartIndex() + ":" + length });
		}
		return plain(message);
	}

	private static Token nextSignificant(RecognitionException e) {
		if (!(e.input instanceof TokenStream stream) || e.token == null) {
			return null;
		}
		int i = e.token.getTokenIndex() + 1;
		for (; i >= 1 && i < stream.size(); i++) {
			Token t = stream.get(i);
			int type = t.getType();
			if (type != KINDS.ws && type != KINDS.comment && type != KINDS.continuation) {
				return t;
			}
		}
		return null;
	}

	private static boolean innermostBracketRule(INode node) {
		for (INode n = node; n != null; n = n.getParent()) {
			AbstractRule rule = rule(n);
			if (rule != null && BRACKET_RULES.contains(rule.getName())) {
				return true;
			}
			if (rule != null && !EXPRESSION_RULES.contains(rule.getName())) {
				return false;
			}
		}
		return false;
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

	private static boolean isAtom(int type) {
		return type == KINDS.id() || type == KINDS.string() || type == KINDS.number;
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

	/** The rule being parsed at a node: the rule a rule call calls, else the rule containing the element. */
	private static AbstractRule rule(INode n) {
		EObject element = n.getGrammarElement();
		if (element instanceof RuleCall call) {
			return call.getRule();
		}
		if (element instanceof AbstractRule r) {
			return r;
		}
		return element == null ? null : GrammarUtil.containingRule(element);
	}

	private static String ruleName(INode node) {
		for (INode n = node; n != null; n = n.getParent()) {
			AbstractRule rule = rule(n);
			if (rule != null) {
				return rule.getName();
			}
		}
		return null;
	}
}
