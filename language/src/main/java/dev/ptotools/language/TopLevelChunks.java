package dev.ptotools.language;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a module's text into its top-level statements, each with the blank and comment lines after
 * it, so that each piece parses on its own exactly as it does inside the file: a piece starts at a
 * line that begins in column 0 with code, outside any bracket, string or backslash continuation,
 * and that does not continue a compound statement ({@code else}, {@code elif}, {@code except},
 * {@code finally}) or follow a decorator. A lexical scan, not a parse: it only has to find where a
 * statement can start, and {@link IncrementalParser} parses the whole text when it cannot tell.
 */
public final class TopLevelChunks {

	private TopLevelChunks() {
	}

	/**
	 * The start offsets of the pieces, the first always 0; null when the text is not cut: a string still
	 * open at the end, a closer that does not match, or a backslash continuing the last line, which the
	 * layout and the parser's recovery must see whole. A bracket still open at the end is one the layout
	 * closes where its statement ends: a line in column 0 after it starts a piece, and with no such line
	 * the bracket is in the last piece, which runs to the end as in the text.
	 */
	public static int[] starts(String text) {
		Scan scan = scan(text, false);
		// Brackets left open at the end and nothing else wrong: a half-typed call. The layout's second parse
		// closes such a bracket where its statement ends, before the next line at or left of its block's
		// indentation (PythonLayoutTokenSource, NeverClosedBrackets), so a statement in column 0 after it
		// starts as it would without the bracket.
		return scan.openAtEnd() ? scan(text, true).starts() : scan.starts();
	}

	/** The cuts of a scan, or null; and whether only brackets open at the end kept it from cutting. */
	private record Scan(int[] starts, boolean openAtEnd) {
	}

	private static final Scan FAILED = new Scan(null, false);

	/**
	 * The cuts; {@code closeAtColumnZero}: brackets open at a line that starts code in column 0 (and not
	 * with a closer) count as closed there.
	 */
	private static Scan scan(String text, boolean closeAtColumnZero) {
		List<Integer> starts = new ArrayList<>();
		starts.add(0);
		int n = text.length();
		StringBuilder open = new StringBuilder(); // the brackets open, innermost last
		boolean continued = false; // the previous physical line ended in a backslash
		boolean afterDecorator = false;
		int i = 0;
		while (i < n) {
			// at the start of a physical line
			int lineStart = i;
			if (closeAtColumnZero && open.length() > 0 && !continued && startsCode(text.charAt(i))
					&& ")]}".indexOf(text.charAt(i)) < 0) {
				open.setLength(0);
			}
			if (open.length() == 0 && !continued && startsCode(text.charAt(i))) {
				if (lineStart > 0 && !afterDecorator && !continuesCompound(text, i)) {
					starts.add(lineStart);
				}
				afterDecorator = text.charAt(i) == '@';
			}
			continued = false;
			// scan the rest of the line (and any string that runs over several lines)
			while (i < n) {
				char c = text.charAt(i);
				if (c == '\n' || c == '\r') {
					i += c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n' ? 2 : 1;
					break;
				}
				if (c == '#') {
					while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
						i++;
					}
					continue;
				}
				if (c == '\\') {
					if (i + 1 < n && (text.charAt(i + 1) == '\n' || text.charAt(i + 1) == '\r')) {
						continued = true;
					}
					i += 2;
					continue;
				}
				if (c == '\'' || c == '"') {
					i = stringEnd(text, i);
					if (i < 0) {
						return FAILED;
					}
					continue;
				}
				if (c == '(' || c == '[' || c == '{') {
					open.append(c);
				} else if (c == ')' || c == ']' || c == '}') {
					int last = open.length() - 1;
					if (last < 0 || open.charAt(last) != (c == ')' ? '(' : c == ']' ? '[' : '{')) {
						return FAILED; // a closer that does not match: the layout reports it across statements
					}
					open.setLength(last);
				}
				i++;
			}
		}
		if (continued || open.length() != 0 && !closeAtColumnZero) {
			return new Scan(null, open.length() != 0 && !continued);
		}
		int[] out = new int[starts.size()];
		for (int k = 0; k < out.length; k++) {
			out[k] = starts.get(k);
		}
		return new Scan(out, false);
	}

	private static boolean startsCode(char c) {
		return c != ' ' && c != '\t' && c != '\f' && c != '#' && c != '\n' && c != '\r' && c != '\\';
	}

	private static boolean continuesCompound(String text, int at) {
		return keywordAt(text, at, "else") || keywordAt(text, at, "elif") || keywordAt(text, at, "except")
				|| keywordAt(text, at, "finally");
	}

	private static boolean keywordAt(String text, int at, String keyword) {
		if (!text.startsWith(keyword, at)) {
			return false;
		}
		int after = at + keyword.length();
		return after >= text.length() || !Character.isJavaIdentifierPart(text.charAt(after));
	}

	/**
	 * The offset after the string literal whose opening quote is at {@code quote}, or -1 when it is not
	 * closed: a single-quoted string at its line's end (or the text's), a triple-quoted one at the text's
	 * end. A backslash always takes the next character, in raw strings too (as the tokenizer reads them).
	 */
	private static int stringEnd(String text, int quote) {
		int n = text.length();
		char q = text.charAt(quote);
		boolean triple = quote + 2 < n && text.charAt(quote + 1) == q && text.charAt(quote + 2) == q;
		int i = quote + (triple ? 3 : 1);
		while (i < n) {
			char c = text.charAt(i);
			if (c == '\\') {
				i += 2;
				continue;
			}
			if (c == q) {
				if (!triple) {
					return i + 1;
				}
				if (i + 2 < n && text.charAt(i + 1) == q && text.charAt(i + 2) == q) {
					return i + 3;
				}
			} else if (!triple && (c == '\n' || c == '\r')) {
				return -1;
			}
			i++;
		}
		return -1;
	}
}
