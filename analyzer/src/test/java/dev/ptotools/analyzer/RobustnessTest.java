package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.support.Examples;
import dev.ptotools.language.support.Python3;

/** Analysis never throws and never fails internally, on half-typed programs or on any Python. */
class RobustnessTest {

	private static void assertNoInternalError(String source, String what) {
		Analysis a;
		try {
			a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
		} catch (RuntimeException e) {
			throw new AssertionError("analysis threw on " + what, e);
		}
		for (Diagnostic d : a.diagnostics()) {
			assertTrue(!d.rule().equals(Analyzer.INTERNAL_ERROR), what + ": " + d.message());
		}
	}

	private static List<String> sources() throws Exception {
		List<String> out = new ArrayList<>();
		for (Path p : Examples.files()) {
			out.add(Files.readString(p));
		}
		out.add(GeneratedPrograms.multiRank(120));
		return out;
	}

	@Test
	void proseLeftByADeletedDocstringQuoteIsSyntaxErrorsNotAnInternalError() {
		// "This is / the idiom": error recovery makes a comparison without its operator
		String source = "import pypto.language as pl\n\ndef f():\n    This is\n    the idiom used here\n    return 1\n";
		assertNoInternalError(source, "prose in a body");
		Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
		assertTrue(a.module() != null, "lowered");
		assertTrue(a.diagnostics().stream().anyMatch(d -> d.rule().equals("PTO000")), a.diagnostics().toString());
	}

	@Test
	void everyPrefixOfTheExamplesIsAnalyzed() throws Exception {
		int cases = 0;
		for (String s : sources()) {
			for (int cut = 0; cut < s.length(); cut += 5) {
				assertNoInternalError(s.substring(0, cut), "prefix of " + cut + " chars");
				cases++;
			}
		}
		assertTrue(cases > 500);
	}

	@Test
	void everyLineDeletedAndEveryLineDuplicated() throws Exception {
		for (String s : sources()) {
			String[] lines = s.split("\n", -1);
			for (int i = 0; i < lines.length; i++) {
				StringBuilder deleted = new StringBuilder();
				StringBuilder doubled = new StringBuilder();
				for (int j = 0; j < lines.length; j++) {
					if (j != i) {
						deleted.append(lines[j]).append('\n');
					}
					doubled.append(lines[j]).append('\n');
					if (j == i) {
						doubled.append(lines[j]).append('\n');
					}
				}
				assertNoInternalError(deleted.toString(), "line " + i + " deleted");
				assertNoInternalError(doubled.toString(), "line " + i + " doubled");
			}
		}
	}

	@Test
	void everyIndentationFlipped() throws Exception {
		for (String s : sources()) {
			String[] lines = s.split("\n", -1);
			for (int i = 0; i < lines.length; i++) {
				StringBuilder b = new StringBuilder();
				for (int j = 0; j < lines.length; j++) {
					b.append(j == i ? (lines[j].startsWith("    ") ? lines[j].substring(4) : "    " + lines[j]) : lines[j])
							.append('\n');
				}
				assertNoInternalError(b.toString(), "indent of line " + i + " flipped");
			}
		}
	}

	/** A sample of the standard library, analyzed as if it imported pypto so that every pass runs. */
	@Test
	void standardLibraryAsIfItWerePypto() throws Exception {
		Path stdlib = Python3.stdlib().orElse(null);
		Assumptions.assumeTrue(stdlib != null, "python3 is not on PATH: skipped");
		List<Path> files = CorpusScan.pythonFiles(stdlib);
		int analyzed = 0;
		for (int i = 0; i < files.size(); i += 7) {
			byte[] bytes = Files.readAllBytes(files.get(i));
			String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
			assertNoInternalError("import pypto.language as pl\nimport pypto.language.distributed as pld\n" + text,
					files.get(i).toString());
			analyzed++;
		}
		assertTrue(analyzed > 100);
	}
}
