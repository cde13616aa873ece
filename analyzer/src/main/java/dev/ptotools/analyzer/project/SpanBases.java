package dev.ptotools.analyzer.project;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the spans of other modules' functions start in one analysis: each imported module read for it gets
 * its own range past the analyzed text's end (and past the other modules'), so that an offset in the
 * compiled program tells the file it comes from, and a finding in an imported kernel is never taken for
 * one at a line of the analyzed file. One per analysis (not thread-safe).
 */
public final class SpanBases {

	private final Map<Path, Integer> bases = new LinkedHashMap<>();
	private long next;

	/** Ranges past a text of {@code analyzedLength} characters. */
	public SpanBases(int analyzedLength) {
		this.next = roundUp(Math.max(2, analyzedLength + 1L));
	}

	/** The offset a module's text starts at (at least 2, the same for a module on each call). */
	public int baseOf(Path module, int length) {
		Integer b = bases.get(module);
		if (b != null) {
			return b;
		}
		if (next + length + 2 > Integer.MAX_VALUE) {
			throw new IllegalStateException("too many imported modules for one analysis");
		}
		int base = (int) next;
		// rounded up so that a module's base stays the same while the analyzed text grows a little (the
		// editor): its padded parse is then reused
		next = roundUp(next + length + 2);
		bases.put(module, base);
		return base;
	}

	/** Whether an offset lies past the analyzed text (in an imported module's range). */
	public boolean imported(int offset) {
		return !bases.isEmpty() && offset >= bases.values().iterator().next();
	}

	private static long roundUp(long n) {
		long block = 1 << 12;
		return (n + block - 1) / block * block;
	}
}
