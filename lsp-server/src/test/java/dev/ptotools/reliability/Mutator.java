package dev.ptotools.reliability;

import java.util.Random;

/**
 * Mutations of real source text, of the kinds an editor produces all day: spans deleted, duplicated
 * and swapped, indentation flipped, random bytes and Unicode inserted, the text truncated.
 */
final class Mutator {

	private static final String[] JUNK = { "(", ")", "[", "]", "{", "}", ":", "\n", "\t", "    ", "\"", "'''", "\\",
			"#", "@", "pl.", "self.", "device=", "\0", "\uFEFF", "\r", "\r\n", "€", "😀", "\u0301", "\u2028", "def ",
			"for r in pl.range(", "if ", "lambda", "**", "=", ",", ".", "pld.world_size()", "\u00a0" };

	private final Random random;

	Mutator(long seed) {
		this.random = new Random(seed);
	}

	String mutate(String s) {
		int rounds = 1 + random.nextInt(4);
		String out = s;
		for (int i = 0; i < rounds; i++) {
			out = once(out);
		}
		return out;
	}

	private String once(String s) {
		if (s.isEmpty()) {
			return junk();
		}
		int a = random.nextInt(s.length() + 1);
		int b = Math.min(s.length(), a + random.nextInt(Math.min(200, s.length()) + 1));
		switch (random.nextInt(7)) {
		case 0:
			return s.substring(0, a) + s.substring(b);
		case 1:
			return s.substring(0, b) + s.substring(a, b) + s.substring(b);
		case 2: {
			int c = random.nextInt(s.length() + 1);
			int d = Math.min(s.length(), c + random.nextInt(100) + 1);
			if (c < a) {
				int t = a;
				a = c;
				c = t;
				t = b;
				b = d;
				d = t;
			}
			if (b > c) {
				return s;
			}
			return s.substring(0, a) + s.substring(c, d) + s.substring(b, c) + s.substring(a, b) + s.substring(d);
		}
		case 3:
			return flipIndentation(s);
		case 4:
			return s.substring(0, a) + junk() + s.substring(a);
		case 5:
			return s.substring(0, a) + randomChars() + s.substring(a);
		default:
			return s.substring(0, a);
		}
	}

	private String flipIndentation(String s) {
		String[] lines = s.split("\n", -1);
		int i = random.nextInt(lines.length);
		lines[i] = lines[i].startsWith("    ") ? lines[i].substring(random.nextInt(4) + 1)
				: (random.nextBoolean() ? "\t" : "  ") + lines[i];
		return String.join("\n", lines);
	}

	private String junk() {
		return JUNK[random.nextInt(JUNK.length)];
	}

	private String randomChars() {
		StringBuilder b = new StringBuilder();
		int n = 1 + random.nextInt(8);
		for (int i = 0; i < n; i++) {
			int kind = random.nextInt(4);
			int cp = kind == 0 ? random.nextInt(0x20) : kind == 1 ? 0x20 + random.nextInt(0x5f)
					: kind == 2 ? 0x80 + random.nextInt(0x2000) : 0x10000 + random.nextInt(0x1000);
			if (cp >= 0xD800 && cp <= 0xDFFF) {
				cp = '?';
			}
			b.appendCodePoint(cp);
		}
		return b.toString();
	}

	int nextInt(int bound) {
		return random.nextInt(Math.max(1, bound));
	}
}
