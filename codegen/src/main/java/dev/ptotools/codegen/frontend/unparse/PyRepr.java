package dev.ptotools.codegen.frontend.unparse;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * CPython 3.11's text for constants, as {@code ast.unparse} writes them: {@code repr()} of str, bytes, int,
 * float and imaginary numbers, {@code str.isprintable()}, the {@code unicode_escape} of one character and
 * the unparser's {@code _str_literal_helper} (the quote choice for f-strings and docstrings).
 */
public final class PyRepr {

	static final List<String> SINGLE_QUOTES = List.of("'", "\"");
	static final List<String> MULTI_QUOTES = List.of("\"\"\"", "'''");
	static final List<String> ALL_QUOTES = List.of("'", "\"", "\"\"\"", "'''");

	/** What ast.unparse writes for an infinity ("1e" + (sys.float_info.max_10_exp + 1)). */
	static final String INFSTR = "1e309";

	private PyRepr() {
	}

	/** Python's str.isprintable() for one code point. */
	static boolean isPrintable(int cp) {
		if (cp == ' ') {
			return true;
		}
		return switch (Character.getType(cp)) {
		case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
				Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
		default -> true;
		};
	}

	/** repr(str). */
	public static String str(String s) {
		char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
		StringBuilder b = new StringBuilder().append(quote);
		s.codePoints().forEach(cp -> {
			if (cp == quote || cp == '\\') {
				b.append('\\').appendCodePoint(cp);
			} else if (cp == '\t') {
				b.append("\\t");
			} else if (cp == '\n') {
				b.append("\\n");
			} else if (cp == '\r') {
				b.append("\\r");
			} else if (cp < ' ' || cp == 0x7f) {
				b.append(hex("\\x", cp, 2));
			} else if (cp < 0x7f || isPrintable(cp)) {
				b.appendCodePoint(cp);
			} else {
				b.append(cp <= 0xff ? hex("\\x", cp, 2) : cp <= 0xffff ? hex("\\u", cp, 4) : hex("\\U", cp, 8));
			}
		});
		return b.append(quote).toString();
	}

	/** repr(bytes). */
	static String bytes(byte[] v) {
		boolean single = false;
		boolean dbl = false;
		for (byte x : v) {
			single |= x == '\'';
			dbl |= x == '"';
		}
		char quote = single && !dbl ? '"' : '\'';
		StringBuilder b = new StringBuilder("b").append(quote);
		for (byte x : v) {
			int c = x & 0xff;
			if (c == quote || c == '\\') {
				b.append('\\').append((char) c);
			} else if (c == '\t') {
				b.append("\\t");
			} else if (c == '\n') {
				b.append("\\n");
			} else if (c == '\r') {
				b.append("\\r");
			} else if (c < ' ' || c >= 0x7f) {
				b.append(hex("\\x", c, 2));
			} else {
				b.append((char) c);
			}
		}
		return b.append(quote).toString();
	}

	/** The unicode_escape encoding of one code point. */
	static String unicodeEscape(int cp) {
		return switch (cp) {
		case '\\' -> "\\\\";
		case '\t' -> "\\t";
		case '\n' -> "\\n";
		case '\r' -> "\\r";
		default -> cp < ' ' || (cp >= 0x7f && cp <= 0xff) ? hex("\\x", cp, 2)
				: cp < 0x7f ? new String(Character.toChars(cp)) : cp <= 0xffff ? hex("\\u", cp, 4) : hex("\\U", cp, 8);
		};
	}

	private static String hex(String prefix, int v, int width) {
		String h = Integer.toHexString(v);
		return prefix + "0".repeat(Math.max(0, width - h.length())) + h;
	}

	/** repr(int). */
	static String integer(BigInteger v) {
		return v.toString();
	}

	/** repr(float): 3.14, 1e+16, inf. */
	public static String floatRepr(double v) {
		return floatRepr(v, true);
	}

	/** What ast.unparse writes for a float constant: repr(), infinities as 1e309. */
	static String floating(double v) {
		return floatRepr(v, true).replace("inf", INFSTR).replace("nan", "(" + INFSTR + "-" + INFSTR + ")");
	}

