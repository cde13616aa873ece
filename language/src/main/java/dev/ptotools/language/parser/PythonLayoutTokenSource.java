package dev.ptotools.language.parser;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.antlr.runtime.CharStream;
import org.antlr.runtime.CommonToken;
import org.antlr.runtime.Lexer;
import org.antlr.runtime.Token;
import org.antlr.runtime.TokenSource;

/**
 * Turns the raw tokens of the generated lexer into the token stream of CPython's tokenizer:
 * <ul>
 * <li>NEWLINE only where a logical line ends; newlines inside brackets and blank or comment-only
 * lines become whitespace (hidden), so the node model still holds every character;</li>
 * <li>INDENT/DEDENT from an indentation stack, measured as CPython does (tabs to multiples of 8,
 * and a second measure with tab size 1 to detect an inconsistent tab/space mix);</li>
 * <li>the soft keywords {@code match} and {@code case} stay keywords only where they start a match
 * statement or a case block; everywhere else they are names;</li>
 * <li>a synthetic NEWLINE and the pending DEDENTs at end of file.</li>
 * </ul>
 * Problems CPython's tokenizer reports (bad indentation, unclosed brackets, unterminated strings,
 * invalid characters) are collected as {@link LexicalProblem}s with CPython's wording. Where a problem
 * would make the parser cascade, the stream is repaired instead: an unexpected indent opens no
 * block, a missing block gets a synthetic {@code pass}, a bad unindent becomes a level of its own.
 * <p>
 * Shared by the runtime parser and the content-assist parser; each passes its own token names.
 */
public abstract class PythonLayoutTokenSource implements TokenSource {

	private static final byte PHANTOM = 1;
	private static final byte MATCH_BODY = 2;

	private final TokenSource lexer;
	private final TokenKinds k;
	private final ArrayList<Token> ahead = new ArrayList<>();
	private int aheadPos;
	/**
	 * The first code token ahead (or EOF) and its column, as {@link #onNextCodeLine} last found them; kept
	 * until it is read. It is asked at every line break inside brackets, and scanning again each time made
	 * a run of blank lines in a bracket quadratic (a never-closed bracket over 18,000 such lines: 43 s).
	 */
	private Token nextCode;
	private int nextCodeCol;
	private final ArrayDeque<Token> out = new ArrayDeque<>();
	private final List<LexicalProblem> problems = new ArrayList<>();
	/** Strings, names and invalid characters, checked as CPython's tokenizer does; they report into problems. */
	private final LexicalChecks checks = new LexicalChecks(problems, () -> this.endOffset);
	/** Offsets of the NEWLINEs that end logical lines, in order (a call over several lines is one). */
	private final List<Integer> logicalLineEnds = new ArrayList<>();

	// Indentation stack: column with tabs to 8, column with tabs to 1, flags.
	private int[] cols = new int[32];
	private int[] alts = new int[32];
	private byte[] flags = new byte[32];
	private int depth;

	// Open brackets, innermost last.
	private Token[] brackets = new Token[32];
	private int bracketDepth;

	// Current logical line.
	private boolean atLineStart = true;
	private Token leadingWs;
	private Token lineFirst;
	private int lineSecondType = -1;
	private int lastSignificantType = -1;
	private boolean lineHasTopColon;
	private boolean lineIsMatchHeader;

	// Previous logical line, for block expectations.
	private boolean prevEndedWithColon;
	private boolean prevHasTopColon;
	private boolean prevIsMatchHeader;
	private String prevHeader;
	private Token prevFirst;

	/** Brackets an earlier layout of the same text found never closed (see {@link #closeNeverClosedAt}). */
	private NeverClosedBrackets neverClosed = NeverClosedBrackets.NONE;

	private int endOffset;
	/** The last raw token read (its line and end column anchor the end of file). */
	private Token lastRaw;
	private boolean eofDone;

	protected PythonLayoutTokenSource(TokenSource lexer, String[] tokenNames) {
		this.lexer = lexer;
		this.k = kinds(tokenNames);
	}

	private static volatile TokenKinds cachedKinds;

