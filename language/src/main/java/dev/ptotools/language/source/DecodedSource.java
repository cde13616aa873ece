package dev.ptotools.language.source;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a Python source file, decoded as CPython decodes it: UTF-8 unless a PEP 263 coding
 * declaration on the first two lines says otherwise, a UTF-8 byte order mark dropped. Undecodable
 * bytes do not fail the read: they become U+FFFD and the first one is reported.
 *
 * @param text the decoded text
 * @param problem the decoding problem, if any (offset into text, message)
 */
public record DecodedSource(String text, Optional<Problem> problem) {

	/** A decoding problem at an offset of the decoded text. */
	public record Problem(int offset, String message) {
	}

	private static final Pattern CODING = Pattern.compile("^[ \\t\\f]*#.*?coding[:=][ \\t]*([-\\w.]+)");

	public static DecodedSource decode(byte[] bytes) {
		int start = 0;
		boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
				&& (bytes[2] & 0xff) == 0xBF;
		if (bom) {
			start = 3;
		}
		Charset charset = StandardCharsets.UTF_8;
		String declared = declaredEncoding(bytes, start);
		Problem problem = null;
		if (declared != null && !bom) {
			Charset c = charsetFor(declared);
			if (c == null) {
				problem = new Problem(0, "unknown encoding: " + declared);
			} else {
				charset = c;
			}
		}
		ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
		CharsetDecoder strict = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT);
		try {
			return new DecodedSource(strict.decode(in).toString(), Optional.ofNullable(problem));
		} catch (CharacterCodingException e) {
			String text = new String(bytes, start, bytes.length - start, charset);
			if (problem == null) {
				problem = firstBadByte(bytes, start, charset, declared);
			}
			return new DecodedSource(text, Optional.ofNullable(problem));
		}
	}

	private static Problem firstBadByte(byte[] bytes, int start, Charset charset, String declared) {
		CharsetDecoder d = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT);
		ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
		CharBuffer out = CharBuffer.allocate(bytes.length + 1);
		d.decode(in, out, true);
		int bad = in.position();
		int offset = out.position();
		int line = 1;
		for (int i = start; i < bad; i++) {
			if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= bad || bytes[i + 1] != '\n'))) {
				line++;
			}
		}
		String hex = bad < bytes.length ? String.format("\\x%02x", bytes[bad] & 0xff) : "";
		String message = declared == null
				? "Non-UTF-8 code starting with '" + hex + "' on line " + line
						+ ", but no encoding declared; see https://peps.python.org/pep-0263/ for details"
				: "(unicode error) '" + declared + "' codec can't decode byte " + hex.replace("\\x", "0x")
						+ " on line " + line;
		return new Problem(offset, message);
	}

	/** The encoding named by a coding declaration on line 1, or on line 2 after a comment line. */
	static String declaredEncoding(byte[] bytes, int start) {
		int lineStart = start;
		for (int lineNo = 0; lineNo < 2 && lineStart < bytes.length; lineNo++) {
			int end = lineStart;
			while (end < bytes.length && bytes[end] != '\n' && bytes[end] != '\r') {
				end++;
			}
			String line = new String(bytes, lineStart, end - lineStart, StandardCharsets.ISO_8859_1);
			Matcher m = CODING.matcher(line);
			if (m.find()) {
				return m.group(1);
			}
			String trimmed = line.strip();
			if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
				return null;
			}
			lineStart = end;
			if (lineStart < bytes.length && bytes[lineStart] == '\r') {
				lineStart++;
			}
			if (lineStart < bytes.length && bytes[lineStart] == '\n') {
				lineStart++;
			}
		}
		return null;
	}

	static Charset charsetFor(String name) {
		String n = name.toLowerCase(Locale.ROOT).replace('_', '-');
		if (n.startsWith("utf-8") || n.equals("utf8")) {
			return StandardCharsets.UTF_8;
		}
		if (n.equals("latin-1") || n.equals("latin1") || n.startsWith("iso-8859-1-") || n.equals("iso-latin-1")
				|| n.equals("l1")) {
			return StandardCharsets.ISO_8859_1;
		}
		try {
			return Charset.forName(n);
		} catch (RuntimeException e) {
			return null;
		}
	}
}
