package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.corpus.CorpusScan;

/**
 * pypto's own python/, tests/ and examples/ trees must parse 100%. pypto's source is not part of this
 * repository, so the test runs where a checkout is named by -Dpypto.corpus=DIR or PTO_PYPTO_CORPUS.
 */
class PyptoCorpusTest {

	@Test
	void parsesAllOfPypto() throws Exception {
		String dir = System.getProperty("pypto.corpus", System.getenv("PTO_PYPTO_CORPUS"));
		Assumptions.assumeTrue(dir != null && Files.isDirectory(Path.of(dir)),
				"no pypto checkout named (-Dpypto.corpus=DIR or PTO_PYPTO_CORPUS): skipped");
		List<Path> files = new ArrayList<>();
		for (String tree : new String[] { "python", "tests", "examples" }) {
			Path p = Path.of(dir, tree);
			if (Files.isDirectory(p)) {
				files.addAll(CorpusScan.pythonFiles(p));
			}
		}
		CorpusScan.Report report = CorpusScan.scan(files, Set.of(), 60_000);
		report.failures().forEach(f -> System.out.println("pypto failure: " + f));
		System.out.printf("pypto corpus: %d files, %.3f%% clean%n", report.results().size(), 100 * report.cleanRatio());
		assertEquals(List.of(), report.failures());
	}
}
