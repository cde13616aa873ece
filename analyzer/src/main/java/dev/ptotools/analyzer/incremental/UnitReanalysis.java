package dev.ptotools.analyzer.incremental;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * The findings of an edited module from the findings of the version before, re-analyzing only the
 * top-level classes and defs the edit touched and those connected to them, so that the cost follows
 * the edit, not the module.
 *
 * <p>Needs: the previous version's {@link Findings} (carriable) and the new text. Produces: the new
 * version's {@link Findings}, equal to {@code Findings.of(analyzer.analyze(text))}, or the reason that
 * cannot be shown (then the caller analyzes the whole text).
 *
 * <p>Why it is exact. Both texts are cut into top-level statements ({@link ModuleUnits}); the edit
 * changes a run of them, which must all be units (a class or def) in both versions. The re-analyzed
 * set is the changed units closed under naming, both ways: a unit whose name a re-analyzed unit's text
 * holds (old text or new) and a unit whose text holds a re-analyzed unit's name (old or new) join it,
 * and so does any unit binding the same name. What a unit outside the set means then depends on
 * nothing that changed: context (never changed here: imports, constants, module calls) is the same,
 * and no unit it names or that names it changed. If a context statement names a re-analyzed unit the
 * answer is a refusal, since findings at module level (a builder's call, a jit sample) could change.
 * The new text is analyzed with every unit outside the set reduced to its line breaks ({@link
 * ModulePart}: lines stay, offsets map back), and its findings inside the set are taken; the findings everywhere else are the previous version's,
 * moved by the edit's length.
 *
 * <p>The version before has no syntax error (the caller passes the newest one without). The new one
 * may have, when it stays in the one class or def edited: the part then keeps the statements next to
 * it, and its parse must show every problem and every node the recovery marked inside that piece and
 * the neighbours as parsed alone ({@link ModulePart#breakStaysIn}); what the damage breaks
 * ({@code ParseDamage}) is then inside the piece, in calls of its functions (units naming it, in the
 * set), or at a call {@code self.f} naming nothing anywhere, which refuses unless in the set.
 * Everywhere else the damage is the same as none, and the findings carried stand.
 */
public final class UnitReanalysis {

	private UnitReanalysis() {
	}

	/** The new version's findings, or why only a whole analysis can give them. */
	public record Attempt(Findings findings, String refusal) {

		static Attempt refused(String why) {
			return new Attempt(null, why);
		}
	}

	/**
	 * The new version's findings, or why only a whole analysis can give them; also refused when the part
	 * to analyze again would be more than {@code maxShare} of the text (then a whole analysis costs about
	 * the same and gives every fact, not only the findings).
	 */
	public static Attempt attempt(Findings before, String text, Analyzer analyzer, AnalyzerConfig config,
			double maxShare) {
		if (!before.carriable()) {
			return Attempt.refused("the version before had a syntax error or an internal error");
		}
		if (before.text().equals(text)) {
			return new Attempt(before, null);
		}
		ModuleUnits old = before.units() != null ? before.units() : ModuleUnits.of(before.text());
		ModuleUnits now = ModuleUnits.of(text);
		if (old == null || now == null) {
			return Attempt.refused("a bracket or string open at the end");
		}
		Edit edit = Edit.between(old, now);
		Object plan = reanalyzed(old, now, edit);
		if (plan instanceof String why) {
			return Attempt.refused(why);
		}
		BitSet again = (BitSet) plan;
		ModulePart part = ModulePart.of(now, again);
		if (part.length() > maxShare * text.length()) {
			return Attempt.refused("most of the module would be analyzed again");
		}
		// A statement being typed breaks the one unit edited most of the time: when that unit does not parse
		// alone, the part is made with its neighbours at once instead of being parsed without them first.
		ParsedFile parsed = breaksAlone(now, edit) ? null : part.parse();
		boolean broken = parsed == null || parsed.hasProblems();
		// where calls self.f naming nothing stand outside the part: a syntax error anywhere breaks them
		List<Integer> carriedSelfCalls = carried(before.selfCallsNamingNothing(), edit, now, again);
		if (broken) {
			Object beside = brokenPart(now, edit, again, carriedSelfCalls, maxShare);
			if (beside instanceof String why) {
				return Attempt.refused(why);
			}
			part = (ModulePart) beside;
			parsed = part.parse();
			if (!parsed.hasProblems()) {
				return Attempt.refused("the edited class or def parses alone otherwise than in place");
			}
			String why = part.breakStaysIn(parsed, now, edit.first, neighbours(now, edit.first));
			if (why != null) {
				return Attempt.refused(why);
			}
		}
		ModulePart.Found found = part.analyze(parsed, analyzer, config);
		if (found == null) {
			return Attempt.refused("the part analyzed has an internal error");
		}
		// the part's findings in the re-analyzed units; the previous version's everywhere else
		List<Diagnostic> fresh = new ArrayList<>();
		for (Diagnostic d : found.diagnostics()) {
			if (Analyzer.isCompileRule(d.rule()) || !again.get(now.pieceAt(d.span().start()))) {
				continue;
			}
			fresh.add(d);
		}
		List<Diagnostic> carried = new ArrayList<>();
		for (Diagnostic d : before.diagnostics()) {
			if (edit.changedOld(d.span().start())) {
				continue;
			}
			Diagnostic moved = edit.move(d);
			if (moved == null) {
				return Attempt.refused("a finding points into the change"); // it leant on what changed after all
			}
			if (!again.get(now.pieceAt(moved.span().start()))) {
				carried.add(moved);
			}
		}
		List<Findings.Loop> loops = new ArrayList<>();
		for (Findings.Loop l : before.loops()) {
			int at = edit.carried(l.start(), now, again);
			if (at >= 0) {
				loops.add(new Findings.Loop(at, l.grouped()));
			}
		}
		for (Findings.Loop l : found.loops()) {
			if (again.get(now.pieceAt(l.start()))) {
				loops.add(l);
			}
		}
		loops.sort(java.util.Comparator.comparingInt(Findings.Loop::start));
		List<Integer> selfCalls = new ArrayList<>(carriedSelfCalls);
		for (int at : found.selfCallsNamingNothing()) {
			if (again.get(now.pieceAt(at))) {
				selfCalls.add(at);
			}
		}
		selfCalls.sort(null);
		return new Attempt(new Findings(text, merge(carried, fresh), List.copyOf(loops), !broken, now,
				List.copyOf(selfCalls)), null);
	}

	/**
	 * For a new version with a syntax error: the part to analyze with the statements next to the edit
	 * kept too (the parser's recovery reaches them: see {@link ModulePart#breakStaysIn}), or why the
	 * findings cannot be carried. Only an edit of one class or def qualifies, and only when no call
	 * {@code self.f} naming nothing stands outside the part analyzed again: in a file with a syntax error,
	 * {@code ParseDamage} takes every such call for a method the break took away.
	 */
	private static Object brokenPart(ModuleUnits now, Edit edit, BitSet again, List<Integer> carriedSelfCalls,
			double maxShare) {
		if (edit.newEnd - edit.first != 1) {
			return "a syntax error in an edit of more than one class or def";
		}
		if (!carriedSelfCalls.isEmpty()) {
			return "a call self.f naming nothing outside the edit, which a syntax error anywhere breaks";
		}
		BitSet kept = (BitSet) again.clone();
		neighbours(now, edit.first).forEach(kept::set);
		ModulePart part = ModulePart.of(now, kept);
		if (part.length() > maxShare * now.text().length()) {
			return "most of the module would be analyzed again";
		}
		return part;
	}

	/** Whether the edit is of one piece, which has a syntax problem when parsed alone. */
	private static boolean breaksAlone(ModuleUnits now, Edit edit) {
		if (edit.newEnd - edit.first != 1) {
			return false;
		}
		ModuleUnits.Piece p = now.pieces().get(edit.first);
		return PythonFrontEnd.get().parse(now.text().substring(p.start(), p.end())).hasProblems();
	}

	/** The pieces next to piece k. */
	private static List<Integer> neighbours(ModuleUnits units, int k) {
		List<Integer> out = new ArrayList<>(2);
		for (int j = k - 1; j <= k + 1; j += 2) {
			if (j >= 0 && j < units.pieces().size()) {
				out.add(j);
			}
		}
		return out;
	}

	/** Old offsets outside the change and outside the part analyzed again, moved to the new text. */
	private static List<Integer> carried(List<Integer> offsets, Edit edit, ModuleUnits now, BitSet again) {
		List<Integer> out = new ArrayList<>();
		for (int at : offsets) {
			int moved = edit.carried(at, now, again);
			if (moved >= 0) {
				out.add(moved);
			}
		}
		return out;
	}

	/**
	 * The two lists in source order. Each is in the analyzer's order (by start, then rule, then as
	 * found); findings at one offset lie in one statement and so come from one list, which keeps their
	 * order.
	 */
	private static List<Diagnostic> merge(List<Diagnostic> a, List<Diagnostic> b) {
		List<Diagnostic> out = new ArrayList<>(a.size() + b.size());
		int i = 0;
		int j = 0;
		while (i < a.size() || j < b.size()) {
			if (j >= b.size() || (i < a.size() && a.get(i).span().start() <= b.get(j).span().start())) {
				out.add(a.get(i++));
			} else {
				out.add(b.get(j++));
			}
		}
		return List.copyOf(out);
	}

	/**
	 * The units of the new text to analyze again (a BitSet of piece indexes), or why not (a String) when
	 * the edit reaches context or a context statement names what it changed.
	 */
	private static Object reanalyzed(ModuleUnits old, ModuleUnits now, Edit edit) {
		BitSet again = new BitSet(now.pieces().size());
		Set<String> names = new HashSet<>();
		Set<String> words = new HashSet<>();
		for (int i = edit.first; i < edit.oldEnd; i++) {
			if (!old.pieces().get(i).isUnit()) {
				return "the edit reaches module-level code";
			}
			names.add(old.pieces().get(i).bound());
			words.addAll(old.words(i));
		}
		Deque<Integer> todo = new ArrayDeque<>();
		for (int i = edit.first; i < edit.newEnd; i++) {
			if (!now.pieces().get(i).isUnit()) {
				return "the edit reaches module-level code";
			}
			again.set(i);
			todo.add(i);
		}
		// what the old text of the changed units named: their meaning may have leant on those units
		for (String w : words) {
			for (int u : now.unitsBinding(w)) {
				if (!again.get(u)) {
					again.set(u);
					todo.add(u);
				}
			}
		}
		Set<String> searched = new HashSet<>();
		Deque<String> namesTodo = new ArrayDeque<>(names);
		while (!todo.isEmpty() || !namesTodo.isEmpty()) {
			while (!todo.isEmpty()) {
				int u = todo.poll();
				namesTodo.add(now.pieces().get(u).bound());
				for (String w : now.words(u)) {
					for (int v : now.unitsBinding(w)) {
						if (!again.get(v)) {
							again.set(v);
							todo.add(v);
						}
					}
				}
			}
			while (!namesTodo.isEmpty()) {
				String name = namesTodo.poll();
				if (!searched.add(name)) {
					continue;
				}
				for (int p : now.piecesMentioning(name)) {
					if (!now.pieces().get(p).isUnit()) {
						return "module-level code names " + name; // its findings could change
					}
					if (!again.get(p)) {
						again.set(p);
						todo.add(p);
					}
				}
				for (int v : now.unitsBinding(name)) {
					if (!again.get(v)) {
						again.set(v);
						todo.add(v);
					}
				}
			}
		}
		return again;
	}

	/**
	 * Where two versions differ, in whole top-level statements: pieces before {@code first} are the
	 * same text at the same place; old pieces from {@code oldEnd} and new ones from {@code newEnd} are
	 * the same text moved by {@code delta}.
	 */
	private record Edit(ModuleUnits old, ModuleUnits now, int first, int oldEnd, int newEnd, int oldChangedStart,
			int oldChangedEnd, int delta) {

		static Edit between(ModuleUnits old, ModuleUnits now) {
			int n = old.pieces().size();
			int m = now.pieces().size();
			int first = 0;
			while (first < n && first < m && old.pieces().get(first).start() == now.pieces().get(first).start()
					&& old.sameText(first, now, first)) {
				first++;
			}
			int same = 0;
			while (same < n - first && same < m - first && old.sameText(n - 1 - same, now, m - 1 - same)) {
				same++;
			}
			int oldEnd = n - same;
			int newEnd = m - same;
			int oldChangedStart = first < n ? old.pieces().get(first).start() : old.text().length();
			int oldChangedEnd = oldEnd < n ? old.pieces().get(oldEnd).start() : old.text().length();
			int newChangedEnd = newEnd < m ? now.pieces().get(newEnd).start() : now.text().length();
			return new Edit(old, now, first, oldEnd, newEnd, oldChangedStart, oldChangedEnd,
					newChangedEnd - oldChangedEnd);
		}

		/** Whether an old offset lies in the changed statements. */
		boolean changedOld(int offset) {
			return offset >= oldChangedStart && offset < oldChangedEnd;
		}

		/** An old offset outside the change in the new text (one at a pure insertion moves with what follows). */
		int move(int offset) {
			return offset >= oldChangedEnd ? offset + delta : offset;
		}

		/**
		 * An old offset in the new text when what stands there is carried: outside the change and outside
		 * the units analyzed again ({@code again}); else -1.
		 */
		int carried(int offset, ModuleUnits now, BitSet again) {
			if (changedOld(offset)) {
				return -1;
			}
			int at = move(offset);
			return again.get(now.pieceAt(at)) ? -1 : at;
		}

		/** An old span in the new text; null when it reaches into the change. */
		Span move(Span s) {
			if (s == Span.NONE) {
				return s;
			}
			if (s.start() >= oldChangedEnd) {
				return delta == 0 ? s : new Span(s.start() + delta, s.end() + delta);
			}
			return s.end() <= oldChangedStart ? s : null;
		}

		/** A finding of the old text in the new one; null when any of its places lies in the change. */
		Diagnostic move(Diagnostic d) {
			return delta == 0 && oldChangedStart == oldChangedEnd ? d : d.withPlaces(this::move);
		}
	}
}
