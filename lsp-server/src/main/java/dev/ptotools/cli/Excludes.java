package dev.ptotools.cli;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Exclude globs (Java's glob syntax, {@code **} crosses folders). A glob without '/' matches the name
 * of any file or folder on the way ({@code tests}, {@code *_gen.py}); a glob with '/' (or a leading
 * {@code ./}) matches the path relative to its base: the current directory for {@code --exclude}, the pyproject.toml's
 * folder for {@code [tool.pto] exclude}.
 */
final class Excludes {

	private record Entry(Path base, String glob, PathMatcher matcher, boolean anchored) {
	}

	private final List<Entry> entries = new ArrayList<>();

	void add(Path base, String glob) {
		String g = glob.strip();
		while (g.endsWith("/") && g.length() > 1) {
			g = g.substring(0, g.length() - 1);
		}
		boolean rooted = false;
		while (g.startsWith("./") || (g.startsWith("/") && g.length() > 1)) {
			g = g.substring(g.startsWith("./") ? 2 : 1);
			rooted = true;
		}
		if (g.isEmpty() || g.equals(".")) {
			return;
		}
		boolean anchored = rooted || g.contains("/");
		entries.add(new Entry(base.toAbsolutePath().normalize(), g,
				FileSystems.getDefault().getPathMatcher("glob:" + g), anchored));
	}

	void addAll(Path base, List<String> globs) {
		for (String g : globs) {
			add(base, g);
		}
	}

	boolean isEmpty() {
		return entries.isEmpty();
	}

	/** The glob that excludes an absolute, normalized path, or null. */
	String match(Path abs, boolean directory) {
		for (Entry e : entries) {
			Path rel = abs.startsWith(e.base) ? e.base.relativize(abs) : null;
			if (e.anchored) {
				if (rel != null && !rel.toString().isEmpty()
						&& (e.matcher.matches(rel) || (directory && e.matcher.matches(rel.resolve("x"))))) {
					return e.glob;
				}
			} else {
				Path names = rel != null && !rel.toString().isEmpty() ? rel : abs.getFileName();
				if (names == null) {
					continue;
				}
				for (Path name : names) {
					if (e.matcher.matches(name)) {
						return e.glob;
					}
				}
			}
		}
		return null;
	}
}
