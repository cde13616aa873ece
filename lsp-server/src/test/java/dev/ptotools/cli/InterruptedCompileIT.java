package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) at any moment of {@code pto compile}: each program folder is the old one or the new
 * one, whole, never half-written, and the next compile completes the job and leaves nothing behind.
 */
class InterruptedCompileIT {

	/** 60 ms after each folder: 60 folders take over three seconds to write, a window a Ctrl-C cannot miss. */
	private static final Map<String, String> SLOW_WRITES = Map.of("PTO_TEST_WRITE_DELAY_MS", "60");

	/** Many programs, each with a few files, in several modules: a compile that takes long enough to interrupt. */
	private static void sources(Path dir, String variant) throws IOException {
		String single = Files.readString(Pto.examples().resolve("single_chip.py"));
		Files.createDirectories(dir.resolve("src"));
		for (int m = 0; m < 6; m++) {
			StringBuilder b = new StringBuilder();
			for (int k = 0; k < 10; k++) {
				String program = single.replace("class AddChain:", "class AddChain" + m + "_" + k + ":");
				b.append(k == 0 ? program : program.substring(program.indexOf("@pl.program")));
				b.append("\n\n");
			}
			Files.writeString(dir.resolve("src/m" + m + ".py"), b.toString().replace("pl.FP32", variant));
		}
	}

	private static Map<String, byte[]> folder(Path dir) throws IOException {
		Map<String, byte[]> out = new TreeMap<>();
		try (Stream<Path> s = Files.walk(dir)) {
			for (Path p : s.filter(Files::isRegularFile).toList()) {
				if (!p.getFileName().toString().equals(".pto-manifest.json")) {
					out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
				}
			}
		}
		return out;
	}

	private static Map<String, Map<String, byte[]>> programs(Path out) throws IOException {
		Map<String, Map<String, byte[]>> programs = new TreeMap<>();
		if (Files.isDirectory(out)) {
			try (Stream<Path> s = Files.list(out)) {
				for (Path p : s.filter(x -> Files.isDirectory(x) && !x.getFileName().toString().startsWith(".")).toList()) {
					programs.put(p.getFileName().toString(), folder(p));
				}
			}
		}
		return programs;
	}

	@Test
	void everyProgramFolderIsOldOrNewWhole(@TempDir Path dir) throws Exception {
		// the reference outputs of both versions of the sources
		sources(dir, "pl.FP32");
		assertEquals(0, Pto.run(dir, "compile", "-o", "old", "src").exit());
		Map<String, Map<String, byte[]>> before = programs(dir.resolve("old"));
		sources(dir, "pl.FP16");
		assertEquals(0, Pto.run(dir, "compile", "-o", "new", "src").exit());
		Map<String, Map<String, byte[]>> after = programs(dir.resolve("new"));
		assertEquals(before.keySet(), after.keySet());
		assertEquals(60, before.size(), "programs to interrupt a compile among");

		List<String> seen = new ArrayList<>();
		boolean partial = false;
		// Ctrl-C among the writes: once the first staging folder appears (the writes come last, after every
		// program is generated, and PTO_TEST_WRITE_DELAY_MS stretches them to seconds), after a pause that
		// differs per round, so that cuts land between folders and inside one.
		long[] pauses = { 0, 400, 1500, 3000 };
		for (int round = 0; round < pauses.length; round++) {
			Path out = dir.resolve("out" + round);
			sources(dir, "pl.FP32");
			assertEquals(0, Pto.run(dir, "compile", "-o", out.toString(), "src").exit());
			sources(dir, "pl.FP16");
			ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
					Pto.jar().toString(), "compile", "-o", out.toString(), "src").directory(dir.toFile())
					.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
			pb.environment().putAll(SLOW_WRITES);
			Process p = pb.start();
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			while (p.isAlive() && !writing(out) && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			Thread.sleep(pauses[round]);
			new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
			assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the compile ends after Ctrl-C");
			Map<String, Map<String, byte[]>> now = programs(out);
			int updated = 0;
			for (Map.Entry<String, Map<String, byte[]>> e : now.entrySet()) {
				Map<String, byte[]> files = new TreeMap<>(e.getValue());
				files.remove(".pto-manifest.json");
				boolean old = same(files, before.get(e.getKey()));
				boolean fresh = same(files, after.get(e.getKey()));
				assertTrue(old || fresh, "round " + round + ": " + e.getKey() + " is neither the old folder nor the new one: "
						+ files.keySet());
				updated += fresh && !old ? 1 : 0;
			}
			assertEquals(before.keySet(), now.keySet(), "round " + round + ": no program folder went missing");
			seen.add(updated + "/" + now.size());
			partial |= updated > 0 && updated < now.size();
			// the next compile finishes the job and leaves no staging or set-aside folder
			assertEquals(0, Pto.run(dir, "compile", "-o", out.toString(), "src").exit());
			try (Stream<Path> s = Files.list(out)) {
				assertEquals(List.of(), s.map(x -> x.getFileName().toString()).filter(n -> n.startsWith(".pto-")
						&& !n.equals(".pto-lock")).toList());
			}
			Map<String, Map<String, byte[]>> done = programs(out);
			for (String k : after.keySet()) {
				Map<String, byte[]> files = new TreeMap<>(done.get(k));
				files.remove(".pto-manifest.json");
				assertTrue(same(files, after.get(k)), k);
			}
		}
		System.out.println("InterruptedCompileIT: folders updated before Ctrl-C per round: " + seen);
		assertTrue(partial, "some Ctrl-C cut a write between its first and its last folder: " + seen);
	}

	/** Whether a compile has begun writing into an output folder: a staging folder of its is there. */
	private static boolean writing(Path out) throws IOException {
		if (!Files.isDirectory(out)) {
			return false;
		}
		try (Stream<Path> s = Files.list(out)) {
			return s.anyMatch(x -> x.getFileName().toString().startsWith(".pto-staging."));
		}
	}

	private static boolean same(Map<String, byte[]> a, Map<String, byte[]> b) {
		if (b == null || !a.keySet().equals(b.keySet())) {
			return false;
		}
		for (String k : a.keySet()) {
			if (!java.util.Arrays.equals(a.get(k), b.get(k))) {
				return false;
			}
		}
		return true;
	}
}
