package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Runs a real editor, headless, on a script from the test resources, with the real server jar: finds
 * the editor (skipped when it is missing, except in CI), copies the configuration with the jar path
 * filled in, bounds the run in time (a hung editor and its server are killed and the test fails) and
 * reads the JSON log the script wrote.
 */
final class EditorRun {

	/** How long one step of an editor script may wait (server start, diagnostics, compile...). */
	static final long STEP_TIMEOUT_MS = Long.getLong("pto.e2e.stepTimeoutMs", 60_000);
	/** How long a whole editor run may take before it is killed. */
	static final long RUN_TIMEOUT_MS = Long.getLong("pto.e2e.runTimeoutMs", 240_000);

	/** The placeholder the docs/editors.md snippets use for the jar. */
	static final String JAR_PLACEHOLDER = "/path/to/pto-tools.jar";

	private EditorRun() {
	}

	/** The server jar named by the build ({@code pto.jar}); fails when it is not there. */
	static Path jar() {
		String p = System.getProperty("pto.jar");
		assertTrue(p != null && Files.isRegularFile(Path.of(p)),
				"the server jar (system property pto.jar) is missing: " + p + "; run the package phase first");
		return Path.of(p).toAbsolutePath();
	}

	/**
	 * The absolute path of a program on PATH. Missing: in CI (CI=true) the test fails, elsewhere it is
	 * skipped with a message saying how to install it.
	 */
	static Path require(String program, String debianPackages) {
		Optional<Path> found = onPath(program);
		if (found.isPresent()) {
			return found.get();
		}
		missing(program + " is not installed (apt-get install " + debianPackages + ")");
		return null;
	}

	/** Something an editor test needs is missing: fail in CI (CI=true), skip with the message elsewhere. */
	static void missing(String message) {
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			fail(message + "; CI must run the editor tests (.ci/run installs it)");
		}
		Assumptions.abort(message + ": editor test skipped");
	}

	/** Whether a command exits with 0 within a minute (its output is dropped). */
	static boolean succeeds(List<String> command) throws IOException, InterruptedException {
		Process p = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
		if (!p.waitFor(60, TimeUnit.SECONDS)) {
			p.destroyForcibly();
			return false;
		}
		return p.exitValue() == 0;
	}

	static Optional<Path> onPath(String program) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String dir : path.split(File.pathSeparator)) {
			Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate.toAbsolutePath());
			}
		}
		return Optional.empty();
	}

	/** A test resource (under /e2e/) as text. */
	static String resource(String name) throws IOException {
		try (var in = EditorRun.class.getResourceAsStream("/e2e/" + name)) {
			if (in == null) {
				throw new IOException("missing test resource e2e/" + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/** Copies a resource into a folder, with the jar placeholder replaced by the real path. */
	static Path install(String name, Path dir, Path jar) throws IOException {
		String text = resource(name);
		Path out = dir.resolve(Path.of(name).getFileName().toString());
		Files.writeString(out, text.replace(JAR_PLACEHOLDER, jar.toString()));
		return out;
	}

	/** What an editor run left: its exit code, its output and the JSON log of its script. */
	record Result(int exitCode, String output, JsonObject log) {
		String describe() {
			return "exit code " + exitCode + "\nlog: " + log + "\noutput:\n" + output;
		}
	}

	/**
	 * Runs the command in {@code cwd} with the given extra environment; kills it (and the server it
	 * started) when it runs past {@link #RUN_TIMEOUT_MS}, which fails the test.
	 */
	static Result run(List<String> command, Path cwd, Map<String, String> env, Path logFile, Path scratch)
			throws IOException, InterruptedException {
		Path output = scratch.resolve("editor-output.txt");
		ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
				.redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
		Map<String, String> environment = pb.environment();
		environment.putAll(env);
		environment.put("PTO_E2E_LOG", logFile.toString());
		environment.put("PTO_E2E_TIMEOUT_MS", Long.toString(STEP_TIMEOUT_MS));
		Process p = pb.start();
		boolean finished = p.waitFor(RUN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
		if (!finished) {
			List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
			all.forEach(ProcessHandle::destroyForcibly);
			p.destroyForcibly();
			p.waitFor(10, TimeUnit.SECONDS);
		}
		String out = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
		JsonObject log = Files.exists(logFile) && Files.size(logFile) > 0
				? JsonParser.parseString(Files.readString(logFile)).getAsJsonObject()
				: new JsonObject();
		if (!finished) {
			fail(command.get(0) + " did not finish within " + RUN_TIMEOUT_MS + " ms and was killed\nlog: " + log
					+ "\noutput:\n" + out);
		}
		// The editor stops its server on exit; make sure no server outlives the test either way.
		p.descendants().forEach(ProcessHandle::destroyForcibly);
		return new Result(p.exitValue(), out, log);
	}

	/** Relative path → bytes of every regular file under a folder. */
	/**
	 * The generated files under an output folder, without its records (.pto-manifest.json, .pto-lock), which
	 * name the source relative to the folder and so differ between two folders written from one source.
	 */
	static Map<String, byte[]> files(Path root) throws IOException {
		Map<String, byte[]> out = new LinkedHashMap<>();
		if (!Files.isDirectory(root)) {
			return out;
		}
		try (var s = Files.walk(root)) {
			for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
				if (f.getFileName().toString().startsWith(".pto-")) {
					continue;
				}
				out.put(root.relativize(f).toString().replace(File.separatorChar, '/'), Files.readAllBytes(f));
			}
		}
		return out;
	}
}