	private static TokenKinds kinds(String[] tokenNames) {
		TokenKinds cached = cachedKinds;
		if (cached != null && cached.matches(tokenNames)) {
			return cached;
		}
		TokenKinds fresh = new TokenKinds(tokenNames);
		cachedKinds = fresh;
		return fresh;
	}

	/**
	 * Brackets (by start offset) that a first layout of this text reported as never closed. That layout
	 * closes such a bracket only where a statement keyword or the end of file forces it, so a half-typed
	 * call swallows the lines after it; this one closes it where the next line returns to the statement's
	 * indentation, so only the statement the bracket broke is lost. A text with such a bracket is invalid
	 * either way: valid Python never takes this path.
	 */
	public void closeNeverClosedAt(java.util.Set<Integer> starts) {
		this.neverClosed = new NeverClosedBrackets(starts);
	}

	/** Where logical lines end, in order; complete once the end of file token has been returned. */
	public List<Integer> getLogicalLineEnds() {
		return logicalLineEnds;
	}

	/** Problems found so far; complete once the end of file token has been returned. */
	public List<LexicalProblem> getProblems() {
		return problems;
	}

	/** The characters the raw tokens come from, when the lexer is an ANTLR lexer (it always is here). */
	public CharStream getCharStream() {
		return lexer instanceof Lexer l ? l.getCharStream() : null;
	}

	@Override
	public String getSourceName() {
		return lexer.getSourceName();
	}

	@Override
	public Token nextToken() {
		while (out.isEmpty()) {
			step();
		}
		return out.poll();
	}

	private Token read() {
		if (aheadPos < ahead.size()) {
			Token t = ahead.get(aheadPos++);
			if (t == nextCode) {
				nextCode = null;
			}
			return t;
		}
		if (!ahead.isEmpty()) {
			ahead.clear();
			aheadPos = 0;
		}
		return lexer.nextToken();
	}

	/** The i-th raw token after the ones already read, reading ahead as needed. */
	private Token peek(int i) {
		while (ahead.size() - aheadPos <= i) {
			ahead.add(lexer.nextToken());
		}
		return ahead.get(aheadPos + i);
	}

	private void step() {
		Token t = read();
		int type = t.getType();
		if (type == Token.EOF) {
			handleEof(t);
			return;
		}
		if (t instanceof CommonToken c) {
			endOffset = c.getStopIndex() + 1;
		}
		lastRaw = t;
		if (type == Token.INVALID_TOKEN_TYPE || type == k.anyOther) {
			checks.reportInvalid(t);
			t.setType(k.ws);
			t.setChannel(Token.DEFAULT_CHANNEL);
			out.add(t);
			return;
		}
		if (atLineStart && bracketDepth == 0) {
			if (type == k.ws) {
				leadingWs = t;
				out.add(t);
				return;
			}
			if (type == k.comment || type == k.continuation) {
				out.add(t);
				return;
			}
			if (type == k.newline) {
				// A blank or comment-only line: no logical line ends here.
				t.setType(k.ws);
				leadingWs = null;
				out.add(t);
				return;
			}
			if (k.bracket[type] < 0 && restOfLineEmpty()) {
				// A line that only closes a bracket nothing opened: what is left of a multi-line call whose
				// first line was cut. Reported, then read as a blank line, so the block around it stays whole.
				problem(t, 1, "unmatched '" + k.bracketChar[type] + "'", "unmatched-bracket");
				t.setType(k.ws);
				out.add(t);
				return;
			}
			atLineStart = false;
			layoutIndentation(t);
			leadingWs = null;
			lineFirst = t;
		} else if (type == k.newline) {
			if (bracketDepth > 0 && !nextLineStartsStatement() && !neverClosedEndsHere()) {
				t.setType(k.ws);
			} else {
				if (bracketDepth > 0) {
					closeUnclosedBrackets(t);
				}
				logicalLineEnds.add(t instanceof CommonToken c ? c.getStartIndex() : endOffset);
				endLogicalLine();
			}
			out.add(t);
			return;
		} else if (type == k.ws || type == k.comment || type == k.continuation) {
			out.add(t);
			return;
		} else if (lineFirst != null && lineSecondType < 0) {
			lineSecondType = type;
		}
		significant(t, t == lineFirst);
	}

