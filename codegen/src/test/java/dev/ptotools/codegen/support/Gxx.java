package dev.ptotools.codegen.support;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The machine's g++, for {@code -std=c++17 -fsyntax-only} checks against the stub runtime headers. */
public final class Gxx {

	private Gxx() {
	}

	public static Optional<String> find() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path p = Path.of(dir, "g++");
			if (Files.isExecutable(p)) {
				return Optional.of(p.toString());
			}
		}
		return Optional.empty();
	}

	public static Path resource(String name) {
		try {
			return Path.of(Gxx.class.getResource("/" + name).toURI());
		} catch (URISyntaxException e) {
			throw new AssertionError(e);
		}
	}

	/** Runs g++ -std=c++17 -fsyntax-only with the include dirs on the files; returns "" or the diagnostics. */
	public static String syntaxCheck(List<Path> includeDirs, List<Path> files) throws IOException, InterruptedException {
		List<String> cmd = new ArrayList<>(List.of(find().orElseThrow(), "-std=c++17", "-fsyntax-only"));
		for (Path d : includeDirs) {
			cmd.add("-I" + d);
		}
		files.forEach(f -> cmd.add(f.toString()));
		Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
		p.getOutputStream().close();
		String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!p.waitFor(10, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			return "g++ timed out";
		}
		return p.exitValue() == 0 ? "" : out;
	}
}
