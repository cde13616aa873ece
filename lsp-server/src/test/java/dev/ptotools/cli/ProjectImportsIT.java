package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model package whose entry takes its shapes from the package's config, by every import form: pto check
 * and pto compile read the imported modules (the project root found by its pyproject.toml), from the
 * package's folder and from the entry file alone.
 */
class ProjectImportsIT {

	private static void aPackage(Path root) throws Exception {
		Files.writeString(root.resolve("pyproject.toml"), "[project]\nname = \"model\"\n");
		Path pkg = Files.createDirectories(root.resolve("model"));
		Files.writeString(pkg.resolve("__init__.py"), "");
		Files.writeString(pkg.resolve("config.py"), "__all__ = ['ROWS']\nROWS = 64\nCOLS = 2 * 64\n");
		Files.writeString(pkg.resolve("shapes.py"), "from .config import *\nfrom .config import COLS as WIDTH\n");
		Files.writeString(pkg.resolve("entry.py"), """
				import pypto.language as pl
				import torch

				import model.config as cfg
				from .shapes import ROWS, WIDTH


				@pl.jit
				def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				        t = pl.load(x, [0, 0], [ROWS, cfg.COLS])
				        out = pl.store(t, [0, 0], out)
				    return out


				if __name__ == "__main__":
				    x = torch.empty([ROWS, WIDTH], dtype=torch.float32)
				    scale(x, torch.empty([ROWS, WIDTH], dtype=torch.float32))
				""");
	}

	@Test
	void checkReadsThePackagesModules(@TempDir Path root) throws Exception {
		aPackage(root);
		Pto.Run folder = Pto.run(root, "check", "model");
		assertEquals(0, folder.exit(), folder.toString());
		assertTrue(folder.out().contains("No findings"), folder.toString());
		Pto.Run file = Pto.run(root.resolve("model"), "check", "entry.py");
		assertEquals(0, file.exit(), file.toString());
	}

	@Test
	void compileSpecializesWithTheImportedShapes(@TempDir Path root) throws Exception {
		aPackage(root);
		Pto.Run r = Pto.run(root, "compile", "model", "-o", "out");
		assertEquals(0, r.exit(), r.toString());
		String meta = Files.readString(root.resolve("out/_jit_scale/compiled_meta.json")).replaceAll("\\s+", "");
		assertTrue(meta.contains("\"shape\":[64,128]"), meta);
	}
}
