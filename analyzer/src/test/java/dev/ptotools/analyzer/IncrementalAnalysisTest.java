package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.incremental.Findings;
import dev.ptotools.analyzer.incremental.UnitReanalysis;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.EditSequences;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.IncrementalParser;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.support.Examples;
import dev.ptotools.language.support.Python3;

/**
 * An edited document analyzed from its incremental parse ({@link IncrementalParser}, as the language
 * server does) gives exactly what a whole parse of the same text gives: the same syntax problems, the
 * same IR (records compare by value, spans included) and the same diagnostics, after every step of
 * seeded edit sequences over the bundled examples, a generated multi-rank module and standard-library
 * files: lines and comments inserted and deleted, statements typed a character at a time (so most
 * steps are half-typed), random characters, undo.
 */
class IncrementalAnalysisTest {

	private static final long SEED = Long.getLong("incremental.seed", 20261206L);
	private static final int STEPS = Integer.getInteger("incremental.steps", 60);

	@Test
	void everyStepEqualsAWholeParse() throws Exception {
		Random random = new Random(SEED);
		int steps = 0;
		int pieceReuses = 0;
		int composed = 0;
		int byUnits = 0;
		int brokenByUnits = 0;
		java.util.Map<String, Integer> refusals = new java.util.TreeMap<>();
		List<String> seeds = seeds();
		for (String seed : seeds) {
			IncrementalParser parser = new IncrementalParser(PythonFrontEnd.get());
			Findings carried = Findings.of(Analyzer.standard().analyze(seed, AnalyzerConfig.DEFAULT));
			String text = seed;
			String before = seed;
			for (int step = 0; step < STEPS; step++) {
				String next = EditSequences.next(seed, text, before, random);
				before = text;
				text = next;
				ParsedFile incremental = parser.parse(text);
				pieceReuses += parser.lastCounts()[0];
				composed += parser.lastCounts()[2];
				ParsedFile whole = PythonFrontEnd.get().parse(text);
				String where = "seed " + SEED + ", step " + step + " of\n" + text;
				assertEquals(whole.problems(), incremental.problems(), where);
				Analysis a = Analyzer.standard().analyze(incremental, AnalyzerConfig.DEFAULT);
				Analysis b = Analyzer.standard().analyze(whole, AnalyzerConfig.DEFAULT);
				// by text: records print every component, spans included (a few IR parts compare by identity)
				assertEquals(String.valueOf(b.module()), String.valueOf(a.module()), where);
				assertEquals(b.diagnostics(), a.diagnostics(), where);
				// the findings carried from the step before, only the touched units analyzed again
				Findings found = Findings.of(b);
				UnitReanalysis.Attempt attempt = UnitReanalysis.attempt(carried, text, Analyzer.standard(),
						AnalyzerConfig.DEFAULT, 1.0);
				Findings units = attempt.findings();
				if (units == null) {
					refusals.merge(attempt.refusal(), 1, Integer::sum);
				}
				if (units != null) {
					assertEquals(found.diagnostics(), units.diagnostics(), where);
					assertEquals(found.loops(), units.loops(), where);
					assertEquals(found.carriable(), units.carriable(), where);
					byUnits++;
					brokenByUnits += units.carriable() ? 0 : 1;
				}
				Findings now = units != null ? units : found;
				if (now.carriable()) {
					carried = now; // as the server: the next edit starts from the newest version without a syntax error
				}
				steps++;
			}
		}
		String counts = seeds.size() + " texts, " + steps + " steps, " + composed + " built from pieces, "
				+ pieceReuses + " pieces reused, " + byUnits + " analyzed by units (" + brokenByUnits
				+ " with a syntax error; else " + refusals + ")";
		System.out.println("IncrementalAnalysisTest: " + counts);
		// the comparisons are only worth something if the incremental path is taken
		assertTrue(composed * 3 > steps && pieceReuses > steps * 3 && byUnits * 10 > steps, counts);
	}

	private static List<String> seeds() throws Exception {
		List<String> seeds = new ArrayList<>();
		for (Path p : Examples.files()) {
			seeds.add(Files.readString(p));
		}
		seeds.add(GeneratedPrograms.multiRank(200));
		Path stdlib = Python3.stdlib().orElse(null);
		if (stdlib != null) {
			List<Path> files = CorpusScan.pythonFiles(stdlib);
			for (int i = 0, taken = 0; i < files.size() && taken < 4; i += 211) {
				byte[] b = Files.readAllBytes(files.get(i));
				if (b.length < 30_000) {
					seeds.add("import pypto.language as pl\n" + new String(b, StandardCharsets.UTF_8));
					taken++;
				}
			}
		}
		seeds.addAll(EditSequences.corpusSeeds());
		return seeds;
	}
}