	private void significant(Token t, boolean firstOfLine) {
		int type = t.getType();
		byte b = k.bracket[type];
		if (b > 0) {
			pushBracket(t);
		} else if (b < 0) {
			closeBracket(t);
		} else if (type == k.kwMatch) {
			if (firstOfLine && startsMatchStatement()) {
				lineIsMatchHeader = true;
			} else {
				t.setType(k.id);
			}
		} else if (type == k.kwCase) {
			if (!(firstOfLine && (flags[depth] & MATCH_BODY) != 0)) {
				t.setType(k.id);
			}
		} else if (type == k.string) {
			checks.checkString(t);
		} else if (type == k.id) {
			checks.checkIdentifier(t);
		} else if (type == k.colon && bracketDepth == 0) {
			lineHasTopColon = true;
		}
		lastSignificantType = t.getType();
		out.add(t);
	}

	// ---- indentation ------------------------------------------------------------------------

	private void layoutIndentation(Token first) {
		int col = 0;
		int alt = 0;
		if (leadingWs != null) {
			String ws = leadingWs.getText();
			for (int i = 0; i < ws.length(); i++) {
				char c = ws.charAt(i);
				if (c == ' ') {
					col++;
					alt++;
				} else if (c == '\t') {
					col = (col / 8 + 1) * 8;
					alt++;
				} else if (c == '\f') {
					col = 0;
					alt = 0;
				}
				// U+FEFF (byte order mark) has no width.
			}
		}
		int top = cols[depth];
		boolean expectBlock = prevEndedWithColon && prevHeader != null;
		if (col == top) {
			if (alt != alts[depth]) {
				tabError(first);
			}
			if (expectBlock) {
				missingBlock(first);
			}
		} else if (col > top) {
			if (alt <= alts[depth]) {
				tabError(first);
			}
			if (prevEndedWithColon || (prevHeader != null && !prevHasTopColon)) {
				// A block, or a header whose ':' is missing: the parser reports the ':' and the block
				// still nests, so the rest of the file keeps its structure.
				push(col, alt, prevIsMatchHeader ? MATCH_BODY : 0);
				out.add(synthetic(k.indent, first));
			} else {
				problem(first, 0, "unexpected indent", "unexpected-indent");
				push(col, alt, PHANTOM);
			}
		} else {
			if (expectBlock) {
				missingBlock(first);
			}
			while (depth > 0 && col < cols[depth]) {
				if ((flags[depth] & PHANTOM) == 0) {
					out.add(synthetic(k.dedent, first));
				}
				depth--;
			}
			if (col != cols[depth]) {
				problem(first, 0, "unindent does not match any outer indentation level", "bad-unindent");
				push(col, alt, PHANTOM);
			} else if (alt != alts[depth]) {
				tabError(first);
			}
		}
	}

	private void push(int col, int alt, byte flag) {
		depth++;
		if (depth == cols.length) {
			cols = Arrays.copyOf(cols, depth * 2);
			alts = Arrays.copyOf(alts, depth * 2);
			flags = Arrays.copyOf(flags, depth * 2);
		}
		cols[depth] = col;
		alts[depth] = alt;
		flags[depth] = flag;
	}

	private void tabError(Token at) {
		problem(at, 0, "inconsistent use of tabs and spaces in indentation", "tab-error");
	}

	/** The previous line opened a block that never came: report it and parse a `pass` in its place. */
	private void missingBlock(Token at) {
		String what = switch (prevHeader) {
		case "def" -> "function definition";
		case "class" -> "class definition";
		default -> "'" + prevHeader + "' statement";
		};
		problem(at, 0, "expected an indented block after " + what + " on line " + prevFirst.getLine(),
				"expected-block");
		out.add(synthetic(k.indent, at));
		out.add(synthetic(k.kwPass, at));
		out.add(synthetic(k.newline, at));
		out.add(synthetic(k.dedent, at));
		prevEndedWithColon = false;
	}

