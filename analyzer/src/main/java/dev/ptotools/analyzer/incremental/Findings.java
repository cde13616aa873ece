package dev.ptotools.analyzer.incremental;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.ir.Span;

/**
 * What the analyzer found in one version of a module, by place: its diagnostics (in source order) and
 * where its rank loops are and whether each is grouped. What an editor shows, and what
 * {@link UnitReanalysis} carries to the next version for the statements an edit did not touch.
 *
 * @param text        the version's text
 * @param diagnostics {@link Analyzer#standard()}'s findings, in its order (the compile's own are not
 *                    here: they come with the compile step)
 * @param loops       every rank loop by the start of its {@code for}, in source order
 * @param carriable   whether the next version may reuse these findings by place: the text had no
 *                    syntax error (whose recovery and damage reach across statements) and no finding
 *                    without a place (an internal error)
 * @param units       the text cut into statements, when a re-analysis made it already (the next one
 *                    needs it and need not cut the text again); null when not made yet
 * @param selfCallsNamingNothing where a call {@code self.f} names no function of its program (the call's
 *                    start), in source order: in a file with a syntax error anywhere, {@code ParseDamage}
 *                    takes each for a method the break took away, in every program, so findings there
 *                    are not carried into a broken version
 */
public record Findings(String text, List<Diagnostic> diagnostics, List<Loop> loops, boolean carriable,
		ModuleUnits units, List<Integer> selfCallsNamingNothing) {

	/** A rank loop's place and verdict. */
	public record Loop(int start, boolean grouped) {
	}

	/** The findings of an analysis of {@code Analyzer.standard()}'s passes, with or without the compile's. */
	public static Findings of(Analysis analysis) {
		List<Diagnostic> own = new ArrayList<>(analysis.diagnostics().size());
		boolean carriable = !analysis.file().hasProblems();
		for (Diagnostic d : analysis.diagnostics()) {
			if (Analyzer.isCompileRule(d.rule())) {
				continue; // the compile step's; Analyzer.standard() does not run it
			}
			carriable &= placed(d);
			own.add(d);
		}
		List<Loop> loops = new ArrayList<>();
		for (RankLoop l : analysis.rankLoops()) {
			loops.add(new Loop(l.loop().span().start(), l.grouped()));
		}
		loops.sort(java.util.Comparator.comparingInt(Loop::start));
		return new Findings(analysis.file().text(), List.copyOf(own), List.copyOf(loops), carriable, null,
				selfCallsNamingNothing(analysis));
	}

	/** The starts of the calls {@code self.f} that name no function of their program, in source order. */
	static List<Integer> selfCallsNamingNothing(Analysis analysis) {
		if (!analysis.facts().has(Keys.CALLS)) {
			return List.of();
		}
		CallResolution calls = analysis.facts().get(Keys.CALLS);
		List<Integer> out = new ArrayList<>();
		for (Program p : analysis.module().programs()) {
			for (Function f : p.functions()) {
				for (Expr.Call c : calls.callsIn(f)) {
					if (calls.of(c) instanceof Callee.UnknownFunction u && u.viaSelf()) {
						out.add(c.span().start());
					}
				}
			}
		}
		out.sort(null);
		return List.copyOf(out);
	}

	/** Whether a finding has a place of its own (an internal error or a finding without a span has none). */
	static boolean placed(Diagnostic d) {
		return !d.rule().equals(Analyzer.INTERNAL_ERROR) && d.span() != Span.NONE;
	}

	public long grouped() {
		return loops.stream().filter(Loop::grouped).count();
	}
}
