package dev.ptotools.analyzer.ir;

/** A half-open range [start, end) of the source text, in UTF-16 units. */
public record Span(int start, int end) {

	public static final Span NONE = new Span(0, 0);

	public Span {
		if (end < start) {
			end = start;
		}
	}

	public int length() {
		return end - start;
	}

	public boolean contains(int offset) {
		return offset >= start && offset <= end;
	}

	public boolean contains(Span other) {
		return other.start >= start && other.end <= end;
	}

	public Span to(Span other) {
		return new Span(Math.min(start, other.start), Math.max(end, other.end));
	}
}
