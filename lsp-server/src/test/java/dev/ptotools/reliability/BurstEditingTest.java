package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.lsp4j.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;
import dev.ptotools.lsp.LspHarness;

/**
 * 1,000 didChange events as fast as the client can send them, interleaved with hover and code-action
 * requests: afterwards the published diagnostics are those of the final text (the pipeline pto check
 * runs), and no diagnostics for an older version were published after a newer one. And an edit sequence
 * sent one version at a time (the server parses the edited document incrementally): every version's
 * diagnostics are those of a whole parse of its text.
 */
class BurstEditingTest {

	@TempDir
	Path workspace;

	@Test
	void thousandEditsEndInTheFinalTextsDiagnostics() throws Exception {
		String base = Files.readString(Examples.dir().resolve("ineligible_loops.py"));
		String uri = workspace.resolve("burst.py").toUri().toString();
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			lsp.open(uri, base);
			TextDocumentIdentifier doc = new TextDocumentIdentifier(uri);
			List<CompletableFuture<?>> requests = new ArrayList<>();
			String text = base;
			for (int v = 2; v <= 1001; v++) {
				// Type and delete characters in the device=0 dispatch: each version differs.
				text = v % 3 == 0 ? base.replace("device=0)", "device=r)") : base + "\n# edit " + v + "\n";
				lsp.change(uri, v, text);
				if (v % 10 == 0) {
					requests.add(lsp.server.getTextDocumentService().hover(new HoverParams(doc, new Position(v % 40, 8))));
					requests.add(lsp.server.getTextDocumentService().codeAction(new CodeActionParams(doc,
							new Range(new Position(v % 40, 0), new Position(v % 40, 40)), new CodeActionContext(List.of()))));
				}
			}
			for (CompletableFuture<?> f : requests) {
				f.get(60, TimeUnit.SECONDS);
			}
			PublishDiagnosticsParams last = lsp.awaitVersion(uri, 1001);
			Analysis expected = Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
			List<String> published = last.getDiagnostics().stream()
					.map(d -> d.getCode().getLeft() + "@" + d.getRange().getStart().getLine() + ":" + d.getMessage()).sorted()
					.toList();
			List<String> checked = expected.diagnostics().stream()
					.map(d -> d.rule() + "@" + (expected.file().lines().line(d.span().start()) - 1) + ":" + d.message()).sorted()
					.toList();
			assertEquals(checked, published);
			assertVersionsInOrder(lsp, uri);
		}
	}

	@Test
	void everyVersionOfAnEditSequenceHasTheWholeParsesDiagnostics() throws Exception {
		String base = dev.ptotools.analyzer.support.GeneratedPrograms.multiRank(300);
		String uri = workspace.resolve("sequence.py").toUri().toString();
		java.util.Random random = new java.util.Random(20261206L);
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			lsp.open(uri, base);
			String text = base;
			String before = base;
			for (int v = 2; v <= 120; v++) {
				String next = dev.ptotools.analyzer.support.EditSequences.next(base, text, before, random);
				before = text;
				text = next;
				lsp.change(uri, v, text);
				// the analyzer's findings (the first publication of a version; the compile's come second)
				List<String> published = DiagnosticKeys.of(lsp.awaitVersion(uri, v));
				Analysis expected = Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
				assertEquals(DiagnosticKeys.of(expected), published, "version " + v + ":\n" + text);
			}
			assertVersionsInOrder(lsp, uri);
			// the valid versions' findings were carried, only the edited programs analyzed again
			assertTrue(lsp.implementation().scheduler().carriedVersions() > 20, "carried: " + lsp.implementation().scheduler().carriedVersions());
		}
	}

	private static void assertVersionsInOrder(LspHarness lsp, String uri) {
		int previous = Integer.MIN_VALUE;
		for (PublishDiagnosticsParams p : lsp.client.diagnostics) {
			if (p.getUri().equals(uri)) {
				assertTrue(p.getVersion() >= previous, "version " + p.getVersion() + " published after " + previous);
				previous = p.getVersion();
			}
		}
	}
}
