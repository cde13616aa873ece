package dev.ptotools.language.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The bundled example PyPTO programs (docs/examples, copied from the shared examples), found from the build or the module folder. */
public final class Examples {

	private Examples() {
	}

	public static Path dir() {
		String prop = System.getProperty("pto.examples.dir");
		for (String candidate : new String[] { prop, "../docs/examples", "docs/examples" }) {
			if (candidate != null && Files.isDirectory(Path.of(candidate))) {
				return Path.of(candidate).toAbsolutePath().normalize();
			}
		}
		throw new IllegalStateException("docs/examples not found (set -Dpto.examples.dir)");
	}

	public static List<Path> files() throws IOException {
		try (Stream<Path> s = Files.list(dir())) {
			return s.filter(p -> p.toString().endsWith(".py")).sorted().toList();
		}
	}
}
