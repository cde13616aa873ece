package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.project.ProjectModules;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;

/**
 * A jit entry calling {@code @pl.jit.inline} kernels of other modules of its package, as pypto's
 * specializer follows them: the kernels compile into the entry's program with their own module's
 * constants; what pypto says about a kernel is said at the call that reaches it, naming the kernel's file
 * and line (never at an unrelated line of the entry's file).
 */
class ImportedKernelsTest {

	@TempDir
	Path root;

	private static final String ENTRY = """
			import pypto.language as pl
			import torch

			from .config import ROWS, COLS
			from .kernels import copy_rows


			@pl.jit
			def model(x: pl.Tensor, out: pl.Out[pl.Tensor]):
			    out = copy_rows(x, out)
			    return out


			if __name__ == "__main__":
			    model(torch.empty([ROWS, COLS], dtype=torch.float32), torch.empty([ROWS, COLS], dtype=torch.float32))
			""";

	private Generation compile(String kernelBody) throws Exception {
		Path pkg = Files.createDirectories(root.resolve("pkg"));
		Files.writeString(pkg.resolve("__init__.py"), "");
		Files.writeString(pkg.resolve("config.py"), "ROWS = 64\nCOLS = 128\nHALF = COLS // 2\n");
		Files.writeString(pkg.resolve("kernels.py"), """
				import pypto.language as pl

				from .config import ROWS, COLS, HALF


				@pl.jit.inline
				def copy_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				%s
				    return out
				""".formatted(kernelBody.indent(8).stripTrailing()));
		Path entry = pkg.resolve("model.py");
		Files.writeString(entry, ENTRY);
		return Compiler.generate(entry.toString(), ENTRY, CompileOptions.DEFAULT, new ProjectModules(root).forFile(entry));
	}

	@Test
	void anImportedKernelCompilesWithItsModulesConstants() throws Exception {
		Generation g = compile("t = pl.load(x, [0, 0], [ROWS, COLS])\nout = pl.store(t, [0, 0], out)");
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertTrue(g.files().stream().anyMatch(f -> f.path().endsWith("orchestration/model.cpp")), g.files().toString());
	}

	@Test
	void pyptosRefusalInAnImportedKernelIsSaidAtTheCall() throws Exception {
		Generation g = compile("a = pl.load(x, [0, 0], [ROWS, COLS])\nb = pl.load(x, [0, 0], [ROWS, HALF])\n"
				+ "c = pl.add(a, b)\nout = pl.store(c, [0, 0], out)");
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), errors.toString());
		Problem p = errors.get(0);
		assertEquals(10, p.line(), "the call of copy_rows in model.py");
		assertTrue(p.message().contains("in 'copy_rows' (kernels.py:11): "), p.message());
		assertTrue(p.message().contains("requires compatible shapes, but got [64, 128] and [64, 64]"), p.message());
		assertFalse(g.files().stream().anyMatch(f -> f.path().endsWith(".cpp")));
	}
}
