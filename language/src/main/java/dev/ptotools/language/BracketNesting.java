package dev.ptotools.language;

/**
 * CPython's tokenizer limit on open brackets (MAXLEVEL, 200): the 201st bracket open at once is the
 * file's one error, "too many nested parentheses", and nothing else is parsed. Checked before the
 * parser runs, whose recursion such nesting would exhaust.
 *
 * <p>Brackets in comments and string literals do not count; the scan follows the tokenizer's quoting
 * (single, double and triple quotes, backslash escapes) closely enough for that.
 */
final class BracketNesting {

	/** CPython's MAXLEVEL (Parser/tokenizer.h). */
	static final int MAX_LEVEL = 200;

	private BracketNesting() {
	}

	/** The offset of the first bracket opened beyond {@link #MAX_LEVEL}, or -1. */
	static int firstTooDeep(String text) {
		int depth = 0;
		int n = text.length();
		for (int i = 0; i < n; i++) {
			char c = text.charAt(i);
			switch (c) {
			case '#' -> {
				while (i + 1 < n && text.charAt(i + 1) != '\n') {
					i++;
				}
			}
			case '\'', '"' -> i = endOfString(text, i);
			case '(', '[', '{' -> {
				if (++depth > MAX_LEVEL) {
					return i;
				}
			}
			case ')', ']', '}' -> depth = Math.max(0, depth - 1);
			default -> {
			}
			}
		}
		return -1;
	}

	/** The offset of the last character of the string literal opening at {@code start}. */
	private static int endOfString(String text, int start) {
		char q = text.charAt(start);
		int n = text.length();
		boolean triple = start + 2 < n && text.charAt(start + 1) == q && text.charAt(start + 2) == q;
		int i = start + (triple ? 3 : 1);
		while (i < n) {
			char c = text.charAt(i);
			if (c == '\\') {
				i += 2;
				continue;
			}
			if (!triple && c == '\n') {
				return i; // an unterminated string ends at its line, as the tokenizer reports it
			}
			if (c == q && (!triple || i + 2 < n && text.charAt(i + 1) == q && text.charAt(i + 2) == q)) {
				return triple ? i + 2 : i;
			}
			i++;
		}
		return n - 1;
	}
}
