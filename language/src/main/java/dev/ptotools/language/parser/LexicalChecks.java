package dev.ptotools.language.parser;

import java.util.List;
import java.util.function.IntSupplier;

import org.antlr.runtime.CommonToken;
import org.antlr.runtime.Token;

/**
 * The checks CPython's tokenizer makes on single tokens, for {@link PythonLayoutTokenSource}: strings left
 * unterminated, identifiers with characters Python does not allow, and tokens the lexer could not match
 * (a null byte, a stray backslash, a malformed number, an invalid character), each reported as a
 * {@link LexicalProblem} with CPython's message.
 */
final class LexicalChecks {

	private final List<LexicalProblem> problems;
	/** Where a token without a start offset is (the end of the last raw token read). */
	private final IntSupplier fallbackOffset;
	/** CPython reports the first null byte only. */
	private boolean nulReported;

	LexicalChecks(List<LexicalProblem> problems, IntSupplier fallbackOffset) {
		this.problems = problems;
		this.fallbackOffset = fallbackOffset;
	}

	void checkString(Token t) {
		String s = textOnce(t);
		int i = 0;
		while (i < s.length() && Character.isLetter(s.charAt(i))) {
			i++;
		}
		char q = s.charAt(i);
		boolean triple = s.startsWith(q == '"' ? "\"\"\"" : "'''", i) && s.length() >= i + 3;
		int j = i + (triple ? 3 : 1);
		boolean closed = false;
		while (j < s.length()) {
			char c = s.charAt(j);
			if (c == '\\') {
				j += 2;
			} else if (c == q && (!triple || s.startsWith(q == '"' ? "\"\"\"" : "'''", j))) {
				closed = true;
				break;
			} else {
				j++;
			}
		}
		if (!closed) {
			int endLine = t.getLine();
			for (int n = 0; n < s.length(); n++) {
				char c = s.charAt(n);
				if (c == '\n' || (c == '\r' && (n + 1 == s.length() || s.charAt(n + 1) != '\n'))) {
					endLine++;
				}
			}
			if (triple) {
				problem(t, i + 3, "unterminated triple-quoted string literal (detected at line " + endLine + ")",
						"unterminated-string");
			} else {
				problem(t, s.length(), "unterminated string literal (detected at line " + endLine + ")",
						"unterminated-string");
			}
		}
	}

	void checkIdentifier(Token t) {
		String s = textOnce(t);
		for (int i = 0; i < s.length(); i++) {
			if (s.charAt(i) >= 0x80) {
				checkUnicodeIdentifier(t, s, i);
				return;
			}
		}
	}

	/**
	 * The text of a token whose value the parser converts later (a name, a string): kept on the token,
	 * so that the value converter gets this string instead of cutting it out of the input again.
	 */
	private static String textOnce(Token t) {
		String s = t.getText();
		if (t instanceof CommonToken c) {
			c.setText(s);
		}
		return s;
	}

	private void checkUnicodeIdentifier(Token t, String s, int from) {
		for (int i = from; i < s.length();) {
			int cp = s.codePointAt(i);
			boolean ok = cp < 0x80 || (i == 0 ? Character.isUnicodeIdentifierStart(cp)
					: Character.isUnicodeIdentifierPart(cp) && !Character.isIdentifierIgnorable(cp));
			if (!ok) {
				problemAt(t, i, Character.charCount(cp), invalidCharacter(cp), "invalid-character");
				return;
			}
			i += Character.charCount(cp);
		}
	}

	private static String invalidCharacter(int cp) {
		String hex = String.format("U+%04X", cp);
		if (Character.isISOControl(cp) || Character.isSpaceChar(cp) || Character.getType(cp) == Character.FORMAT) {
			return "invalid non-printable character " + hex;
		}
		return "invalid character '" + new String(Character.toChars(cp)) + "' (" + hex + ")";
	}

	void reportInvalid(Token t) {
		String s = t.getText();
		if (s == null || s.isEmpty()) {
			problem(t, 1, "invalid syntax", "invalid-token");
			return;
		}
		char c = s.charAt(0);
		if (c == 0) {
			if (!nulReported) {
				nulReported = true;
				problem(t, 1, "source code cannot contain null bytes", dev.ptotools.language.PythonFrontEnd.NULL_BYTE);
			}
		} else if (c == '\\') {
			problem(t, 1, "unexpected character after line continuation character", "bad-continuation");
		} else if (c < 0x80 && !Character.isISOControl(c)) {
			if (Character.isDigit(c) || c == '.') {
				problem(t, s.length(), "invalid " + numberKind(s) + " literal", "invalid-number");
			} else {
				problem(t, s.length(), "invalid syntax", "invalid-token");
			}
		} else {
			problem(t, Character.charCount(s.codePointAt(0)), invalidCharacter(s.codePointAt(0)), "invalid-character");
		}
	}

	private static String numberKind(String s) {
		if (s.length() > 1 && s.charAt(0) == '0') {
			switch (Character.toLowerCase(s.charAt(1))) {
			case 'x':
				return "hexadecimal";
			case 'o':
				return "octal";
			case 'b':
				return "binary";
			default:
				break;
			}
		}
		return "decimal";
	}

	void problem(Token t, int length, String message, String code) {
		problemAt(t, 0, length, message, code);
	}

	private void problemAt(Token t, int delta, int length, String message, String code) {
		int start = t instanceof CommonToken c ? c.getStartIndex() : fallbackOffset.getAsInt();
		problems.add(new LexicalProblem(start + delta, length, message, code));
	}
}
