package dev.ptotools.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The editor reads a module's imports of its project's other modules (from the disk): a jit entry whose
 * sample shapes come from {@code config.py} is specialized, as {@code pto check} specializes it; the
 * same module without its config says, once, at the import, that the module is missing.
 */
class ProjectImportsTest {

	@TempDir
	Path workspace;

	private static final String MODEL = """
			import pypto.language as pl
			import torch

			from .config import ROWS, COLS


			@pl.jit
			def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):
			    with pl.at(level=pl.Level.CORE_GROUP):
			        t = pl.load(x, [0, 0], [ROWS, COLS])
			        out = pl.store(t, [0, 0], out)
			    return out


			if __name__ == "__main__":
			    scale(torch.empty([ROWS, COLS], dtype=torch.float32), torch.empty([ROWS, COLS], dtype=torch.float32))
			""";

	private List<String> codes(boolean withConfig) throws Exception {
		Path pkg = workspace.resolve(withConfig ? "with" : "without").resolve("pkg");
		Files.createDirectories(pkg);
		Files.writeString(pkg.resolve("__init__.py"), "");
		if (withConfig) {
			Files.writeString(pkg.resolve("config.py"), "ROWS = 64\nCOLS = 128\n");
		}
		Path model = pkg.resolve("model.py");
		Files.writeString(model, MODEL);
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			String uri = model.toUri().toString();
			lsp.open(uri, MODEL);
			PublishDiagnosticsParams p = lsp.awaitVersion(uri, 1);
			return p.getDiagnostics().stream().map(d -> d.getCode().getLeft() + " " + d.getMessage()).toList();
		}
	}

	@Test
	void importedConstantsShapeTheSampleCall() throws Exception {
		assertEquals(List.of(), codes(true));
	}

	@Test
	void withoutTheModuleTheFindingIsAtTheImport() throws Exception {
		List<String> found = codes(false);
		// one finding, the cause: what the missing names left unknown is its related information
		assertEquals(List.of("PTO411 ModuleNotFoundError: No module named 'pkg.config': running the module stops at this"
				+ " import, before pypto sees any of its programs"), found);
	}
}
