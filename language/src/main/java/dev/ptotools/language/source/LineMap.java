package dev.ptotools.language.source;

import java.util.Arrays;

/**
 * Offsets to 1-based lines and columns and back. Lines end at LF, CRLF or a lone CR, as in both
 * CPython and the LSP specification; columns count UTF-16 code units, as LSP does by default.
 */
public final class LineMap {

	private final int[] starts;
	private final int length;

	private LineMap(int[] starts, int count, int length) {
		this.starts = Arrays.copyOf(starts, count);
		this.length = length;
	}

	public static LineMap of(CharSequence text) {
		int[] starts = new int[Math.max(16, text.length() / 32)];
		int count = 0;
		starts[count++] = 0;
		int n = text.length();
		for (int i = 0; i < n; i++) {
			char c = text.charAt(i);
			if (c == '\n' || c == '\r') {
				if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
					i++;
				}
				if (count == starts.length) {
					starts = Arrays.copyOf(starts, count * 2);
				}
				starts[count++] = i + 1;
			}
		}
		return new LineMap(starts, count, n);
	}

	/** Number of lines; a text ending with a line break has an empty last line. */
	public int lineCount() {
		return starts.length;
	}

	/** 1-based line of an offset (clamped to the text). */
	public int line(int offset) {
		int o = Math.max(0, Math.min(offset, length));
		int i = Arrays.binarySearch(starts, o);
		return i >= 0 ? i + 1 : -i - 1;
	}

	/** 1-based column of an offset. */
	public int column(int offset) {
		int o = Math.max(0, Math.min(offset, length));
		return o - starts[line(o) - 1] + 1;
	}

	/** Offset of the start of a 1-based line (clamped). */
	public int lineStart(int line) {
		int l = Math.max(1, Math.min(line, starts.length));
		return starts[l - 1];
	}

	/** Offset just past the content of a 1-based line, before its line break. */
	public int lineEnd(CharSequence text, int line) {
		int end = line < starts.length ? starts[line] : length;
		while (end > lineStart(line) && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
			end--;
		}
		return end;
	}

	/** Offset of a 1-based line and column, clamped to the line's extent. */
	public int offset(int line, int column) {
		if (line > starts.length) {
			return length;
		}
		int start = lineStart(line);
		int next = line < starts.length ? starts[line] : length;
		return Math.max(start, Math.min(start + column - 1, next));
	}

	public int textLength() {
		return length;
	}
}
