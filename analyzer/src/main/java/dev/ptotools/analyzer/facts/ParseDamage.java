package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.ir.Span;

/**
 * Where a file's syntax errors broke its programs, so that findings standing on broken code are not
 * reported, as pyright and rust-analyzer leave out the follow-on diagnostics of a syntax error. The parser
 * recovers and the analysis runs on what it made; these are the places that recovery made up.
 *
 * <p>{@code broken}: what the parser had to repair: the statement holding a syntax error (a compound statement
 *            whole when the error is in its header), what its error recovery left in a statement list, a
 *            function whole when its header is broken (and every call of it), a program whole when its
 *            class header is; in source order
 * {@code brokenReads}: later reads of a name that a broken assignment binds to what the parser made up
 * {@code brokenFunctions}: the DSL functions holding something broken
 * {@code loops}: every rank loop, with whether it holds something broken
 */
public final class ParseDamage {

	private final List<Span> broken;
	private final List<Span> brokenReads;
	private final List<Span> brokenFunctions;
	private final List<Loop> loops;
	/** Made on first use: {@link #onBrokenLoop} asks for every finding, and a scan per finding was quadratic. */
	private volatile LoopIndex index;

	public ParseDamage(List<Span> broken, List<Span> brokenReads, List<Span> brokenFunctions, List<Loop> loops) {
		this.broken = List.copyOf(broken);
		this.brokenReads = List.copyOf(brokenReads);
		this.brokenFunctions = List.copyOf(brokenFunctions);
		this.loops = List.copyOf(loops);
	}

	public List<Span> broken() {
		return broken;
	}

	public List<Span> brokenReads() {
		return brokenReads;
	}

	public List<Span> brokenFunctions() {
		return brokenFunctions;
	}

	public List<Loop> loops() {
		return loops;
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof ParseDamage d && broken.equals(d.broken) && brokenReads.equals(d.brokenReads)
				&& brokenFunctions.equals(d.brokenFunctions) && loops.equals(d.loops);
	}

	@Override
	public int hashCode() {
		return java.util.Objects.hash(broken, brokenReads, brokenFunctions, loops);
	}

	@Override
	public String toString() {
		return "ParseDamage[broken=" + broken + ", brokenReads=" + brokenReads + ", brokenFunctions=" + brokenFunctions
				+ ", loops=" + loops + "]";
	}

	/** A rank loop: its span, its header, and whether anything in it is broken. */
	public record Loop(Span span, Span header, boolean broken) {
	}

	public static final ParseDamage NONE = new ParseDamage(List.of(), List.of(), List.of(), List.of());

	public boolean isEmpty() {
		return broken.isEmpty();
	}

	/** Whether a span meets something broken, or reads a name a broken statement bound. */
	public boolean breaks(Span span) {
		return meets(broken, span) || meets(brokenReads, span);
	}

	/** Whether the function around a span holds something broken. */
	public boolean inBrokenFunction(Span span) {
		return brokenFunctions.stream().anyMatch(f -> f.contains(span));
	}

	/**
	 * Whether a verdict is on a broken rank loop: the innermost rank loop holding the finding, or the one
	 * its related locations name by its header. A loop is broken when it holds something broken or its
	 * header reads a name a broken statement bound; a read in its body breaks the statement there, not the
	 * verdict (two dispatches stay two whatever their arguments hold).
	 */
	public boolean onBrokenLoop(Diagnostic d) {
		if (loops.isEmpty()) {
			return false;
		}
		LoopIndex index = loopIndex();
		int named = -1; // the first loop (in order) whose header a related location names
		for (Diagnostic.Related r : d.related()) {
			Integer i = index.byHeader.get(r.span());
			if (i != null && (named < 0 || i < named)) {
				named = i;
			}
		}
		if (named >= 0) {
			return loops.get(named).broken();
		}
		// The innermost loop holding the finding lies inside every loop holding it: when a broken one holds
		// it, the innermost is that one or a loop within it, so only those few are looked at.
		Loop innermost = null;
		for (int b : index.broken) {
			Loop l = loops.get(b);
			if (l.span().contains(d.span()) && (innermost == null || innermost.span().contains(l.span()))) {
				innermost = l;
			}
		}
		if (innermost == null) {
			return false;
		}
		for (Loop l : index.within(innermost.span())) {
			if (l.span().contains(d.span()) && innermost.span().contains(l.span())) {
				innermost = l;
			}
		}
		return innermost.broken();
	}

	/** The loops by header, the broken ones, and the loops by start: built once per damage. */
	private LoopIndex loopIndex() {
		LoopIndex i = index;
		if (i == null) {
			i = new LoopIndex(loops);
			index = i;
		}
		return i;
	}

	private static final class LoopIndex {
		final java.util.Map<Span, Integer> byHeader = new java.util.HashMap<>();
		final List<Integer> broken = new java.util.ArrayList<>();
		final List<Loop> byStart;

		LoopIndex(List<Loop> loops) {
			for (int i = 0; i < loops.size(); i++) {
				byHeader.putIfAbsent(loops.get(i).header(), i);
				if (loops.get(i).broken()) {
					broken.add(i);
				}
			}
			byStart = new java.util.ArrayList<>(loops);
			byStart.sort(java.util.Comparator.comparingInt((Loop l) -> l.span().start()));
		}

		/** The loops starting inside a span, in order of start. */
		List<Loop> within(Span span) {
			int lo = 0;
			int hi = byStart.size();
			while (lo < hi) {
				int mid = (lo + hi) >>> 1;
				if (byStart.get(mid).span().start() < span.start()) {
					lo = mid + 1;
				} else {
					hi = mid;
				}
			}
			int end = lo;
			while (end < byStart.size() && byStart.get(end).span().start() < span.end()) {
				end++;
			}
			return byStart.subList(lo, end);
		}
	}

	private static boolean meets(List<Span> spans, Span s) {
		for (Span b : spans) {
			if (overlap(b, s) || overlap(s, b)) {
				return true;
			}
		}
		return false;
	}

	/** Whether b shares a character with a, or an empty b lies inside a or at its end. */
	private static boolean overlap(Span a, Span b) {
		return b.start() < a.end() && a.start() < b.end() || b.start() == b.end() && a.start() <= b.start()
				&& b.start() <= a.end();
	}
}
