package dev.ptotools.analyzer.incremental;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * A module with some of its units left out, to be analyzed on its own: the kept pieces' text as it
 * is, each left-out unit before the last kept piece reduced to its line breaks (those after it go).
 * Lines therefore stay where they are (messages and suppression comments name lines), while the text
 * the parser reads is only what is kept: a unit blanked to spaces instead would cost about as much to
 * lex as to parse. Offsets map back to the module's piece by piece.
 */
final class ModulePart {

	private final String text;
	/** Per kept piece, in order: where it starts in the part, where in the module, and its length. */
	private final int[] partStarts;
	private final int[] moduleStarts;
	private final int[] lengths;

	private ModulePart(String text, int[] partStarts, int[] moduleStarts, int[] lengths) {
		this.text = text;
		this.partStarts = partStarts;
		this.moduleStarts = moduleStarts;
		this.lengths = lengths;
	}

	/** The module with the units not in {@code kept} left out (context is always kept). */
	static ModulePart of(ModuleUnits units, BitSet kept) {
		String module = units.text();
		StringBuilder b = new StringBuilder();
		int n = units.pieces().size();
		int[] partStarts = new int[n];
		int[] moduleStarts = new int[n];
		int[] lengths = new int[n];
		int count = 0;
		// nothing after the last kept piece: its lines need no line breaks to stand on (on 20,000 lines, a
		// parse of the line breaks after an edit a third of the way down cost more than the part itself)
		int last = n - 1;
		while (last > 0 && !kept.get(last) && units.pieces().get(last).isUnit()) {
			last--;
		}
		for (int i = 0; i <= last; i++) {
			ModuleUnits.Piece p = units.pieces().get(i);
			if (kept.get(i) || !p.isUnit()) {
				partStarts[count] = b.length();
				moduleStarts[count] = p.start();
				lengths[count] = p.end() - p.start();
				count++;
				b.append(module, p.start(), p.end());
			} else {
				for (int k = p.start(); k < p.end(); k++) {
					char c = module.charAt(k);
					if (c == '\n' || c == '\r') {
						b.append(c);
					}
				}
			}
		}
		return new ModulePart(b.toString(), java.util.Arrays.copyOf(partStarts, count),
				java.util.Arrays.copyOf(moduleStarts, count), java.util.Arrays.copyOf(lengths, count));
	}

	/** The part's length: what a parse of it reads. */
	int length() {
		return text.length();
	}

	/**
	 * The part's findings, rank loops and calls {@code self.f} naming nothing, at module offsets, in the
	 * analyzer's order.
	 */
	record Found(List<Diagnostic> diagnostics, List<Findings.Loop> loops, List<Integer> selfCallsNamingNothing) {
	}

	/** The part parsed. */
	ParsedFile parse() {
		return PythonFrontEnd.get().parse(text);
	}

	/**
	 * What an analysis of the part (parsed by {@link #parse}) finds; null when it has a finding without a
	 * place, or a place that is not in a kept piece.
	 */
	Found analyze(ParsedFile parsed, Analyzer analyzer, AnalyzerConfig config) {
		Analysis analysis = analyzer.analyze(parsed, config);
		List<Diagnostic> diagnostics = new ArrayList<>(analysis.diagnostics().size());
		for (Diagnostic d : analysis.diagnostics()) {
			Diagnostic mapped = Findings.placed(d) ? d.withPlaces(this::toModule) : null;
			if (mapped == null) {
				return null;
			}
			diagnostics.add(mapped);
		}
		List<Findings.Loop> loops = new ArrayList<>();
		for (RankLoop l : analysis.rankLoops()) {
			int at = toModule(l.loop().span().start());
			if (at < 0) {
				return null;
			}
			loops.add(new Findings.Loop(at, l.grouped()));
		}
		List<Integer> selfCalls = new ArrayList<>();
		for (int at : Findings.selfCallsNamingNothing(analysis)) {
			selfCalls.add(toModule(at));
		}
		return new Found(diagnostics, loops, selfCalls);
	}

	/**
	 * Why a parse of the part, which has syntax problems, may not be what a parse of the module makes of
	 * the piece {@code broken} of {@code units}; null when it is. It is when every
	 * problem and every node the parser's recovery marked lies in that piece, and the kept pieces just
	 * before and after it ({@code neighbours}, which must be kept) come out as parsed alone: then the
	 * parser met the piece after in its top-level loop, as in the module, and the rest of the module
	 * (clean statements, each parsing alone as in place) cannot differ ({@code IncrementalParser} rests on
	 * the same argument). A text too deep to parse has its one problem at offset 0, in the module's head,
	 * and is refused here.
	 */
	String breakStaysIn(ParsedFile parsed, ModuleUnits units, int broken, List<Integer> neighbours) {
		int start = units.pieces().get(broken).start();
		int end = units.pieces().get(broken).end();
		for (dev.ptotools.language.SyntaxProblem p : parsed.problems()) {
			int at = toModule(p.offset());
			if (at < start || at + p.length() > end || at == end) {
				return "a syntax problem outside the edited class or def";
			}
		}
		for (int node : parsed.syntaxErrorNodeOffsets()) {
			int at = toModule(node);
			if (at < start || at >= end) {
				return "the parser's recovery reaches outside the edited class or def";
			}
		}
		for (int n : neighbours) {
			ModuleUnits.Piece piece = units.pieces().get(n);
			ParsedFile alone = PythonFrontEnd.get().parse(units.text().substring(piece.start(), piece.end()));
			List<String> expected = statements(alone, at -> piece.start() + at, piece);
			List<String> found = statements(parsed, this::toModule, piece);
			if (alone.hasProblems() || !expected.equals(found)) {
				return "the statement next to the edit parses differently beside it";
			}
		}
		return null;
	}

	/**
	 * The top-level statements of a parse that start in a piece of the module (offsets {@code toModule}),
	 * as kind, start and length.
	 */
	private static List<String> statements(ParsedFile parsed, java.util.function.IntUnaryOperator toModule,
			ModuleUnits.Piece piece) {
		List<String> out = new ArrayList<>();
		for (dev.ptotools.language.python.Statement st : parsed.ast().getBody()) {
			dev.ptotools.language.Spans.Span sp = parsed.spans().of(st);
			int at = sp == null ? -1 : toModule.applyAsInt(sp.offset());
			if (at >= piece.start() && at < piece.end()) {
				out.add(st.eClass().getName() + "@" + at + "+" + sp.length());
			}
		}
		return out;
	}

	/** A part offset in the module; -1 in the line breaks of a left-out unit. */
	private int toModule(int offset) {
		int piece = ModuleUnits.floor(partStarts, offset);
		int into = offset - partStarts[piece];
		return into >= 0 && into <= lengths[piece] ? moduleStarts[piece] + into : -1;
	}

	private Span toModule(Span s) {
		int start = toModule(s.start());
		int end = toModule(s.end());
		// both ends in one kept piece (or its end)
		return start < 0 || end < 0 || end - start != s.end() - s.start() ? null : new Span(start, end);
	}
}
