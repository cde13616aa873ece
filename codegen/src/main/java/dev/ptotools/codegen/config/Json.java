package dev.ptotools.codegen.config;

import java.util.List;
import java.util.Map;

/**
 * JSON text as Python's {@code json.dumps(value, indent=2)} writes it: every list element and object
 * member on its own line, {@code ": "} between key and value, empty containers as {@code []} / {@code {}},
 * no trailing newline. Maps keep their insertion order.
 */
public final class Json {

	private Json() {
	}

	public static String dumps(Object value) {
		StringBuilder b = new StringBuilder();
		write(b, value, 0);
		return b.toString();
	}

	private static void write(StringBuilder b, Object v, int depth) {
		if (v == null) {
			b.append("null");
		} else if (v instanceof String s) {
			string(b, s);
		} else if (v instanceof Boolean bool) {
			b.append(bool ? "true" : "false");
		} else if (v instanceof Number n) {
			b.append(n);
		} else if (v instanceof Map<?, ?> m) {
			if (m.isEmpty()) {
				b.append("{}");
				return;
			}
			b.append("{\n");
			int i = 0;
			for (Map.Entry<?, ?> e : m.entrySet()) {
				indent(b, depth + 1);
				string(b, String.valueOf(e.getKey()));
				b.append(": ");
				write(b, e.getValue(), depth + 1);
				b.append(++i < m.size() ? ",\n" : "\n");
			}
			indent(b, depth);
			b.append('}');
		} else if (v instanceof List<?> l) {
			if (l.isEmpty()) {
				b.append("[]");
				return;
			}
			b.append("[\n");
			for (int i = 0; i < l.size(); i++) {
				indent(b, depth + 1);
				write(b, l.get(i), depth + 1);
				b.append(i + 1 < l.size() ? ",\n" : "\n");
			}
			indent(b, depth);
			b.append(']');
		} else {
			throw new IllegalArgumentException("not a JSON value: " + v.getClass());
		}
	}

	private static void indent(StringBuilder b, int depth) {
		b.append("  ".repeat(depth));
	}

	/** ensure_ascii=True, as json.dumps defaults. */
	private static void string(StringBuilder b, String s) {
		b.append('"');
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			switch (c) {
			case '"' -> b.append("\\\"");
			case '\\' -> b.append("\\\\");
			case '\n' -> b.append("\\n");
			case '\r' -> b.append("\\r");
			case '\t' -> b.append("\\t");
			case '\b' -> b.append("\\b");
			case '\f' -> b.append("\\f");
			default -> {
				if (c < 0x20 || c > 0x7e) {
					b.append(String.format("\\u%04x", (int) c));
				} else {
					b.append(c);
				}
			}
			}
		}
		b.append('"');
	}
}
