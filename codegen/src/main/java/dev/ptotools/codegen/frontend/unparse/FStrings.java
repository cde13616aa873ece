package dev.ptotools.codegen.frontend.unparse;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.python.ExprStmt;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.Paren;

/**
 * One f-string token's text split as CPython 3.11's f-string parser splits it (Parser/string_parser.c):
 * literal text (escapes decoded unless raw, doubled braces as one) and replacement fields
 * {@code {expr[=][!conv][:spec]}}, the spec itself literal text and fields one level deep. A field's
 * expression is parsed as {@code (expr)}, as CPython compiles it; a {@code =} field adds its source text
 * (with the whitespace around the {@code =}) as constant text and converts with {@code !r} unless a
 * conversion or spec is given.
 */
final class FStrings {

	private final String s;
	private final boolean raw;
	private int i;

	private FStrings(String s, boolean raw) {
		this.s = s;
		this.raw = raw;
	}

	/** The parts of an f-string body: decoded text (String) and {@link PyLiterals.FormattedValue}s. */
	static List<Object> parse(String content, boolean raw) {
		FStrings p = new FStrings(content, raw);
		List<Object> out = new ArrayList<>();
		p.parts(0, out);
		if (p.i < p.s.length()) {
			throw new UnparseException("f-string: single '}' is not allowed");
		}
		return out;
	}

	/** Literal text and fields up to the end, or (in a spec, level > 0) up to the closing brace. */
	private void parts(int level, List<Object> out) {
		while (i < s.length()) {
			StringBuilder text = new StringBuilder();
			StringBuilder pending = new StringBuilder();
			while (i < s.length()) {
				char c = s.charAt(i);
				if (!raw && c == '\\' && i + 1 < s.length()) {
					// an escape takes the next character along, except a brace, which still opens or closes
					char n = s.charAt(i + 1);
					pending.append(c);
					i++;
					if (n == 'N' && i + 1 < s.length() && s.charAt(i + 1) == '{') {
						int close = s.indexOf('}', i);
						int end = close < 0 ? s.length() : close + 1;
						pending.append(s, i, end);
						i = end;
						continue;
					}
					if (n != '{' && n != '}') {
						pending.append(n);
						i++;
						continue;
					}
					c = n;
				}
				if (c == '{' || c == '}') {
					if (level == 0 && i + 1 < s.length() && s.charAt(i + 1) == c) {
						text.append(PyLiterals.decode(pending.toString(), raw)).append(c);
						pending.setLength(0);
						i += 2;
						continue;
					}
					if (level == 0 && c == '}') {
						throw new UnparseException("f-string: single '}' is not allowed");
					}
					break;
				}
				pending.append(c);
				i++;
			}
			text.append(PyLiterals.decode(pending.toString(), raw));
			PyLiterals.add(out, text.toString());
			if (i >= s.length() || s.charAt(i) == '}') {
				return;
			}
			i++; // '{'
			if (level >= 2) {
				throw new UnparseException("f-string: expressions nested too deeply");
			}
			field(level, out);
		}
	}

	/** One replacement field, after its '{'. */
	private void field(int level, List<Object> out) {
		int start = i;
		int depth = 0;
		String quote = null;
		while (i < s.length()) {
			char c = s.charAt(i);
			if (c == '\\') {
				throw new UnparseException("f-string expression part cannot include a backslash");
			}
			if (quote != null) {
				if (s.startsWith(quote, i)) {
					i += quote.length();
					quote = null;
				} else {
					i++;
				}
				continue;
			}
			if (c == '\'' || c == '"') {
				quote = s.startsWith(String.valueOf(c).repeat(3), i) ? String.valueOf(c).repeat(3) : String.valueOf(c);
				i += quote.length();
				continue;
			} else if (c == '[' || c == '(' || c == '{') {
				depth++;
			} else if (c == '#') {
				throw new UnparseException("f-string expression part cannot include '#'");
			} else if (depth > 0 && (c == ']' || c == ')' || c == '}')) {
				depth--;
			} else if (depth == 0) {
				char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
				char prev = i > start ? s.charAt(i - 1) : 0;
				if (c == '}' || c == ':' || (c == '!' && next != '=')
						|| (c == '=' && next != '=' && prev != '=' && prev != '!' && prev != '<' && prev != '>')) {
					break;
				}
			}
			i++;
		}
		if (i >= s.length()) {
			throw new UnparseException("f-string: expecting '}'");
		}
		String exprText = s.substring(start, i);
		if (exprText.isBlank()) {
			throw new UnparseException("f-string: empty expression not allowed");
		}
		Expression expr = expression(exprText);
		boolean debug = false;
		if (s.charAt(i) == '=') {
			debug = true;
			i++;
			while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
				i++;
			}
			PyLiterals.add(out, s.substring(start, i));
		}
		int conversion = -1;
		if (i < s.length() && s.charAt(i) == '!') {
			if (i + 1 >= s.length() || "sra".indexOf(s.charAt(i + 1)) < 0) {
				throw new UnparseException("f-string: invalid conversion character: expected 's', 'r', or 'a'");
			}
			conversion = s.charAt(i + 1);
			i += 2;
		}
		PyLiterals.JoinedStr spec = null;
		if (i < s.length() && s.charAt(i) == ':') {
			i++;
			List<Object> specParts = new ArrayList<>();
			parts(level + 1, specParts);
			spec = new PyLiterals.JoinedStr(specParts);
		}
		if (i >= s.length() || s.charAt(i) != '}') {
			throw new UnparseException("f-string: expecting '}'");
		}
		i++;
		if (debug && conversion == -1 && spec == null) {
			conversion = 'r';
		}
		out.add(new PyLiterals.FormattedValue(expr, conversion, spec));
	}

	/** A field's expression, parsed as CPython 3.11 compiles it: in parentheses. */
	private static Expression expression(String text) {
		ParsedFile f = PythonFrontEnd.get().parse("(" + text + ")\n");
		if (f.hasProblems() || f.ast().getBody().size() != 1 || !(f.ast().getBody().get(0) instanceof ExprStmt e)) {
			throw new UnparseException("f-string: invalid syntax in expression '" + text.strip() + "'");
		}
		Expression v = e.getValue();
		return v instanceof Paren p && p.getValue() != null ? p.getValue() : v;
	}
}
