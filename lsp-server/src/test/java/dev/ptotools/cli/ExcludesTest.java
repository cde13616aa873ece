package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Exclude globs: names anywhere on the way, or paths relative to their base. */
class ExcludesTest {

	private static final Path BASE = Path.of("/repo");

	private static Excludes of(String... globs) {
		Excludes e = new Excludes();
		for (String g : globs) {
			e.add(BASE, g);
		}
		return e;
	}

	@Test
	void namesMatchAnySegment() {
		Excludes e = of("tests", "*_gen.py");
		assertEquals("tests", e.match(Path.of("/repo/src/tests/a.py"), false));
		assertEquals("tests", e.match(Path.of("/repo/tests"), true));
		assertEquals("*_gen.py", e.match(Path.of("/repo/src/x_gen.py"), false));
		assertNull(e.match(Path.of("/repo/src/testsuite/a.py"), false));
		assertEquals("*_gen.py", e.match(Path.of("/elsewhere/y_gen.py"), false), "a name glob also applies outside the base");
	}

	@Test
	void pathsAreRelativeToTheBase() {
		Excludes e = of("tests/fixtures/**", "./build/", "src/*.py");
		assertEquals("tests/fixtures/**", e.match(Path.of("/repo/tests/fixtures/deep/a.py"), false));
		assertEquals("tests/fixtures/**", e.match(Path.of("/repo/tests/fixtures"), true), "the folder itself is pruned");
		assertNull(e.match(Path.of("/repo/other/tests/fixtures/a.py"), false));
		assertEquals("build", e.match(Path.of("/repo/build"), true), "a trailing slash and ./ are dropped");
		assertNull(e.match(Path.of("/repo/src/build"), true), "./ anchors the glob at the base");
		assertEquals("src/*.py", e.match(Path.of("/repo/src/a.py"), false));
		assertNull(e.match(Path.of("/repo/src/pkg/a.py"), false), "* stays inside one folder");
		assertNull(e.match(Path.of("/other/tests/fixtures/a.py"), false), "outside the base");
		assertNull(e.match(Path.of("/repo"), true));
	}
}