	private void endLogicalLine() {
		prevEndedWithColon = lastSignificantType == k.colon;
		prevHasTopColon = lineHasTopColon;
		prevIsMatchHeader = lineIsMatchHeader;
		prevFirst = lineFirst;
		prevHeader = null;
		if (lineFirst != null) {
			String kw = k.compoundKeyword[lineFirst.getType()];
			if ("async".equals(kw) && lineSecondType >= 0) {
				String next = k.compoundKeyword[lineSecondType];
				kw = next != null ? next : kw;
			}
			prevHeader = kw;
		}
		atLineStart = true;
		lineFirst = null;
		lineSecondType = -1;
		lastSignificantType = -1;
		lineHasTopColon = false;
		lineIsMatchHeader = false;
	}

	private void handleEof(Token eof) {
		if (!eofDone) {
			eofDone = true;
			Token at = eofAnchor();
			if (bracketDepth > 0) {
				closeUnclosedBrackets(at);
			}
			if (!atLineStart) {
				out.add(synthetic(k.newline, at));
				endLogicalLine();
			}
			if (prevEndedWithColon && prevHeader != null) {
				missingBlock(at);
			}
			while (depth > 0) {
				if ((flags[depth] & PHANTOM) == 0) {
					out.add(synthetic(k.dedent, at));
				}
				depth--;
			}
		}
		out.add(eof);
	}

	private Token eofAnchor() {
		CommonToken at = new CommonToken(k.ws, "");
		at.setStartIndex(endOffset);
		at.setStopIndex(endOffset - 1);
		// read here, not per token: a token's text is a fresh substring on every call
		String lastText = lastRaw == null ? null : lastRaw.getText();
		at.setLine(lastRaw == null ? 1 : lastRaw.getLine());
		at.setCharPositionInLine(
				lastRaw == null ? 0 : lastRaw.getCharPositionInLine() + (lastText == null ? 0 : lastText.length()));
		return at;
	}

	private Token synthetic(int type, Token at) {
		CommonToken t = new CommonToken(type, "");
		int start = at instanceof CommonToken c ? c.getStartIndex() : endOffset;
		t.setStartIndex(start);
		t.setStopIndex(start - 1);
		t.setLine(at.getLine());
		t.setCharPositionInLine(at.getCharPositionInLine());
		t.setChannel(Token.DEFAULT_CHANNEL);
		return t;
	}

	// ---- brackets ---------------------------------------------------------------------------

	private void pushBracket(Token t) {
		if (bracketDepth == brackets.length) {
			brackets = Arrays.copyOf(brackets, bracketDepth * 2);
		}
		brackets[bracketDepth++] = t;
	}

	private void closeBracket(Token t) {
		char close = k.bracketChar[t.getType()];
		char expectedOpen = close == ')' ? '(' : close == ']' ? '[' : '{';
		if (bracketDepth == 0) {
			problem(t, 1, "unmatched '" + close + "'", "unmatched-bracket");
			return;
		}
		Token open = brackets[bracketDepth - 1];
		char openChar = k.bracketChar[open.getType()];
		if (openChar == expectedOpen) {
			bracketDepth--;
			return;
		}
		String where = open.getLine() == t.getLine() ? "" : " on line " + open.getLine();
		int at = t instanceof CommonToken c ? c.getStartIndex() : endOffset;
		problems.add(new LexicalProblem(at, 1, "closing parenthesis '" + close + "' does not match opening parenthesis '"
				+ openChar + "'" + where, "mismatched-bracket", at + 1,
				open instanceof CommonToken o ? o.getStartIndex() : at));
		// Recover: close up to the nearest matching opener; without one, let this closer close the
		// innermost bracket (CPython reports the mismatch alone, not a never-closed bracket too).
		for (int i = bracketDepth - 1; i >= 0; i--) {
			if (k.bracketChar[brackets[i].getType()] == expectedOpen) {
				bracketDepth = i;
				return;
			}
		}
		bracketDepth--;
	}

	/**
	 * Closes every open bracket with synthetic closers before {@code at}, reporting the innermost as
	 * never closed, so that the statements after it parse as statements.
	 */
	private void closeUnclosedBrackets(Token at) {
		Token open = brackets[bracketDepth - 1];
		int start = ((CommonToken) open).getStartIndex();
		int end = at instanceof CommonToken c ? c.getStartIndex() : endOffset;
		problems.add(new LexicalProblem(start, 1, "'" + open.getText() + "' was never closed", "unclosed-bracket",
				end));
		while (bracketDepth > 0) {
			Token o = brackets[--bracketDepth];
			char c = k.bracketChar[o.getType()];
			out.add(synthetic(c == '(' ? k.closeParen : c == '[' ? k.closeBracket : k.closeBrace, at));
		}
	}

