package dev.ptotools.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open module's unsaved text is what its importers read: editing a constant of {@code config.py}
 * without saving re-analyzes and re-publishes the open model that imports it; an edit importers cannot see
 * (a comment) re-analyzes nothing; closing the unsaved buffer brings back the disk's text.
 */
class OpenModulesTest {

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
			    scale(torch.empty([64, 128], dtype=torch.float32), torch.empty([64, 128], dtype=torch.float32))
			""";

	private static boolean readsPastTheEnd(PublishDiagnosticsParams p) {
		return p.getDiagnostics().stream().anyMatch(d -> d.getMessage().contains("reads past the end of dimension 0"));
	}

	/** The first publication for uri after the first {@code skip} ones that matches. */
	private static PublishDiagnosticsParams after(LspHarness lsp, String uri, int skip,
			java.util.function.Predicate<PublishDiagnosticsParams> matching) throws Exception {
		long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
		while (System.nanoTime() < deadline) {
			java.util.List<PublishDiagnosticsParams> mine = lsp.client.diagnostics.stream().filter(d -> d.getUri().equals(uri))
					.toList();
			for (int i = skip; i < mine.size(); i++) {
				if (matching.test(mine.get(i))) {
					return mine.get(i);
				}
			}
			Thread.sleep(10);
		}
		throw new AssertionError("no matching publication for " + uri + ": " + lsp.client.diagnostics);
	}

	private static int published(LspHarness lsp, String uri) {
		return (int) lsp.client.diagnostics.stream().filter(d -> d.getUri().equals(uri)).count();
	}

	@Test
	void unsavedEditsOfAnImportedModuleReachItsImporters() throws Exception {
		Path pkg = workspace.resolve("pkg");
		Files.createDirectories(pkg);
		Files.writeString(pkg.resolve("__init__.py"), "");
		Path config = pkg.resolve("config.py");
		Files.writeString(config, "ROWS = 64\nCOLS = 128\n");
		Path model = pkg.resolve("model.py");
		Files.writeString(model, MODEL);
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			PtoLanguageServer server = lsp.implementation();
			String modelUri = model.toUri().toString();
			String configUri = config.toUri().toString();
			lsp.open(modelUri, MODEL);
			lsp.awaitDiagnostics(modelUri, p -> p.getVersion() == 1 && p.getDiagnostics().isEmpty());
			lsp.open(configUri, "ROWS = 64\nCOLS = 128\n");
			lsp.awaitVersion(configUri, 1);

			lsp.change(configUri, 2, "ROWS = 128\nCOLS = 128\n");
			PublishDiagnosticsParams wrong = after(lsp, modelUri, 0, OpenModulesTest::readsPastTheEnd);
			assertEquals(1, wrong.getVersion(), "the model's own text did not change");
			Diagnostic d = wrong.getDiagnostics().stream().filter(x -> x.getMessage().contains("reads past")).findFirst().get();
			assertEquals(9, d.getRange().getStart().getLine(), "at the load");

			int before = server.scheduler().importerReanalyses();
			int seen = published(lsp, modelUri);
			lsp.change(configUri, 3, "# shapes\nROWS = 128\nCOLS = 128\n");
			lsp.change(configUri, 4, "ROWS = 64\nCOLS = 128\n");
			after(lsp, modelUri, seen, p -> !readsPastTheEnd(p));
			assertEquals(before + 1, server.scheduler().importerReanalyses(),
					"the comment changed nothing the model sees (the cut-off); the constant did");

			seen = published(lsp, modelUri);
			lsp.change(configUri, 5, "ROWS = 256\nCOLS = 128\n");
			after(lsp, modelUri, seen, OpenModulesTest::readsPastTheEnd);
			seen = published(lsp, modelUri);
			lsp.server.getTextDocumentService().didClose(new org.eclipse.lsp4j.DidCloseTextDocumentParams(
					new org.eclipse.lsp4j.TextDocumentIdentifier(configUri)));
			PublishDiagnosticsParams disk = after(lsp, modelUri, seen, p -> !readsPastTheEnd(p));
			assertTrue(disk.getDiagnostics().isEmpty(), "closed unsaved: the disk's ROWS = 64 again " + disk.getDiagnostics());
		}
	}
}
