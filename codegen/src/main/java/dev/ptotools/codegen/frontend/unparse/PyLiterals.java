package dev.ptotools.codegen.frontend.unparse;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.ptotools.language.python.Expression;

/**
 * The values of literal tokens as CPython 3.11's parser makes them: numbers (int, float, imaginary),
 * strings and bytes with their escapes decoded and adjacent literals concatenated, and f-strings as a
 * JoinedStr of constant text and FormattedValues ({@link FStrings} splits an f-string's text).
 */
final class PyLiterals {

	private PyLiterals() {
	}

	/** A str or bytes constant; {@code u} when the first token had the u prefix (ast's kind "u"). */
	record Const(Object value, boolean u) {
	}

	/** An imaginary literal: complex(0, imag). */
	record Imaginary(double imag) {
	}

	/** An f-string: constant text (String) and {@link FormattedValue}s, adjacent constants merged. */
	record JoinedStr(List<Object> values) {
	}

	/** {@code {value!conversion:spec}}; conversion is 's', 'r', 'a' or -1, spec null when absent. */
	record FormattedValue(Expression value, int conversion, JoinedStr spec) {
	}

	/** A number token: BigInteger, Double or {@link Imaginary}. */
	static Object number(String token) {
		String t = token.replace("_", "");
		String lower = t.toLowerCase(Locale.ROOT);
		if (lower.endsWith("j")) {
			return new Imaginary(Double.parseDouble(t.substring(0, t.length() - 1)));
		}
		if (lower.startsWith("0x")) {
			return new BigInteger(t.substring(2), 16);
		}
		if (lower.startsWith("0o")) {
			return new BigInteger(t.substring(2), 8);
		}
		if (lower.startsWith("0b")) {
			return new BigInteger(t.substring(2), 2);
		}
		if (lower.contains(".") || lower.contains("e")) {
			return Double.parseDouble(t);
		}
		return new BigInteger(t);
	}