	/**
	 * Inside brackets, whether the line after this newline starts with a keyword that only begins a
	 * statement, at or left of the current block's indentation: then the bracket was left open, as in
	 * a half-typed call, and the statement must not be swallowed into it. Reads ahead; consumes nothing.
	 */
	private boolean nextLineStartsStatement() {
		return onNextCodeLine(this::startsStatementAt);
	}

	/** A test of the first code token ahead (its type and column); reads ahead, consumes nothing. */
	private interface FirstToken {
		boolean test(int type, int col);
	}

	/** The test applied to the first token ahead that is not whitespace, a newline or a comment; false at EOF. */
	private boolean onNextCodeLine(FirstToken test) {
		if (nextCode == null) {
			int col = 0;
			for (int i = 0;; i++) {
				Token t = peek(i);
				int type = t.getType();
				if (type == Token.EOF) {
					nextCode = t;
					break;
				}
				if (type == k.ws) {
					col = width(t.getText());
				} else if (type == k.newline || type == k.comment) {
					col = 0;
				} else {
					nextCode = t;
					nextCodeCol = col;
					break;
				}
			}
		}
		return nextCode.getType() != Token.EOF && test.test(nextCode.getType(), nextCodeCol);
	}

	/**
	 * Whether an open bracket is one a first layout found never closed and the next line starts at or
	 * left of the current block's indentation with something other than a closing bracket: then the
	 * bracket's statement ended on this line.
	 */
	private boolean neverClosedEndsHere() {
		if (!neverClosed.anyOpen(brackets, bracketDepth)) {
			return false;
		}
		if (neverClosed.openedOnHeaderLine(brackets, bracketDepth, lineFirst, k)) {
			return true;
		}
		return onNextCodeLine((type, col) -> col <= cols[depth] && !(type < k.bracket.length && k.bracket[type] < 0));
	}

	/** Whether nothing but whitespace or a comment follows on this line. Reads ahead; consumes nothing. */
	private boolean restOfLineEmpty() {
		for (int i = 0;; i++) {
			int type = peek(i).getType();
			if (type == Token.EOF || type == k.newline) {
				return true;
			}
			if (type != k.ws && type != k.comment) {
				return false;
			}
		}
	}

	private boolean startsStatementAt(int type, int col) {
		return type >= 0 && type < k.statementOnly.length && k.statementOnly[type] && col <= cols[depth];
	}

	private static int width(String ws) {
		int col = 0;
		for (int i = 0; i < ws.length(); i++) {
			char c = ws.charAt(i);
			if (c == '\t') {
				col = (col / 8 + 1) * 8;
			} else if (c == '\f') {
				col = 0;
			} else if (c != '\uFEFF') {
				col++;
			}
		}
		return col;
	}

	// ---- soft keywords ----------------------------------------------------------------------

	/**
	 * 'match' starts a match statement when its logical line ends with ':' (no simple statement can)
	 * and something stands between them. Reads the rest of the line ahead; nothing is consumed.
	 */
	private boolean startsMatchStatement() {
		int nesting = 0;
		int last = -1;
		int count = 0;
		for (int i = 0;; i++) {
			Token t = peek(i);
			int type = t.getType();
			if (type == Token.EOF) {
				break;
			}
			if (type == k.ws || type == k.comment || type == k.continuation) {
				continue;
			}
			if (type == k.newline) {
				if (nesting == 0) {
					break;
				}
				continue;
			}
			if (type >= 0 && type < k.bracket.length) {
				nesting += k.bracket[type];
			}
			if (count == 0 && (type == k.colon || type == k.semicolon)) {
				return false;
			}
			count++;
			last = type;
		}
		return last == k.colon && count > 1;
	}

	private void problem(Token t, int length, String message, String code) {
		checks.problem(t, length, message, code);
	}
}
