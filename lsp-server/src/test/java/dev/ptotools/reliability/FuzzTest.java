package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonParser;

import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.support.Examples;
import dev.ptotools.language.support.Python3;
import dev.ptotools.lsp.LspHarness;

/**
 * Mutated real inputs (the bundled examples, generated PyPTO programs, standard-library samples)
 * through parse → analyze → codegen → every request type of an in-process server. Passes when no
 * exception escapes, every request is answered within a bound, and no thread is left running. A
 * failing input is minimized and saved under target/fuzz-failures/ (add it to
 * src/test/resources/fuzz-regressions/ to keep it). {@code -Dfuzz.count=} and {@code -Dfuzz.seed=}
 * control the run, {@code -Dfuzz.seeds=DIR} adds every PyPTO program under a folder (pypto's examples
 * and tests, fetched) to the seeds; CI runs the default 300 cases.
 */
class FuzzTest {

	static final int COUNT = Integer.getInteger("fuzz.count", 300);
	static final long SEED = Long.getLong("fuzz.seed", 20261202L);

	@TempDir
	Path workspace;

	static List<String> seeds() throws Exception {
		List<String> seeds = new ArrayList<>();
		for (Path p : Examples.files()) {
			seeds.add(Files.readString(p));
		}
		seeds.add(GeneratedPrograms.multiRank(150));
		Path stdlib = Python3.stdlib().orElse(null);
		if (stdlib != null) {
			List<Path> files = CorpusScan.pythonFiles(stdlib);
			for (int i = 0; i < files.size() && seeds.size() < 16; i += 397) {
				byte[] b = Files.readAllBytes(files.get(i));
				if (b.length < 40_000) {
					seeds.add("import pypto.language as pl\n" + new String(b, StandardCharsets.UTF_8));
				}
			}
		}
		String more = System.getProperty("fuzz.seeds");
		if (more != null && !more.isBlank()) {
			// -Dfuzz.seeds=DIR: every PyPTO program under a folder too (pypto's examples and tests, fetched)
			for (Path p : CorpusScan.pythonFiles(Path.of(more))) {
				byte[] b = Files.readAllBytes(p);
				String text = new String(b, StandardCharsets.UTF_8);
				if (b.length < 60_000 && text.contains("pypto.language")) {
					seeds.add(text);
				}
			}
		}
		return seeds;
	}

	@Test
	void mutatedInputsNeverBreakThePipelineOrTheServer() throws Exception {
		Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
		List<String> seeds = seeds();
		Mutator mutator = new Mutator(SEED);
		List<String> failures = new ArrayList<>();
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace,
					JsonParser.parseString("{\"settings\": {\"debounceMs\": 0, \"codegenOnSave\": false}}"));
			CaseRunner runner = new CaseRunner(lsp, workspace.resolve("fuzz.py").toUri().toString());
			for (int i = 0; i < COUNT; i++) {
				String text = mutator.mutate(seeds.get(i % seeds.size()));
				String failure = runner.run(text, mutator);
				if (failure != null) {
					// Pipeline failures are minimized; a server failure may depend on the server's state, so
					// its input is kept whole.
					java.util.function.Predicate<String> stillFails = failure.startsWith("server") ? t -> false
							: t -> CaseRunner.pipeline(t) != null;
					Path saved = save(i, Minimizer.minimize(text, stillFails), failure);
					failures.add("case " + i + " (seed " + SEED + "): " + failure + " -> " + saved);
					if (failures.size() >= 5) {
						break;
					}
				}
			}
		}
		System.out.printf("fuzz: %d cases from %d seeds, seed %d, %d failures, %d program folders written whole%n", COUNT,
				seeds.size(), SEED, failures.size(), CaseRunner.FOLDERS_WHOLE.get());
		assertEquals(List.of(), failures);
		assertNoThreadLeft(before);
	}

	static Path save(int index, String text, String failure) throws Exception {
		Path dir = Path.of("target/fuzz-failures");
		Files.createDirectories(dir);
		Path p = dir.resolve("case-" + SEED + "-" + index + ".py");
		// getBytes, not writeString: a mutation can leave half of a surrogate pair, which is replaced
		Files.write(p, text.getBytes(StandardCharsets.UTF_8));
		Files.write(dir.resolve("case-" + SEED + "-" + index + ".txt"), failure.getBytes(StandardCharsets.UTF_8));
		return p.toAbsolutePath();
	}

	/** Threads the server started are gone once it exited (pooled deep-stack workers idle out on their own). */
	static void assertNoThreadLeft(Set<Thread> before) throws Exception {
		long deadline = System.currentTimeMillis() + 10_000;
		List<String> left = new ArrayList<>();
		while (System.currentTimeMillis() < deadline) {
			left.clear();
			for (Thread t : Thread.getAllStackTraces().keySet()) {
				if (!before.contains(t) && t.isAlive() && t.getName().startsWith("pto-")
						&& !t.getName().startsWith("pto-deep-stack")) {
					left.add(t.getName());
				}
			}
			if (left.isEmpty()) {
				return;
			}
			Thread.sleep(100);
		}
		assertTrue(left.isEmpty(), "threads left running: " + left);
	}
}
