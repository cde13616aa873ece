package dev.ptotools.lsp;

import static dev.ptotools.lsp.LspHarness.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.eclipse.lsp4j.DefinitionParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Go-to-definition and hover follow imports into the project's other modules: a constant, a module
 * alias's attribute, a star import, a re-export through a package's __init__, an imported kernel's call,
 * and the import statement's own names and module.
 */
class CrossModuleNavigationTest {

	@TempDir
	Path workspace;

	private LspHarness lsp;
	private Path pkg;
	private String uri;

	private static final String CONFIG = """
			\"\"\"Shapes.\"\"\"
			ROWS = 64
			COLS = 128
			EPS = 1e-6
			""";

	private static final String SHAPES = """
			__all__ = ["DEPTH"]
			DEPTH = 4
			""";

	private static final String NORM = """
			import pypto.language as pl


			@pl.jit.inline
			def scale_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]):
			    return out
			""";

	private static final String MODEL = """
			import pypto.language as pl
			import torch

			import pkg.config as cfg
			from .config import ROWS, COLS
			from .shapes import *
			from .kernels import scale_rows


			@pl.jit
			def model(x: pl.Tensor, out: pl.Out[pl.Tensor]):
			    with pl.at(level=pl.Level.CORE_GROUP):
			        t = pl.load(x, [0, 0], [ROWS, cfg.COLS])
			        out = pl.store(t, [0, 0], out)
			    return out


			if __name__ == "__main__":
			    model(torch.empty([ROWS, COLS * DEPTH], dtype=torch.float32), torch.empty([ROWS, COLS], dtype=torch.float32))
			""";

	@BeforeEach
	void open() throws Exception {
		pkg = workspace.resolve("pkg");
		Files.createDirectories(pkg.resolve("kernels"));
		Files.writeString(pkg.resolve("__init__.py"), "");
		Files.writeString(pkg.resolve("config.py"), CONFIG);
		Files.writeString(pkg.resolve("shapes.py"), SHAPES);
		Files.writeString(pkg.resolve("kernels/__init__.py"), "from .norm import scale_rows\n");
		Files.writeString(pkg.resolve("kernels/norm.py"), NORM);
		Path model = pkg.resolve("model.py");
		Files.writeString(model, MODEL);
		lsp = new LspHarness();
		lsp.initialize(workspace, null);
		uri = model.toUri().toString();
		lsp.open(uri, MODEL);
		lsp.awaitVersion(uri, 1);
	}

	@AfterEach
	void close() throws Exception {
		lsp.close();
	}

	private Location definition(Position p) throws Exception {
		List<? extends Location> found = lsp.server.getTextDocumentService()
				.definition(new DefinitionParams(new TextDocumentIdentifier(uri), p)).get(30, TimeUnit.SECONDS).getLeft();
		assertEquals(1, found.size(), "one definition at " + p + ": " + found);
		return found.get(0);
	}

	private void assertAt(Location l, Path file, String text, String marker) {
		assertEquals(file.toUri().toString(), l.getUri(), l.toString());
		assertEquals(at(text, marker, 0), l.getRange().getStart(), l.toString());
	}

	private String hover(Position p) throws Exception {
		Hover h = lsp.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri), p))
				.get(30, TimeUnit.SECONDS);
		assertNotNull(h, "a hover at " + p);
		return h.getContents().getRight().getValue();
	}

	@Test
	void aConstantUsedInAKernelGoesToItsModule() throws Exception {
		assertAt(definition(at(MODEL, "ROWS, cfg.COLS", 1)), pkg.resolve("config.py"), CONFIG, "ROWS = 64");
		String h = hover(at(MODEL, "ROWS, cfg.COLS", 1));
		assertTrue(h.contains("ROWS = 64") && h.contains("imported from `config.py:2`"), h);
	}

	@Test
	void aModuleAliasesAttributeAndTheAliasItself() throws Exception {
		assertAt(definition(at(MODEL, "COLS])", 1)), pkg.resolve("config.py"), CONFIG, "COLS = 128");
		Location alias = definition(at(MODEL, "cfg.COLS", 1));
		assertEquals(pkg.resolve("config.py").toUri().toString(), alias.getUri());
		assertEquals(new Position(0, 0), alias.getRange().getStart(), "a module is its file's start");
	}

	@Test
	void theImportStatementsNamesAndModule() throws Exception {
		assertAt(definition(at(MODEL, "COLS\nfrom .shapes", 1)), pkg.resolve("config.py"), CONFIG, "COLS = 128");
		Location module = definition(at(MODEL, "config import ROWS", 2));
		assertEquals(pkg.resolve("config.py").toUri().toString(), module.getUri());
	}

	@Test
	void aStarImportsNameAndAReExportedKernel() throws Exception {
		assertAt(definition(at(MODEL, "DEPTH]", 1)), pkg.resolve("shapes.py"), SHAPES, "DEPTH = 4");
		Location kernel = definition(at(MODEL, "scale_rows\n", 1));
		assertAt(kernel, pkg.resolve("kernels/norm.py"), NORM, "scale_rows(x");
		String h = hover(at(MODEL, "scale_rows\n", 1));
		assertTrue(h.contains("def scale_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]):")
				&& h.contains("imported from `kernels/norm.py:5`"), h);
	}

	@Test
	void aLocalOfTheSameNameIsNotTheImport() throws Exception {
		List<? extends Location> found = lsp.server.getTextDocumentService()
				.definition(new DefinitionParams(new TextDocumentIdentifier(uri), at(MODEL, "t = pl.load", 0)))
				.get(30, TimeUnit.SECONDS).getLeft();
		assertTrue(found.stream().noneMatch(l -> !l.getUri().equals(uri)), found.toString());
	}
}