	/** What ast.unparse writes for an imaginary literal: repr(complex(0, v)), e.g. 1j, 2.5e-07j. */
	static String imaginary(double v) {
		return (floatRepr(v, false) + "j").replace("inf", INFSTR).replace("nan", "(" + INFSTR + "-" + INFSTR + ")");
	}

	/**
	 * Python's float formatting in repr mode ('r'): the shortest digits that read back as the same double,
	 * positional when the decimal point falls within -4 < decpt <= 16, else in exponent form with at least
	 * two exponent digits; addDot0 adds ".0" to an integral positional value (repr(float) does, the
	 * imaginary part of repr(complex) does not).
	 */
	static String floatRepr(double v, boolean addDot0) {
		if (Double.isNaN(v)) {
			return "nan";
		}
		if (Double.isInfinite(v)) {
			return v > 0 ? "inf" : "-inf";
		}
		String sign = (v < 0 || (v == 0 && 1 / v < 0)) ? "-" : "";
		double a = Math.abs(v);
		if (a == 0) {
			return sign + (addDot0 ? "0.0" : "0");
		}
		BigDecimal exact = new BigDecimal(a);
		BigDecimal shortest = exact;
		for (int p = 1; p <= 17; p++) {
			BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
			if (r.doubleValue() == a) {
				shortest = r;
				break;
			}
		}
		shortest = shortest.stripTrailingZeros();
		String digits = shortest.unscaledValue().toString();
		int decpt = digits.length() - shortest.scale();
		String body;
		if (decpt <= -4 || decpt > 16) {
			int exp = decpt - 1;
			String e = Integer.toString(Math.abs(exp));
			body = digits.charAt(0) + (digits.length() > 1 ? "." + digits.substring(1) : "") + "e" + (exp < 0 ? "-" : "+")
					+ (e.length() < 2 ? "0" + e : e);
		} else if (decpt <= 0) {
			body = "0." + "0".repeat(-decpt) + digits;
		} else if (decpt >= digits.length()) {
			body = digits + "0".repeat(decpt - digits.length()) + (addDot0 ? ".0" : "");
		} else {
			body = digits.substring(0, decpt) + "." + digits.substring(decpt);
		}
		return sign + body;
	}

	/** The result of _str_literal_helper: the escaped body and the quotes it may be written in. */
	record Literal(String body, List<String> quotes) {
	}

	/** ast._Unparser._str_literal_helper: a string literal body that needs as few escapes as possible. */
	static Literal strLiteralHelper(String s, List<String> quoteTypes, boolean escapeSpecialWhitespace) {
		StringBuilder e = new StringBuilder();
		s.codePoints().forEach(cp -> {
			if (!escapeSpecialWhitespace && (cp == '\n' || cp == '\t')) {
				e.appendCodePoint(cp);
			} else if (cp == '\\' || !isPrintable(cp)) {
				e.append(unicodeEscape(cp));
			} else {
				e.appendCodePoint(cp);
			}
		});
		String escaped = e.toString();
		List<String> possible = new ArrayList<>(quoteTypes);
		if (escaped.indexOf('\n') >= 0) {
			possible.removeIf(q -> !MULTI_QUOTES.contains(q));
		}
		possible.removeIf(escaped::contains);
		if (possible.isEmpty()) {
			String r = str(s);
			String quote = String.valueOf(r.charAt(0));
			for (String q : quoteTypes) {
				if (q.contains(quote)) {
					quote = q;
					break;
				}
			}
			return new Literal(r.substring(1, r.length() - 1), List.of(quote));
		}
		if (!escaped.isEmpty()) {
			char last = escaped.charAt(escaped.length() - 1);
			List<String> sorted = new ArrayList<>();
			possible.stream().filter(q -> q.charAt(0) != last).forEach(sorted::add);
			possible.stream().filter(q -> q.charAt(0) == last).forEach(sorted::add);
			possible = sorted;
			if (possible.get(0).charAt(0) == last) {
				escaped = escaped.substring(0, escaped.length() - 1) + "\\" + last;
			}
		}
		return new Literal(escaped, possible);
	}
}
