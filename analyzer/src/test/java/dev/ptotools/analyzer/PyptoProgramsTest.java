package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.EmbeddedModules;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.corpus.CorpusScan;

/**
 * pypto's own distributed programs (its tests/ut/codegen/distributed, the MaterializeCommDomainScopes
 * tests and examples/distributed) analyze without internal errors; and every test of the pass that
 * expects an error (pytest.raises(..., match=...)) gets an error diagnostic inside that test whose
 * message matches. Runs where a pypto checkout is named by -Dpypto.corpus=DIR or PTO_PYPTO_CORPUS.
 */
class PyptoProgramsTest {

	private static final Pattern TEST = Pattern.compile("^def (test_\\w+)\\(", Pattern.MULTILINE);
	private static final Pattern RAISES = Pattern.compile("pytest\\.raises\\([\\w.]+, match=r?\"([^\"]+)\"\\)");

	private static Path corpus() {
		String dir = System.getProperty("pypto.corpus", System.getenv("PTO_PYPTO_CORPUS"));
		Assumptions.assumeTrue(dir != null && Files.isDirectory(Path.of(dir)),
				"no pypto checkout named (-Dpypto.corpus=DIR or PTO_PYPTO_CORPUS): skipped");
		return Path.of(dir);
	}

	@Test
	void distributedProgramsAnalyzeWithoutInternalErrors() throws Exception {
		Path root = corpus();
		List<Path> files = new ArrayList<>();
		for (String sub : new String[] { "tests/ut/codegen/distributed", "examples/distributed", "tests/ut/codegen",
				"tests/ut/ir/transforms" }) {
			if (Files.isDirectory(root.resolve(sub))) {
				files.addAll(CorpusScan.pythonFiles(root.resolve(sub)));
			}
		}
		int programs = 0;
		for (Path f : files) {
			Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(f), AnalyzerConfig.DEFAULT);
			programs += a.module() == null ? 0 : a.module().programs().size();
			for (Diagnostic d : a.diagnostics()) {
				assertTrue(!d.rule().equals(Analyzer.INTERNAL_ERROR), f + ": " + d.message());
				assertTrue(!d.rule().equals("PTO000"), f + ": " + d.message());
			}
		}
		System.out.printf("pypto programs: %d files, %d programs analyzed without internal errors%n", files.size(),
				programs);
		assertTrue(programs > 100, "found " + programs);
	}

	/**
	 * Every rank loop of pypto's tests and examples with its verdict, one line each
	 * ({@code path:line GROUPED} or {@code path:line PTO1xx}), written to
	 * target/pypto-rank-loops.txt so that two runs can be compared line by line.
	 */
	@Test
	void everyRankLoopOfTestsAndExamples() throws Exception {
		Path root = corpus();
		List<Path> files = new ArrayList<>();
		for (String sub : new String[] { "tests", "examples" }) {
			if (Files.isDirectory(root.resolve(sub))) {
				files.addAll(CorpusScan.pythonFiles(root.resolve(sub)));
			}
		}
		files.sort(null);
		List<String> lines = new ArrayList<>();
		int grouped = 0;
		int embedded = 0;
		for (Path f : files) {
			String text = Files.readString(f);
			if (!text.contains("pypto")) {
				continue;
			}
			Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
			for (RankLoop l : a.rankLoops()) {
				grouped += l.grouped() ? 1 : 0;
				lines.add(root.relativize(f) + ":" + a.file().lines().line(l.loop().span().start()) + " "
						+ (l.grouped() ? "GROUPED" : l.failed().rule()) + " " + l.reason());
			}
			for (EmbeddedModules.Embedded e : a.embedded()) {
				for (RankLoop l : e.analysis().rankLoops()) {
					grouped += l.grouped() ? 1 : 0;
					embedded++;
					lines.add(root.relativize(f) + ":" + a.file().lines().line(e.toHost(l.loop().span()).start())
							+ " (in a pl.parse string) " + (l.grouped() ? "GROUPED" : l.failed().rule()) + " "
							+ l.reason());
				}
			}
		}
		Path out = Path.of("target", "pypto-rank-loops.txt");
		Files.createDirectories(out.getParent());
		Files.write(out, lines);
		System.out.printf("pypto rank loops: %d in tests and examples (%d of them in pl.parse strings), %d grouped"
				+ " (listed in %s)%n", lines.size(), embedded, grouped, out);
		assertTrue(lines.size() > 200, "found " + lines.size());
		// tests/ut/ir/transforms/test_materialize_comm_domain_scopes.py writes three in pl.parse strings
		assertTrue(embedded > 0, "no rank loop found in pl.parse strings");
	}

	@Test
	void everyExpectedPassErrorIsReportedInItsTest() throws Exception {
		Path file = corpus().resolve("tests/ut/ir/transforms/test_materialize_comm_domain_scopes.py");
		String text = Files.readString(file);
		Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
		Matcher tests = TEST.matcher(text);
		List<int[]> ranges = new ArrayList<>();
		List<String> names = new ArrayList<>();
		while (tests.find()) {
			ranges.add(new int[] { tests.start(), text.length() });
			names.add(tests.group(1));
			if (ranges.size() > 1) {
				ranges.get(ranges.size() - 2)[1] = tests.start();
			}
		}
		int checked = 0;
		for (int i = 0; i < ranges.size(); i++) {
			String body = text.substring(ranges.get(i)[0], ranges.get(i)[1]);
			Matcher raises = RAISES.matcher(body);
			if (!raises.find() || names.get(i).contains("verifier")) {
				continue; // the verifier test builds IR by hand: nothing for an analyzer of sources
			}
			Pattern expected = Pattern.compile(raises.group(1));
			int from = ranges.get(i)[0];
			int to = ranges.get(i)[1];
			boolean found = a.diagnostics().stream().anyMatch(d -> d.severity() == Severity.ERROR
					&& d.span().start() >= from && d.span().start() < to && expected.matcher(d.message()).find());
			assertTrue(found, names.get(i) + ": no error matching '" + raises.group(1) + "'");
			checked++;
		}
		System.out.println("pypto MaterializeCommDomainScopes error tests matched: " + checked);
		assertEquals(9, checked);
	}
}
