package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.corpus.CorpusScan.Outcome;
import dev.ptotools.language.support.Python3;

/**
 * Parses every .py file of the CPython standard library on this machine. Files CPython itself
 * rejects are left out (python3 is asked which); at least 99.5% of the rest must parse without a
 * problem, and none may throw or run out of time.
 */
class StdlibCorpusTest {

	private static final String REJECTED_BY_CPYTHON = String.join("\n", "import ast, sys",
			"for p in sys.stdin.read().splitlines():",
			"    try:",
			"        ast.parse(open(p, 'rb').read(), p)",
			"    except Exception:",
			"        print(p)");

	@Test
	void parsesTheStandardLibrary() throws Exception {
		Path stdlib = Python3.stdlib().orElse(null);
		Assumptions.assumeTrue(stdlib != null, "python3 is not on PATH: the standard-library corpus test is skipped");
		List<Path> files = CorpusScan.pythonFiles(stdlib);
		Set<Path> rejected = rejectedByCPython(files);
		CorpusScan.Report report = CorpusScan.scan(files, rejected, 60_000);
		report.failures().forEach(f -> System.out.println("corpus failure: " + f));
		System.out.printf("stdlib corpus: %d files (%d rejected by CPython left out), %.3f%% clean%n",
				report.results().size(), rejected.size(), 100 * report.cleanRatio());
		assertEquals(0, report.count(Outcome.THREW), "files that made the parser throw");
		assertEquals(0, report.count(Outcome.TIMEOUT), "files that made the parser hang");
		assertTrue(report.cleanRatio() >= 0.995, "clean ratio " + report.cleanRatio());
		assertTrue(report.results().size() > 1000, "the corpus looks too small to be the standard library");
	}

	/** CPython's verdict, asked in one python3 run over all files. */
	static Set<Path> rejectedByCPython(List<Path> files) throws Exception {
		ProcessBuilder pb = new ProcessBuilder(Python3.find().orElseThrow(), "-c", REJECTED_BY_CPYTHON)
				.redirectError(ProcessBuilder.Redirect.INHERIT);
		Process p = pb.start();
		try (var in = p.getOutputStream()) {
			for (Path f : files) {
				in.write((f + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
			}
		}
		String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
		assertEquals(0, p.waitFor());
		Set<Path> rejected = new HashSet<>();
		out.lines().filter(l -> !l.isBlank()).forEach(l -> rejected.add(Path.of(l)));
		return rejected;
	}
}
