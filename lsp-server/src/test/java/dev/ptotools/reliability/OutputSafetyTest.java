package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;

/**
 * The output writer under faults, with the compiler in its own process: killed at random points, every
 * output file is the complete old version or the complete new one; a read-only output folder gives a
 * clear error; two compiles of the same program at once leave only whole files.
 */
class OutputSafetyTest {

	@TempDir
	Path dir;

	/**
	 * A module of many programs; the version changes every generated file's content (its kernels' two
	 * tiles of ROWS x 128 FP32 live together, so ROWS stays within what the unified buffer holds).
	 */
	static String source(int version) {
		return GeneratedPrograms.multiRank(1500).replace("ROWS = 128", "ROWS = " + (32 * (version + 1)));
	}

	static Map<String, String> expected(String text) {
		Generation g = Compiler.generate("big.py", text, CompileOptions.DEFAULT);
		Map<String, String> files = new HashMap<>();
		for (GeneratedFile f : g.files()) {
			files.put(f.path(), f.content());
		}
		return files;
	}

	Process compile(Path source, Path out) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.ptotools.codegen.Main", "-o",
				out.toString(), source.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("compile.log").toFile())
				.start();
	}

	/** Every generated file on disk is one of the versions, whole; hidden temporaries are not outputs. */
	static void assertWhole(Path out, List<Map<String, String>> versions) throws IOException {
		try (Stream<Path> files = Files.walk(out)) {
			for (Path p : files.filter(Files::isRegularFile).toList()) {
				if (p.getFileName().toString().startsWith(".")) {
					continue;
				}
				String rel = out.relativize(p).toString().replace('\\', '/');
				String content = Files.readString(p);
				boolean whole = versions.stream().anyMatch(v -> content.equals(v.get(rel)));
				assertTrue(whole, rel + " is neither complete version (" + content.length() + " chars)");
			}
		}
	}

	@Test
	void killedMidCompileLeavesOnlyWholeFiles() throws Exception {
		Path source = dir.resolve("big.py");
		Path out = dir.resolve("out");
		Map<String, String> v1 = expected(source(1));
		Map<String, String> v2 = expected(source(2));
		assertTrue(v1.size() > 50, "a big enough compile: " + v1.size() + " files");
		long differing = v1.keySet().stream().filter(k -> !v1.get(k).equals(v2.get(k))).count();
		assertTrue(differing > 20, "the two versions differ in many files: " + differing);
		Files.writeString(source, source(1));
		assertEquals(0, compile(source, out).waitFor());
		assertWhole(out, List.of(v1));
		Random random = new Random(7);
		for (int round = 0; round < 8; round++) {
			Files.writeString(source, source(round % 2 == 0 ? 2 : 1));
			Process p = compile(source, out);
			Thread.sleep(300 + random.nextInt(2500));
			p.destroyForcibly();
			p.waitFor(30, TimeUnit.SECONDS);
			assertWhole(out, List.of(v1, v2));
		}
	}

	@Test
	void twoCompilesAtOnceDoNotInterleave() throws Exception {
		Path a = dir.resolve("a.py");
		Path b = dir.resolve("b.py");
		Files.writeString(a, source(1));
		Files.writeString(b, source(3));
		Path out = dir.resolve("out");
		Process pa = compile(a, out);
		Process pb = compile(b, out);
		pa.waitFor(120, TimeUnit.SECONDS);
		pb.waitFor(120, TimeUnit.SECONDS);
		assertWhole(out, List.of(expected(source(1)), expected(source(3))));
	}

	@Test
	void aReadOnlyOutputFolderIsAClearError() throws Exception {
		Path source = dir.resolve("small.py");
		Files.writeString(source, Files.readString(dev.ptotools.language.support.Examples.dir().resolve("no_window_host.py")));
		boolean root = "root".equals(System.getProperty("user.name"));
		// root writes into a chmod-ed folder anyway; sysfs refuses even root.
		Path out = root ? Path.of("/sys") : dir.resolve("ro");
		Assumptions.assumeTrue(!root || !Files.isWritable(out.resolve("pto-probe")) , "no read-only folder for root here");
		if (!root) {
			Files.createDirectories(out);
			Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r-xr-xr-x"));
		}
		try {
			Process p = compile(source, out);
			assertNotEquals(0, p.waitFor());
			String log = Files.readString(dir.resolve("compile.log")).toLowerCase();
			assertTrue(log.contains("permission") || log.contains("not permitted") || log.contains("cannot write")
					|| log.contains("read-only"), log);
			assertTrue(!log.contains("exception in thread"), "a message, not a stack trace: " + log);
		} finally {
			if (!root) {
				Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
			}
		}
	}
}
