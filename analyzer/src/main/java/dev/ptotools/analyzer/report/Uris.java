package dev.ptotools.analyzer.report;

import java.nio.charset.StandardCharsets;

/** URI references for report paths (RFC 3986): relative paths with each segment percent-encoded. */
public final class Uris {

	private static final String HEX = "0123456789ABCDEF";

	private Uris() {
	}

	/**
	 * A relative URI reference for a relative path with forward slashes ("src/my file.py" to
	 * "src/my%20file.py"); an absolute path ("/tmp/x.py") becomes a {@code file:} URI.
	 */
	public static String of(String path) {
		boolean absolute = path.startsWith("/");
		StringBuilder b = new StringBuilder(absolute ? "file://" : "");
		String[] segments = path.split("/", -1);
		for (int i = 0; i < segments.length; i++) {
			if (i > 0) {
				b.append('/');
			}
			String seg = segments[i];
			// A relative reference whose first segment holds ':' would read as a scheme.
			encode(seg, b, !absolute && i == 0);
		}
		return b.toString();
	}

	public static boolean isRelative(String path) {
		return !path.startsWith("/");
	}

	private static void encode(String segment, StringBuilder b, boolean first) {
		for (byte raw : segment.getBytes(StandardCharsets.UTF_8)) {
			int c = raw & 0xff;
			boolean unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '.' || c == '_' || c == '~';
			boolean subDelim = c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*'
					|| c == '+' || c == ',' || c == ';' || c == '=' || c == '@';
			if (unreserved || subDelim || (c == ':' && !first)) {
				b.append((char) c);
			} else {
				b.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
			}
		}
	}
}
