package dev.ptotools.language.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs the machine's python3 for tests that compare with CPython; absent python3 is reported, not failed. */
public final class Python3 {

	private static Optional<String> executable;

	private Python3() {
	}

	public static synchronized Optional<String> find() {
		if (executable == null) {
			executable = Optional.empty();
			for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
				Path p = Path.of(dir, "python3");
				if (Files.isExecutable(p)) {
					executable = Optional.of(p.toString());
					break;
				}
			}
		}
		return executable;
	}

	public static boolean available() {
		return find().isPresent();
	}

	/** Runs a Python script with arguments and returns its standard output; fails on a non-zero exit. */
	public static String run(String script, String... args) throws IOException, InterruptedException {
		List<String> cmd = new ArrayList<>();
		cmd.add(find().orElseThrow());
		cmd.add("-c");
		cmd.add(script);
		cmd.addAll(List.of(args));
		ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
		Process p = pb.start();
		p.getOutputStream().close();
		byte[] out = p.getInputStream().readAllBytes();
		if (!p.waitFor(10, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			throw new IOException("python3 timed out");
		}
		if (p.exitValue() != 0) {
			throw new IOException("python3 exited with " + p.exitValue());
		}
		return new String(out, StandardCharsets.UTF_8);
	}

	/** The folder of CPython's standard library, as python3 reports it. */
	public static Optional<Path> stdlib() {
		if (!available()) {
			return Optional.empty();
		}
		try {
			return Optional.of(Path.of(run("import sysconfig;print(sysconfig.get_paths()['stdlib'])").strip()));
		} catch (IOException | InterruptedException e) {
			return Optional.empty();
		}
	}
}
