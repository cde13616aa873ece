package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.compile.Compilation;
import dev.ptotools.config.Compilations;
import dev.ptotools.lsp.AnalyzedDocument;

/**
 * The host_orch.py code one rank loop produces, cut from the same generation that compile writes:
 * the k-th for loop of the HOST orchestrator is the k-th {@code for} of host_orch.py. A grouped loop
 * also comes in its per-rank form (the same program with this loop's grouping turned off), so that a
 * diff shows what grouping changes.
 */
public final class GeneratedCode {

	/**
	 * The loop's title, the per-rank form, and the grouped form (null for a loop that is not grouped).
	 * The title names the loop, not a form: clients name their two views "(per rank)" and "(grouped)".
	 */
	public record Excerpt(String title, String perRank, String grouped) {
	}

	private GeneratedCode() {
	}

	public static Excerpt excerpt(AnalyzedDocument doc, RankLoop loop) {
		Analysis a = doc.analysis();
		CompileOptions options = doc.settings().effectiveCompile(doc.project()).options();
		String name = doc.snapshot().path() == null ? doc.snapshot().uri() : doc.snapshot().path().toString();
		int k = loopIndex(loop);
		String title = loop.program().name() + "." + loop.function().name() + ": rank loop at line "
				+ a.file().lines().line(loop.loop().span().start());
		Generation first = Compiler.generate(a, options, name);
		String folder = folder(a, options, loop);
		String generated = hostOrch(first, folder);
		if (generated == null) {
			// The program does not compile (an error elsewhere in it): show what this loop would
			// produce anyway, marked as a preview, rather than nothing.
			String why = first.problems().stream().map(p -> p.message()).findFirst()
					.orElse("the program produced no host_orch.py");
			a = new Analysis(a.file(), a.module(), a.facts(), a.diagnostics().stream()
					.filter(d -> d.severity() != dev.ptotools.analyzer.diagnostics.Severity.ERROR).toList());
			generated = hostOrch(Compiler.generate(a, options, name), folder);
			if (generated == null) {
				return new Excerpt(title + " (not compiled)", "# not compiled: " + why + "\n", null);
			}
			title += " (preview: the program does not compile yet: " + why + ")";
		}
		String block = block(generated, k);
		if (!loop.grouped()) {
			return new Excerpt(title, block, null);
		}
		Facts perRankFacts = a.facts().copy();
		List<RankLoop> loops = new ArrayList<>();
		for (RankLoop l : a.rankLoops()) {
			loops.add(l == loop ? new RankLoop(l.program(), l.function(), l.loop(), l.loopVar(), l.checks(),
					Condition.FULL_WORLD, l.dispatches(), l.offending(), null) : l);
		}
		perRankFacts.put(Keys.RANK_LOOPS, new RankLoops(List.copyOf(loops)));
		Analysis perRank = new Analysis(a.file(), a.module(), perRankFacts, a.diagnostics());
		String perRankCode = hostOrch(Compiler.generate(perRank, options, name), folder);
		return new Excerpt(title, perRankCode == null ? "" : block(perRankCode, k), block);
	}

	/**
	 * The output folder of the program holding the loop: the folder of the first compiled entry whose
	 * functions include the loop's (a class's name; {@code _jit_<entry>} for a {@code @pl.jit.host}
	 * entry, the first of its specializations), else the class's name.
	 */
	private static String folder(Analysis a, CompileOptions options, RankLoop loop) {
		for (Compilation.CompiledProgram p : Compiler.compilation(a, options).programs()) {
			if (p.entry().source().contains(loop.function())) {
				return p.entry().outputName();
			}
		}
		return loop.program().name();
	}

	private static String hostOrch(Generation g, String folder) {
		GeneratedFile f = g.file(folder + "/orchestration/host_orch.py");
		return f == null ? null : f.content();
	}

	/** The position of the loop among the for loops of its function, in source order. */
	private static int loopIndex(RankLoop loop) {
		int[] index = { -1 };
		int[] count = { 0 };
		Walk.statements(loop.function().body(), s -> {
			if (s instanceof Stmt.For f) {
				if (f == loop.loop()) {
					index[0] = count[0];
				}
				count[0]++;
			}
		});
		return index[0];
	}

	/**
	 * The k-th for loop of the generated code with its body, and the group bookkeeping around it: the
	 * argument lists made just before it and the one group submission just after it.
	 */
	static String block(String code, int k) {
		String[] lines = code.split("\n", -1);
		int seen = -1;
		int at = -1;
		for (int i = 0; i < lines.length; i++) {
			if (lines[i].stripLeading().startsWith("for ") && lines[i].strip().endsWith(":")) {
				seen++;
				if (seen == k) {
					at = i;
					break;
				}
			}
		}
		if (at < 0) {
			return "";
		}
		int indent = indent(lines[at]);
		int start = at;
		while (start > 0 && indent(lines[start - 1]) == indent
				&& lines[start - 1].stripLeading().startsWith("_group_")) {
			start--;
		}
		int end = at + 1;
		while (end < lines.length && (lines[end].isBlank() || indent(lines[end]) > indent)) {
			end++;
		}
		if (end < lines.length && indent(lines[end]) == indent && lines[end].stripLeading().startsWith("_submit_chip_group(")) {
			end++;
		}
		StringBuilder b = new StringBuilder();
		for (int i = start; i < end; i++) {
			b.append(lines[i].length() >= indent ? lines[i].substring(Math.min(indent, lines[i].length() - lines[i].stripLeading().length())) : lines[i]).append('\n');
		}
		return b.toString();
	}

	private static int indent(String line) {
		return line.length() - line.stripLeading().length();
	}
}
