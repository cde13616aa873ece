package dev.ptotools.codegen.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ptotools.language.support.Python3;

/** Runs generated Python through the machine's python3; without python3 the checks are skipped by the caller. */
public final class Python {

	private Python() {
	}

	public static boolean available() {
		return Python3.available();
	}

	/** The outcome of running python3: exit code, stdout, stderr. */
	public record Run(int exit, String out, String err) {
	}

	public static Run run(Path workDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
		List<String> cmd = new ArrayList<>();
		cmd.add(Python3.find().orElseThrow());
		cmd.addAll(List.of(args));
		ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
		pb.environment().putAll(env);
		Path out = Files.createTempFile("py", ".out");
		Path err = Files.createTempFile("py", ".err");
		pb.redirectOutput(out.toFile()).redirectError(err.toFile());
		Process p = pb.start();
		p.getOutputStream().close();
		if (!p.waitFor(5, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			throw new IOException("python3 timed out");
		}
		Run r = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
		Files.deleteIfExists(out);
		Files.deleteIfExists(err);
		return r;
	}

	/** Compiles Python text (like Python's compile(text, name, "exec")); a no-op without python3. */
	public static void assertCompiles(String text) {
		if (!available()) {
			return;
		}
		try {
			Path dir = Files.createTempDirectory("pycompile");
			Path file = dir.resolve("module.py");
			Files.writeString(file, text);
			Run r;
			try {
				r = run(dir, Map.of(), "-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')",
						file.toString());
			} finally {
				Files.deleteIfExists(file);
				Files.deleteIfExists(dir);
			}
			assertEquals(0, r.exit(), () -> r.err() + "\n" + text);
		} catch (IOException | InterruptedException e) {
			throw new AssertionError(e);
		}
	}
}
