package dev.ptotools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary folders the harnesses make (workspaces, generated corpora). */
final class TempDirs {

	private TempDirs() {
	}

	/** Deletes a folder and what is in it; a symbolic link inside is deleted, not followed. */
	static void delete(Path root) throws IOException {
		if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		try (Stream<Path> s = Files.walk(root)) {
			for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(p);
			}
		}
	}
}
