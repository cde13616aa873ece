package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.incremental.Findings;
import dev.ptotools.analyzer.incremental.UnitReanalysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.EditSequences;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;

/**
 * Findings carried from the version before with only the touched classes and defs analyzed again
 * ({@link UnitReanalysis}) equal a whole analysis, step after step, and the cases where one unit's
 * findings stand on another's text are followed. IncrementalAnalysisTest compares the same on its
 * edit sequences, most of whose steps are half-typed; here every step leaves the text valid, which is
 * where the shortcut applies.
 */
class UnitReanalysisTest {

	private static final long SEED = Long.getLong("incremental.seed", 20261206L);
	private static final int STEPS = Integer.getInteger("incremental.steps", 40);

	private static Findings whole(String text) {
		return Findings.of(Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT));
	}

	private static UnitReanalysis.Attempt after(String before, String text) {
		return UnitReanalysis.attempt(whole(before), text, Analyzer.standard(), AnalyzerConfig.DEFAULT, 1.0);
	}

	/** The shortcut taken, and its findings those of a whole analysis. */
	private static Findings assertByUnits(String before, String text) {
		UnitReanalysis.Attempt attempt = after(before, text);
		assertNotNull(attempt.findings(), () -> "refused: " + attempt.refusal());
		Findings expected = whole(text);
		assertEquals(expected.diagnostics(), attempt.findings().diagnostics());
		assertEquals(expected.loops(), attempt.findings().loops());
		return expected;
	}

	@Test
	void validEditSequencesEqualAWholeAnalysis() throws Exception {
		Random random = new Random(SEED);
		int steps = 0;
		int byUnits = 0;
		Map<String, Integer> refusals = new TreeMap<>();
		for (String seed : seeds()) {
			String text = seed;
			String before = seed;
			Findings carried = whole(seed);
			for (int step = 0, tries = 0; step < STEPS && tries < STEPS * 20; tries++) {
				String next = EditSequences.next(seed, text, before, random);
				if (PythonFrontEnd.get().parse(next).hasProblems()) {
					continue; // only valid texts here
				}
				before = text;
				text = next;
				step++;
				steps++;
				UnitReanalysis.Attempt attempt = UnitReanalysis.attempt(carried, text, Analyzer.standard(),
						AnalyzerConfig.DEFAULT, 1.0);
				Findings expected = whole(text);
				if (attempt.findings() != null) {
					String where = "seed " + SEED + ", step " + step + " of\n" + text;
					assertEquals(expected.diagnostics(), attempt.findings().diagnostics(), where);
					assertEquals(expected.loops(), attempt.findings().loops(), where);
					byUnits++;
					carried = attempt.findings(); // carried on from carried findings, as the server does
				} else {
					refusals.merge(attempt.refusal(), 1, Integer::sum);
					carried = expected;
				}
			}
		}
		String counts = steps + " valid steps, " + byUnits + " by units (else " + refusals + ")";
		System.out.println("UnitReanalysisTest: " + counts);
		assertTrue(byUnits * 3 > steps, counts);
	}

	@Test
	void aProgramEditedAddedRemovedOrRenamed() {
		String module = GeneratedPrograms.multiRank(400);
		// a loop's verdict changes inside one program
		String edited = module.replaceFirst("device=0\\)", "device=r)");
		assertByUnits(module, edited);
		// a program added at the end, one removed from the middle
		assertByUnits(module, module + GeneratedPrograms.program(99));
		int second = module.indexOf("@pl.program", module.indexOf("@pl.program") + 1);
		int third = module.indexOf("@pl.program", second + 1);
		assertByUnits(module, module.substring(0, second) + module.substring(third));
		// a rename, and a class another one names
		String named = module + "\n\nclass Uses:\n    target = Program1\n";
		assertByUnits(named, named.replace("class Program1:", "class Program1b:"));
	}

	@Test
	void aCallOfAJitFunctionFollowsItsDefinition() {
		String module = """
				import pypto.language as pl


				@pl.jit
				def add(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				        a = pl.load(x, [0, 0], [64, 64])
				        b = pl.load(y, [0, 0], [64, 64])
				        pl.store(pl.add(a, b), [0, 0], out)
				    return out


				@pl.jit
				def twice(x: pl.Tensor, out: pl.Out[pl.Tensor]):
				    out = add(x, x, out)
				    return out
				""";
		// the callee loses a parameter: the caller's call now has one argument too many
		String edited = module.replace("def add(x: pl.Tensor, y: pl.Tensor,", "def add(x: pl.Tensor,")
				.replace("b = pl.load(y,", "b = pl.load(x,");
		Findings after = assertByUnits(module, edited);
		assertTrue(after.diagnostics().stream().anyMatch(d -> d.rule().equals("PTO402")), after.diagnostics()::toString);
		assertTrue(whole(module).diagnostics().stream().noneMatch(d -> d.rule().equals("PTO402")));
	}

	@Test
	void aJitSampleInAFunctionFollowsTheCall() {
		String module = """
				import pypto.language as pl
				import torch


				@pl.jit
				def scale_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				        t = pl.load(x, [0, 0], [64, 128])
				        pl.store(pl.mul(t, 2.0), [0, 0], out)
				    return out


				def run(rows):
				    x = torch.randn(64, 128)
				    out = torch.empty(64, 128)
				    scale_rows(x, out)
				""";
		String edited = module.replace("torch.randn(64, 128)", "torch.randn(rows, 128)");
		Findings after = assertByUnits(module, edited);
		assertTrue(after.diagnostics().stream().anyMatch(d -> d.rule().equals("PTO410")), after.diagnostics()::toString);
	}

	@Test
	void refusesWhatItCannotShowEqual() {
		String module = GeneratedPrograms.multiRank(300);
		// module-level code: every program reads ROWS
		assertNull(after(module, module.replace("ROWS = 128", "ROWS = 64")).findings());
		// a syntax error
		assertNull(after(module, module.replaceFirst("return result", "return result)")).findings());
		// a unit whose text imports is module-level: imports in any block count for the whole file
		String importing = module + "\n\ndef helper():\n    import pypto.language.distributed as pld\n    return pld\n";
		UnitReanalysis.Attempt attempt = after(importing, importing.replace("return pld\n", "return pld  # changed\n"));
		assertEquals("the edit reaches module-level code", attempt.refusal());
		// module-level code naming the unit edited
		String called = module + "\n\nPROGRAM = Program0\n";
		assertTrue(after(called, called.replaceFirst("device=0\\)", "device=r)")).refusal().contains("Program0"));
	}

	@Test
	void typingAStatementAKeystrokeAtATimeEqualsAWholeAnalysisBrokenOrNot() throws Exception {
		String typed = "y_r = pl.add(x_r, x_r)";
		int steps = 0;
		int broken = 0;
		int brokenByUnits = 0;
		List<String> texts = new ArrayList<>();
		texts.add(GeneratedPrograms.multiRank(400));
		for (Path p : Examples.files()) {
			texts.add(Files.readString(p));
		}
		texts.addAll(EditSequences.corpusSeeds());
		for (String module : texts) {
			// on a new line after a one-line assignment in a function, a third of the way down
			java.util.regex.Matcher m = ASSIGNMENT_LINE.matcher(module);
			if (!m.find(module.length() / 3) && !m.find(0)) {
				continue;
			}
			int at = m.end(2);
			String indent = "\n" + m.group(1);
			Findings carried = whole(module);
			for (int c = 1; c <= typed.length(); c++) {
				String text = module.substring(0, at) + indent + typed.substring(0, c) + module.substring(at);
				Findings expected = whole(text);
				UnitReanalysis.Attempt attempt = UnitReanalysis.attempt(carried, text, Analyzer.standard(),
						AnalyzerConfig.DEFAULT, 1.0);
				steps++;
				broken += expected.carriable() ? 0 : 1;
				if (attempt.findings() != null) {
					String where = typed.substring(0, c) + " typed into\n" + text;
					assertEquals(expected.diagnostics(), attempt.findings().diagnostics(), where);
					assertEquals(expected.loops(), attempt.findings().loops(), where);
					assertEquals(expected.carriable(), attempt.findings().carriable(), where);
					assertEquals(expected.selfCallsNamingNothing(), attempt.findings().selfCallsNamingNothing(), where);
					brokenByUnits += expected.carriable() ? 0 : 1;
				}
				Findings now = attempt.findings() != null ? attempt.findings() : expected;
				if (now.carriable()) {
					carried = now; // the next keystroke starts from the newest version without a syntax error
				}
			}
		}
		String counts = steps + " keystrokes, " + broken + " with a syntax error, " + brokenByUnits + " of those by units";
		System.out.println("UnitReanalysisTest: " + counts);
		assertTrue(broken > steps / 3 && brokenByUnits * 2 > broken, counts);
	}

	/** A line {@code name = call(...)} indented in a block, whole on its line (group 2: the line). */
	private static final java.util.regex.Pattern ASSIGNMENT_LINE = java.util.regex.Pattern
			.compile("(?m)(?<=[\\w)\\]:]\n)^( {8,})([A-Za-z_]\\w* = [\\w.]+\\([^()\\[\\]\\n]*\\))$");

	@Test
	void aSyntaxErrorIsCarriedOnlyWhereItStays() {
		String module = GeneratedPrograms.multiRank(300);
		// inside a program's method: carried, equal to a whole analysis
		String broken = module.replaceFirst("return result", "return result +");
		UnitReanalysis.Attempt inside = after(module, broken);
		assertNotNull(inside.findings(), inside::refusal);
		assertEquals(whole(broken).diagnostics(), inside.findings().diagnostics());
		assertTrue(inside.findings().diagnostics().stream().anyMatch(d -> d.rule().equals("PTO000")));
		// a def without a body: CPython reports it on the next line, in the next program
		int second = module.indexOf("@pl.program", module.indexOf("@pl.program") + 1);
		String bodiless = module.substring(0, second) + "def helper():\n" + module.substring(second);
		assertTrue(after(module, bodiless).refusal().contains("outside the edited"), after(module, bodiless)::refusal);
		// a call self.f naming nothing elsewhere: in a file with a syntax error, damage takes it for a lost method
		String lost = module.replaceFirst("return result\n", "self.missing()\n        return result\n");
		int last = lost.lastIndexOf("return result");
		String brokenLast = lost.substring(0, last) + "return result +" + lost.substring(last + "return result".length());
		assertTrue(after(lost, brokenLast).refusal().contains("self.f"), after(lost, brokenLast)::refusal);
	}

	private static List<String> seeds() throws Exception {
		List<String> seeds = new ArrayList<>();
		for (Path p : Examples.files()) {
			seeds.add(Files.readString(p));
		}
		seeds.add(GeneratedPrograms.multiRank(600));
		seeds.addAll(EditSequences.corpusSeeds());
		return seeds;
	}
}
