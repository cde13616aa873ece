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
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
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
		List<String> seeds = seeds();
		for (String seed : seeds) {
			IncrementalParser parser = new IncrementalParser(PythonFrontEnd.get());
			String text = seed;
			String before = seed;
			for (int step = 0; step < STEPS; step++) {
				String next = random.nextInt(10) == 0 ? seed : edit(text, before, random); // or reverted
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
				assertEquals(b.module().toString(), a.module().toString(), where);
				assertEquals(b.diagnostics(), a.diagnostics(), where);
				steps++;
			}
		}
		String counts = seeds.size() + " texts, " + steps + " steps, " + composed + " built from pieces, "
				+ pieceReuses + " pieces reused";
		System.out.println("IncrementalAnalysisTest: " + counts);
		// the comparisons are only worth something if the incremental path is taken
		assertTrue(composed * 4 > steps && pieceReuses > steps * 5, counts);
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
		return seeds;
	}

	/** One edit of the kinds an editor sends. */
	static String edit(String text, String before, Random random) {
		String[] lines = text.split("\n", -1);
		int line = random.nextInt(lines.length);
		int at = offsetOfLine(lines, line);
		switch (random.nextInt(7)) {
			case 0: // a comment line, indented like the line it goes before
				return text.substring(0, at) + indent(lines[line]) + "# note " + random.nextInt(100) + "\n"
						+ text.substring(at);
			case 1: // a line deleted
				return text.substring(0, at) + text.substring(Math.min(text.length(), at + lines[line].length() + 1));
			case 2: { // another line typed a prefix at a time: half-typed most of the time
				String source = lines[random.nextInt(lines.length)];
				int cut = source.isEmpty() ? 0 : random.nextInt(source.length() + 1);
				return text.substring(0, at) + source.substring(0, cut) + "\n" + text.substring(at);
			}
			case 3: { // one character
				int o = random.nextInt(text.length() + 1);
				String c = String.valueOf("x(:)[]=,.\"' \n#1".charAt(random.nextInt(15)));
				return text.substring(0, o) + c + text.substring(o);
			}
			case 4: // undo
				return before;
			case 5: { // a line duplicated (a statement copied)
				return text.substring(0, at) + lines[line] + "\n" + text.substring(at);
			}
			default: { // a character deleted
				if (text.isEmpty()) {
					return text;
				}
				int o = random.nextInt(text.length());
				return text.substring(0, o) + text.substring(o + 1);
			}
		}
	}

	private static int offsetOfLine(String[] lines, int line) {
		int at = 0;
		for (int i = 0; i < line; i++) {
			at += lines[i].length() + 1;
		}
		return at;
	}

	private static String indent(String line) {
		int i = 0;
		while (i < line.length() && line.charAt(i) == ' ') {
			i++;
		}
		return line.substring(0, i);
	}
}
