package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the fat jar as a subprocess, as CI would. */
final class Pto {

	/** What a run printed and returned. */
	record Run(int exit, String out, String err) {
		@Override
		public String toString() {
			return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
		}
	}

	private Pto() {
	}

	static Path jar() {
		Path jar = Path.of(System.getProperty("pto.jar", "target/pto-tools.jar")).toAbsolutePath();
		assertTrue(Files.isRegularFile(jar), "the fat jar is built before the integration tests: " + jar);
		return jar;
	}

	static Path examples() {
		return Path.of(System.getProperty("pto.examples.dir", "../docs/examples")).toAbsolutePath().normalize();
	}

	/** The repository root (the examples' grandparent). */
	static Path repo() {
		return examples().getParent().getParent();
	}

	static Run run(Path cwd, String... args) {
		return run(cwd, Map.of(), args);
	}

	static Run run(Path cwd, Map<String, String> env, String... args) {
		List<String> cmd = new ArrayList<>();
		cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		cmd.add("-jar");
		cmd.add(jar().toString());
		cmd.addAll(List.of(args));
		return exec(cwd, env, cmd);
	}

	static Run exec(Path cwd, Map<String, String> env, List<String> cmd) {
		try {
			Path out = Files.createTempFile("pto-out", ".txt");
			Path err = Files.createTempFile("pto-err", ".txt");
			try {
				ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(out.toFile())
						.redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
				pb.environment().remove("NO_COLOR");
				pb.environment().remove("PTO_DOCS_URL");
				pb.environment().putAll(env);
				Process p = pb.start();
				if (!p.waitFor(180, TimeUnit.SECONDS)) {
					p.destroyForcibly();
					throw new AssertionError("pto did not finish in 180 s: " + cmd);
				}
				return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
						Files.readString(err, StandardCharsets.UTF_8));
			} finally {
				Files.deleteIfExists(out);
				Files.deleteIfExists(err);
			}
		} catch (IOException e) {
			throw new AssertionError(e);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new AssertionError(e);
		}
	}

	/** Copies the example programs into a folder (as a project's sources). */
	static Path copyExamples(Path dir) throws IOException {
		Path to = dir.resolve("examples");
		Files.createDirectories(to);
		try (var s = Files.list(examples())) {
			for (Path p : s.filter(f -> f.toString().endsWith(".py")).sorted().toList()) {
				Files.copy(p, to.resolve(p.getFileName()));
			}
		}
		return to;
	}
}
