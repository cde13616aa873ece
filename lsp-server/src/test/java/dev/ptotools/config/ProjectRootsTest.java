package dev.ptotools.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.facts.Values;

/** The project root of a file: pyproject.toml, else the git work tree, else above the file's outermost package. */
class ProjectRootsTest {

	@TempDir
	Path dir;

	@Test
	void withoutMarkersTheRootHoldsTheOutermostPackage() throws Exception {
		Path kernels = Files.createDirectories(dir.resolve("model/kernels"));
		Files.writeString(dir.resolve("model/__init__.py"), "");
		Files.writeString(kernels.resolve("__init__.py"), "");
		Files.writeString(dir.resolve("model/config.py"), "N = 8\n");
		Path k = kernels.resolve("k.py");
		Files.writeString(k, "from ..config import N\n");
		assertEquals(dir, ProjectRoots.rootOf(k, ProjectConfig.NONE));
		assertEquals(8L, ProjectRoots.importsOf(k, ProjectConfig.NONE).value("..config", "N"));
		Path loose = dir.resolve("loose.py");
		Files.writeString(loose, "");
		assertEquals(dir, ProjectRoots.rootOf(loose, ProjectConfig.NONE));
	}

	@Test
	void aGitWorkTreeIsTheRoot() throws Exception {
		Files.createDirectories(dir.resolve(".git"));
		Path deep = Files.createDirectories(dir.resolve("a/b"));
		Path f = deep.resolve("m.py");
		Files.writeString(f, "");
		assertEquals(dir, ProjectRoots.rootOf(f, ProjectConfig.NONE));
		assertEquals(Values.Unknown.INSTANCE, ProjectRoots.importsOf(f, ProjectConfig.NONE).value("torch", "float32"));
	}
}
