package dev.ptotools.analyzer.project;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.PythonFrontEnd;

/**
 * Imports of a project's own modules bind what running the importing module would bind: relative and
 * absolute imports, {@code import a.b as c}, star imports honoring {@code __all__}, chains of modules,
 * and import cycles, which leave the names not yet bound unknown.
 */
class ProjectModulesTest {

	@TempDir
	Path root;

	private void write(String path, String text) throws IOException {
		Path p = root.resolve(path);
		Files.createDirectories(p.getParent());
		Files.writeString(p, text);
	}

	private void aPackage() throws IOException {
		write("pkg/__init__.py", "");
		write("pkg/config.py", "BATCH = 16\nHIDDEN = 8 * 128\n_PRIVATE = 1\nNAMES = ('a', 'b')\n");
		write("pkg/consts.py", "__all__ = ['A']\nA = 1\nB = 2\n");
		write("pkg/kernels/__init__.py", "");
		write("pkg/kernels/k.py", "from ..config import BATCH as B2\nX = B2 * 2\n");
	}

	/** The constants the one program of {@code file} sees. */
	private Map<String, Object> env(String file, String text) throws IOException {
		write(file, text);
		Path path = root.resolve(file);
		Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(path), AnalyzerConfig.DEFAULT,
				new ProjectModules(root).forFile(path));
		Program p = a.module().programs().get(0);
		return a.facts().get(Keys.CONSTANTS).env(p);
	}

	private static final String PROGRAM = """
			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, x: pl.Tensor[[16], pl.FP32]):
			        return x
			""";

	@Test
	void everyImportFormBindsTheOtherModulesValues() throws IOException {
		aPackage();
		Map<String, Object> env = env("pkg/model.py", """
				import pypto.language as pl
				from .config import BATCH, HIDDEN as H
				from .consts import *
				import pkg.config as cfg
				from .kernels.k import X
				from pkg.config import NAMES

				""" + PROGRAM);
		assertEquals(16L, env.get("BATCH"));
		assertEquals(1024L, env.get("H"));
		assertEquals(1L, env.get("A"));
		assertFalse(env.containsKey("B"), "__all__ names only A");
		assertEquals(32L, env.get("X"), "a chain of modules, each read as imported");
		assertEquals(java.util.List.of("a", "b"), env.get("NAMES"));
		assertTrue(env.get("cfg") instanceof Values.Namespace ns && ns.values().get("BATCH").equals(16L));
	}

	@Test
	void aStarImportWithoutAllTakesThePublicNames() throws IOException {
		aPackage();
		Map<String, Object> env = env("pkg/model.py", "import pypto.language as pl\nfrom .config import *\n\n" + PROGRAM);
		assertEquals(16L, env.get("BATCH"));
		assertFalse(env.containsKey("_PRIVATE"));
	}

	@Test
	void anEntryNextToItsModulesImportsThemByName() throws IOException {
		write("config.py", "N_RANKS = 4\n");
		assertEquals(4L, env("run.py", "import pypto.language as pl\nfrom config import N_RANKS\n\n" + PROGRAM)
				.get("N_RANKS"));
	}

	@Test
	void whatIsOutsideTheProjectStaysUnknown() throws IOException {
		ImportedModules m = new ProjectModules(root).forFile(root.resolve("x.py"));
		assertEquals(Values.Unknown.INSTANCE, m.value("torch", "float32"));
		assertEquals(Map.of(), m.star("numpy"));
		assertNull(m.problem("torch"));
	}

	@Test
	void anImportCycleLeavesTheUnboundNamesUnknown() throws IOException {
		write("pkg/__init__.py", "");
		write("pkg/a.py", "from .b import Y\nX = 1\n");
		write("pkg/b.py", "from .a import X\nY = 2\nZ = X + 1\n");
		ImportedModules m = new ProjectModules(root).forFile(root.resolve("pkg/a.py"));
		assertEquals(2L, m.value(".b", "Y"));
		// b reads a's X while a is still importing b: X is not bound yet, so Z is unknown, as Python fails
		assertEquals(Values.Unknown.INSTANCE, m.value(".b", "Z"));
	}

	@Test
	void aModuleWithASyntaxErrorSaysSo() throws IOException {
		write("broken.py", "N = (1,\n");
		ImportedModules m = new ProjectModules(root).forFile(root.resolve("main.py"));
		assertEquals(Values.Unknown.INSTANCE, m.value("broken", "N"));
		assertTrue(m.problem("broken").startsWith("has a syntax error"), m.problem("broken"));
	}
}
