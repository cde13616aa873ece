package dev.ptotools.analyzer.pipeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The value of a Python string literal, with where each of its characters was written in the source:
 * character {@code i} of {@link #text} comes from source offsets {@code [starts[i], ends[i])} (one
 * character, or a whole escape sequence). {@link #dedent()} does what textwrap.dedent does and keeps
 * the map, so text handed to pl.parse through it still points back into the source.
 */
public record LiteralText(String text, int[] starts, int[] ends, int contentEnd) {

	/**
	 * Decodes the parts of a (possibly implicitly concatenated) literal; each part is its token's text as
	 * written at {@code offsets[k]}. Null for f-strings and bytes, whose value is not known text.
	 */
	static LiteralText decode(List<String> parts, int[] offsets) {
		StringBuilder text = new StringBuilder();
		List<int[]> map = new ArrayList<>();
		int contentEnd = 0;
		for (int k = 0; k < parts.size(); k++) {
			String part = parts.get(k);
			int p = 0;
			while (p < part.length() && Character.isLetter(part.charAt(p))) {
				p++;
			}
			String prefix = part.substring(0, p).toLowerCase();
			if (prefix.contains("f") || prefix.contains("b")) {
				return null;
			}
			String body = part.substring(p);
			int q = body.startsWith("\"\"\"") || body.startsWith("'''") ? 3 : 1;
			if (body.length() < 2 * q) {
				return null;
			}
			int from = offsets[k] + p + q;
			String content = body.substring(q, body.length() - q);
			contentEnd = from + content.length();
			if (prefix.contains("r")) {
				for (int i = 0; i < content.length(); i++) {
					text.append(content.charAt(i));
					map.add(new int[] { from + i, from + i + 1 });
				}
			} else {
				unescape(content, from, text, map);
			}
		}
		int[] starts = new int[map.size()];
		int[] ends = new int[map.size()];
		for (int i = 0; i < map.size(); i++) {
			starts[i] = map.get(i)[0];
			ends[i] = map.get(i)[1];
		}
		return new LiteralText(text.toString(), starts, ends, contentEnd);
	}

	/** Python's escapes; an unknown one keeps its backslash, as Python does. */
	private static void unescape(String s, int from, StringBuilder out, List<int[]> map) {
		for (int i = 0; i < s.length();) {
			char c = s.charAt(i);
			if (c != '\\' || i + 1 >= s.length()) {
				out.append(c);
				map.add(new int[] { from + i, from + i + 1 });
				i++;
				continue;
			}
			char n = s.charAt(i + 1);
			int len = 2;
			String value;
			switch (n) {
			case '\n' -> value = ""; // a line continuation
			case 'n' -> value = "\n";
			case 't' -> value = "\t";
			case 'r' -> value = "\r";
			case 'a' -> value = "\u0007";
			case 'b' -> value = "\b";
			case 'f' -> value = "\f";
			case 'v' -> value = "\u000b";
			case '\\', '\'', '"' -> value = String.valueOf(n);
			case 'x', 'u', 'U' -> {
				int digits = n == 'x' ? 2 : n == 'u' ? 4 : 8;
				String hex = i + 2 + digits <= s.length() ? s.substring(i + 2, i + 2 + digits) : "";
				if (hex.length() == digits && hex.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
					value = new String(Character.toChars(Integer.parseInt(hex, 16)));
					len = 2 + digits;
				} else {
					value = "\\" + n;
				}
			}
			default -> {
				int o = 1;
				while (o <= 3 && i + o < s.length() && s.charAt(i + o) >= '0' && s.charAt(i + o) <= '7') {
					o++;
				}
				if (o > 1) {
					value = String.valueOf((char) Integer.parseInt(s.substring(i + 1, i + o), 8));
					len = o;
				} else {
					value = "\\" + n;
				}
			}
			}
			for (int k = 0; k < value.length(); k++) {
				out.append(value.charAt(k));
				map.add(new int[] { from + i, from + i + len });
			}
			i += len;
		}
	}

	/**
	 * textwrap.dedent: lines of only spaces and tabs become empty, and the longest run of leading
	 * whitespace common to the other lines is taken off each of them.
	 */
	LiteralText dedent() {
		String[] lines = text.split("\n", -1);
		String margin = null;
		for (String line : lines) {
			int w = indentWidth(line);
			if (w == line.length()) {
				continue; // blank: no say in the margin
			}
			String indent = line.substring(0, w);
			if (margin == null) {
				margin = indent;
			} else {
				int common = 0;
				while (common < margin.length() && common < indent.length()
						&& margin.charAt(common) == indent.charAt(common)) {
					common++;
				}
				margin = margin.substring(0, common);
			}
		}
		int cut = margin == null ? 0 : margin.length();
		StringBuilder out = new StringBuilder();
		int[] starts = new int[text.length()];
		int[] ends = new int[text.length()];
		int n = 0;
		int at = 0;
		for (int l = 0; l < lines.length; l++) {
			String line = lines[l];
			int skip = indentWidth(line) == line.length() ? line.length() : cut;
			for (int i = skip; i < line.length(); i++) {
				out.append(line.charAt(i));
				starts[n] = this.starts[at + i];
				ends[n++] = this.ends[at + i];
			}
			at += line.length();
			if (l < lines.length - 1) {
				out.append('\n');
				starts[n] = this.starts[at];
				ends[n++] = this.ends[at];
				at++;
			}
		}
		return new LiteralText(out.toString(), Arrays.copyOf(starts, n), Arrays.copyOf(ends, n), contentEnd);
	}

	private static int indentWidth(String line) {
		int w = 0;
		while (w < line.length() && (line.charAt(w) == ' ' || line.charAt(w) == '\t')) {
			w++;
		}
		return w;
	}

	/** The source offset of a text offset; the end of the text maps to the end of the literal's content. */
	int sourceOffset(int offset) {
		return offset < starts.length ? starts[offset] : contentEnd;
	}

	/** The source range a text range was written in: from its first character's start to its last one's end. */
	int[] sourceRange(int start, int end) {
		if (end <= start) {
			int at = sourceOffset(start);
			return new int[] { at, at };
		}
		return new int[] { sourceOffset(start), end - 1 < ends.length ? ends[end - 1] : contentEnd };
	}

	/** Whether a text range was written as is in the source (no escape, no dedented margin inside it). */
	boolean verbatim(String source, int start, int end) {
		int[] r = sourceRange(start, end);
		return r[1] - r[0] == end - start && source.regionMatches(r[0], text, start, end - start);
	}
}
