package dev.ptotools.language.parser;

import java.util.Arrays;

/**
 * The token type numbers the layout needs, looked up by name in a generated parser's token-name
 * table. The runtime parser and the content-assist parser are generated separately, so the layout
 * never hard-codes their numbers.
 */
public final class TokenKinds {
	final int id;
	final int string;
	final int number;
	final int newline;
	final int ws;
	final int comment;
	final int continuation;
	final int indent;
	final int dedent;
	final int anyOther;
	final int colon;
	final int semicolon;
	final int kwMatch;
	final int kwCase;
	final int kwPass;
	final int closeParen;
	final int closeBracket;
	final int closeBrace;
	/** Indexed by token type: keywords that can only start a statement, never sit inside brackets. */
	final boolean[] statementOnly;
	/** Indexed by token type: 1 for an opening bracket, -1 for a closing one. */
	final byte[] bracket;
	/** Indexed by token type: the bracket character of a bracket token. */
	final char[] bracketChar;
	/** Indexed by token type: the keyword that opens a compound statement, else null. */
	final String[] compoundKeyword;
	private final String[] names;
	private final String[] source;
	private final String[] keywordTexts;

	/** Every keyword and symbol of the grammar. */
	static final String[] KEYWORDS = { "False", "None", "True", "and", "as", "assert", "async", "await", "break",
			"case", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
			"if", "import", "in", "is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return", "try",
			"while", "with", "yield", "**=", "...", "//=", "<<=", ">>=", "!=", "%=", "&=", "**", "*=", "+=", "-=",
			"->", "//", "/=", ":=", "..", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=", "%", "&", "(", ")", "*", "+",
			",", "-", ".", "/", ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~" };

	public TokenKinds(String[] tokenNames) {
		this.source = tokenNames;
		this.names = tokenNames.clone();
		id = type("RULE_ID");
		string = type("RULE_STRING");
		number = type("RULE_NUMBER");
		newline = type("RULE_NEWLINE");
		ws = type("RULE_WS");
		comment = type("RULE_COMMENT");
		continuation = type("RULE_CONTINUATION");
		indent = type("RULE_INDENT");
		dedent = type("RULE_DEDENT");
		anyOther = type("RULE_ANY_OTHER");
		colon = type("':'");
		semicolon = type("';'");
		kwMatch = type("'match'");
		kwCase = type("'case'");
		kwPass = type("'pass'");
		closeParen = type("')'");
		closeBracket = type("']'");
		closeBrace = type("'}'");
		statementOnly = new boolean[names.length];
		for (String kw : new String[] { "def", "class", "return", "import", "pass", "break", "continue", "raise",
				"global", "nonlocal", "del", "assert", "try", "while", "with", "except", "finally", "elif" }) {
			statementOnly[type("'" + kw + "'")] = true;
		}
		bracket = new byte[names.length];
		bracketChar = new char[names.length];
		for (String open : new String[] { "(", "[", "{" }) {
			int t = type("'" + open + "'");
			bracket[t] = 1;
			bracketChar[t] = open.charAt(0);
		}
		for (String close : new String[] { ")", "]", "}" }) {
			int t = type("'" + close + "'");
			bracket[t] = -1;
			bracketChar[t] = close.charAt(0);
		}
		keywordTexts = new String[names.length];
		for (String kw : KEYWORDS) {
			keywordTexts[type("'" + kw + "'")] = kw;
		}
		compoundKeyword = new String[names.length];
		for (String kw : new String[] { "if", "elif", "else", "for", "while", "try", "except", "finally", "with",
				"def", "class", "match", "case", "async" }) {
			compoundKeyword[type("'" + kw + "'")] = kw;
		}
	}

	/** Whether these kinds were built from exactly this token-name table. */
	boolean matches(String[] tokenNames) {
		return tokenNames == source || Arrays.equals(tokenNames, names);
	}

	private int type(String name) {
		String alternative = name.startsWith("'") ? generatedName(name.substring(1, name.length() - 1)) : name;
		for (int i = 0; i < names.length; i++) {
			if (name.equals(names[i]) || alternative.equals(names[i])) {
				return i;
			}
		}
		throw new IllegalStateException("the generated parser has no token " + name);
	}

	/**
	 * The name Xtext gives a keyword token when the lexer is a separate grammar: letters capitalized
	 * ('match' is Match), symbols spelled by their Unicode names (':=' is ColonEqualsSign).
	 */
	static String generatedName(String keyword) {
		if (keyword.chars().allMatch(Character::isLetter)) {
			return Character.toUpperCase(keyword.charAt(0)) + keyword.substring(1);
		}
		StringBuilder b = new StringBuilder();
		for (char c : keyword.toCharArray()) {
			String known = ASCII_SYMBOL_NAMES.get(c);
			if (known != null) {
				b.append(known);
				continue;
			}
			for (String word : Character.getName(c).split("[ -]")) {
				b.append(word.charAt(0)).append(word.substring(1).toLowerCase(java.util.Locale.ROOT));
			}
		}
		return b.toString();
	}

	/**
	 * The Unicode names of the ASCII symbols, as generatedName spells them: Character.getName would give the
	 * same, but its first call loads the JDK's whole table of names, a noticeable part of a small run's start.
	 */
	private static final java.util.Map<Character, String> ASCII_SYMBOL_NAMES = java.util.Map.ofEntries(
			java.util.Map.entry('(', "LeftParenthesis"), java.util.Map.entry(')', "RightParenthesis"),
			java.util.Map.entry('[', "LeftSquareBracket"), java.util.Map.entry(']', "RightSquareBracket"),
			java.util.Map.entry('{', "LeftCurlyBracket"), java.util.Map.entry('}', "RightCurlyBracket"),
			java.util.Map.entry(':', "Colon"), java.util.Map.entry(',', "Comma"), java.util.Map.entry(';', "Semicolon"),
			java.util.Map.entry('.', "FullStop"), java.util.Map.entry('+', "PlusSign"), java.util.Map.entry('-', "HyphenMinus"),
			java.util.Map.entry('*', "Asterisk"), java.util.Map.entry('/', "Solidus"), java.util.Map.entry('%', "PercentSign"),
			java.util.Map.entry('&', "Ampersand"), java.util.Map.entry('|', "VerticalLine"),
			java.util.Map.entry('^', "CircumflexAccent"), java.util.Map.entry('~', "Tilde"),
			java.util.Map.entry('<', "LessThanSign"), java.util.Map.entry('>', "GreaterThanSign"),
			java.util.Map.entry('=', "EqualsSign"), java.util.Map.entry('!', "ExclamationMark"),
			java.util.Map.entry('@', "CommercialAt"), java.util.Map.entry('#', "NumberSign"),
			java.util.Map.entry('$', "DollarSign"), java.util.Map.entry('"', "QuotationMark"),
			java.util.Map.entry('\'', "Apostrophe"), java.util.Map.entry('?', "QuestionMark"),
			java.util.Map.entry('\\', "ReverseSolidus"), java.util.Map.entry('`', "GraveAccent"),
			java.util.Map.entry('_', "LowLine"));

	/** The keyword text of a keyword token type, or null. */
	String keywordText(int type) {
		return type >= 0 && type < keywordTexts.length ? keywordTexts[type] : null;
	}

	/** A readable name for a token type, as a Python programmer would say it. */
	public String describe(int type) {
		if (type == org.antlr.runtime.Token.EOF) {
			return "end of file";
		}
		if (type == newline) {
			return "end of line";
		}
		if (type == indent) {
			return "indent";
		}
		if (type == dedent) {
			return "unindent";
		}
		if (type == id) {
			return "name";
		}
		if (type == string) {
			return "string";
		}
		if (type == number) {
			return "number";
		}
		String kw = keywordText(type);
		if (kw != null) {
			return "'" + kw + "'";
		}
		if (type >= 0 && type < names.length) {
			String n = names[type];
			return n.startsWith("RULE_") ? n.substring(5).toLowerCase(java.util.Locale.ROOT) : n;
		}
		return "token " + type;
	}


	public int indent() {
		return indent;
	}

	public int dedent() {
		return dedent;
	}

	public int newline() {
		return newline;
	}

	public int id() {
		return id;
	}

	public int colon() {
		return colon;
	}

	public int string() {
		return string;
	}
}