	/** The value of adjacent string tokens: a {@link Const} (str or byte[]) or a {@link JoinedStr}. */
	static Object strings(List<String> tokens) {
		boolean anyF = false;
		boolean anyBytes = false;
		boolean allBytes = true;
		for (String tok : tokens) {
			String prefix = prefix(tok).toLowerCase(Locale.ROOT);
			anyF |= prefix.contains("f");
			anyBytes |= prefix.contains("b");
			allBytes &= prefix.contains("b");
		}
		if (anyBytes && !allBytes) {
			throw new UnparseException("cannot mix bytes and nonbytes literals");
		}
		boolean u = !tokens.isEmpty() && prefix(tokens.get(0)).toLowerCase(Locale.ROOT).contains("u");
		if (allBytes) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			for (String tok : tokens) {
				byte[] b = decodeBytes(content(tok), prefix(tok).toLowerCase(Locale.ROOT).contains("r"));
				out.write(b, 0, b.length);
			}
			return new Const(out.toByteArray(), false);
		}
		if (!anyF) {
			StringBuilder b = new StringBuilder();
			for (String tok : tokens) {
				b.append(decode(content(tok), prefix(tok).toLowerCase(Locale.ROOT).contains("r")));
			}
			return new Const(b.toString(), u);
		}
		List<Object> values = new ArrayList<>();
		for (String tok : tokens) {
			String prefix = prefix(tok).toLowerCase(Locale.ROOT);
			boolean raw = prefix.contains("r");
			if (prefix.contains("f")) {
				for (Object part : FStrings.parse(content(tok), raw)) {
					add(values, part);
				}
			} else {
				add(values, decode(content(tok), raw));
			}
		}
		return new JoinedStr(values);
	}

	/** Appends a part, merging adjacent constant text and dropping empty text. */
	static void add(List<Object> values, Object part) {
		if (part instanceof String s) {
			if (s.isEmpty()) {
				return;
			}
			if (!values.isEmpty() && values.get(values.size() - 1) instanceof String last) {
				values.set(values.size() - 1, last + s);
				return;
			}
		}
		values.add(part);
	}

	static String prefix(String token) {
		int i = 0;
		while (i < token.length() && Character.isLetter(token.charAt(i))) {
			i++;
		}
		return token.substring(0, i);
	}

	/** The text between the quotes of a string token. */
	static String content(String token) {
		String body = token.substring(prefix(token).length());
		int q = body.startsWith("\"\"\"") || body.startsWith("'''") ? 3 : 1;
		if (body.length() < 2 * q) {
			throw new UnparseException("unterminated string literal");
		}
		return body.substring(q, body.length() - q);
	}

	/** A str literal's escapes decoded (nothing for a raw one); unknown escapes keep their backslash. */
	static String decode(String s, boolean raw) {
		if (raw || s.indexOf('\\') < 0) {
			return s;
		}
		StringBuilder b = new StringBuilder(s.length());
		int i = 0;
		while (i < s.length()) {
			char c = s.charAt(i++);
			if (c != '\\' || i >= s.length()) {
				b.append(c);
				continue;
			}
			char n = s.charAt(i++);
			switch (n) {
			case '\n' -> {
			}
			case '\\', '\'', '"' -> b.append(n);
			case 'a' -> b.append('\u0007');
			case 'b' -> b.append('\b');
			case 'f' -> b.append('\f');
			case 'n' -> b.append('\n');
			case 'r' -> b.append('\r');
			case 't' -> b.append('\t');
			case 'v' -> b.append('\u000b');
			case 'x' -> {
				b.appendCodePoint(hex(s, i, 2, "\\xXX"));
				i += 2;
			}
			case 'u' -> {
				b.appendCodePoint(hex(s, i, 4, "\\uXXXX"));
				i += 4;
			}
			case 'U' -> {
				b.appendCodePoint(hex(s, i, 8, "\\UXXXXXXXX"));
				i += 8;
			}
			case 'N' -> {
				int close = s.indexOf('}', i);
				if (i >= s.length() || s.charAt(i) != '{' || close < 0) {
					throw new UnparseException("malformed \\N character escape");
				}
				String name = s.substring(i + 1, close);
				try {
					b.appendCodePoint(Character.codePointOf(name));
				} catch (IllegalArgumentException e) {
					throw new UnparseException("unknown Unicode character name");
				}
				i = close + 1;
			}
			default -> {
				if (n >= '0' && n <= '7') {
					int v = n - '0';
					for (int k = 0; k < 2 && i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7'; k++) {
						v = v * 8 + (s.charAt(i++) - '0');
					}
					b.appendCodePoint(v);
				} else {
					b.append('\\').append(n);
				}
			}
			}
		}
		return b.toString();
	}

	private static byte[] decodeBytes(String s, boolean raw) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int i = 0;
		while (i < s.length()) {
			char c = s.charAt(i++);
			if (c > 0x7f) {
				throw new UnparseException("bytes can only contain ASCII literal characters");
			}
			if (raw || c != '\\' || i >= s.length()) {
				out.write(c);
				continue;
			}
			char n = s.charAt(i++);
			switch (n) {
			case '\n' -> {
			}
			case '\\', '\'', '"' -> out.write(n);
			case 'a' -> out.write(7);
			case 'b' -> out.write(8);
			case 'f' -> out.write(12);
			case 'n' -> out.write('\n');
			case 'r' -> out.write('\r');
			case 't' -> out.write('\t');
			case 'v' -> out.write(11);
			case 'x' -> {
				out.write(hex(s, i, 2, "\\xXX"));
				i += 2;
			}
			default -> {
				if (n >= '0' && n <= '7') {
					int v = n - '0';
					for (int k = 0; k < 2 && i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7'; k++) {
						v = v * 8 + (s.charAt(i++) - '0');
					}
					out.write(v & 0xff);
				} else {
					out.write('\\');
					out.write(n);
				}
			}
			}
		}
		return out.toByteArray();
	}

	private static int hex(String s, int at, int digits, String form) {
		if (at + digits > s.length()) {
			throw new UnparseException("truncated " + form + " escape");
		}
		try {
			int v = Integer.parseUnsignedInt(s.substring(at, at + digits), 16);
			if (v > Character.MAX_CODE_POINT) {
				throw new UnparseException("illegal Unicode character");
			}
			return v;
		} catch (NumberFormatException e) {
			throw new UnparseException("truncated " + form + " escape");
		}
	}
}
