package dev.ptotools.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.eclipse.lsp4j.DocumentSymbolParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceSymbol;
import org.eclipse.lsp4j.WorkspaceSymbolParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;

/**
 * Only the documents in use keep their whole analysis; the others keep findings, and a request on one
 * analyzes it again with the same answers.
 */
class RetainedAnalysesTest {

	@TempDir
	Path workspace;

	private static String example(String name) throws Exception {
		return Files.readString(Examples.dir().resolve(name));
	}

	private static OpenDocument analyzed(String uri, String text) {
		OpenDocument doc = new OpenDocument(uri, text, 1);
		doc.offer(AnalyzedDocument.of(doc.snapshot(),
				Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT).withoutSyntaxTree(),
				ServerSettings.EMPTY, ProjectConfig.NONE));
		return doc;
	}

	@Test
	void theDocumentUsedLongestAgoLetsGoOfItsAnalysisAndKeepsItsFindings() throws Exception {
		String text = example("ineligible_loops.py");
		RetainedAnalyses retained = new RetainedAnalyses(2);
		OpenDocument a = analyzed("file:///a.py", text);
		OpenDocument b = analyzed("file:///b.py", text);
		OpenDocument c = analyzed("file:///c.py", text);
		retained.use(a);
		retained.use(b);
		retained.use(a); // a is used again: b is now the one used longest ago
		retained.use(c);
		assertNotNull(a.analyzed());
		assertNotNull(c.analyzed());
		assertNull(b.analyzed(), "b let go of its analysis");
		assertTrue(retained.retains(a) && retained.retains(c) && !retained.retains(b));
		AnalyzedDocument kept = b.withFindings();
		assertFalse(kept.analyzed());
		assertEquals(a.analyzed().findings().diagnostics(), kept.findings().diagnostics(), "the findings stay");
		assertEquals(1, kept.version());

		retained.closed(c);
		assertFalse(retained.retains(c));
		retained.use(b); // room again: nobody lets go
		assertNotNull(a.analyzed());
	}

	@Test
	void aRequestOnADocumentNotInUseAnalyzesItAgainWithTheSameAnswers() throws Exception {
		List<String> names = List.of("no_window_host.py", "ineligible_loops.py", "allgather_ranks.py",
				"single_chip.py");
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			PtoLanguageServer server = lsp.implementation();
			List<String> uris = new ArrayList<>();
			List<String> texts = new ArrayList<>();
			int open = RetainedAnalyses.CAPACITY + 2;
			for (int i = 0; i < open; i++) {
				String text = example(names.get(i % names.size()));
				Path file = workspace.resolve("m" + i + ".py");
				Files.writeString(file, text);
				uris.add(file.toUri().toString());
				texts.add(text);
			}
			lsp.open(uris.get(0), texts.get(0));
			lsp.awaitVersion(uris.get(0), 1);
			var symbolsBefore = lsp.server.getTextDocumentService()
					.documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(uris.get(0)))).get(30, TimeUnit.SECONDS);
			assertFalse(symbolsBefore.isEmpty());
			for (int i = 1; i < open; i++) {
				lsp.open(uris.get(i), texts.get(i));
			}
			for (String u : uris) {
				lsp.awaitVersion(u, 1);
			}
			// opened longest ago: the first two let go, the rest keep their analyses
			for (int i = 0; i < open; i++) {
				OpenDocument doc = server.document(uris.get(i));
				assertEquals(i >= 2, doc.analyzed() != null, "document " + i + " keeps its analysis");
				assertNotNull(doc.withFindings(), "document " + i + " keeps its findings");
			}

			// Workspace symbols still list the programs of a document without its analysis.
			List<String> programs = server.scheduler().analyze(server.document(uris.get(1)).snapshot()).analysis().module()
					.programs().stream().map(p -> p.name()).toList();
			assertFalse(programs.isEmpty());
			var found = lsp.server.getWorkspaceService().symbol(new WorkspaceSymbolParams("")).get(30, TimeUnit.SECONDS)
					.getRight();
			for (String program : programs) {
				assertTrue(found.stream().anyMatch(s -> s.getName().equals(program) && uri(s).equals(uris.get(1))),
						program + " of document 1 in " + found);
			}

			// A request on document 0 analyzes it again; document 2, now used longest ago, lets go.
			var symbolsAfter = lsp.server.getTextDocumentService()
					.documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(uris.get(0)))).get(30, TimeUnit.SECONDS);
			assertEquals(symbolsBefore, symbolsAfter);
			assertNotNull(server.document(uris.get(0)).analyzed());
			assertNull(server.document(uris.get(2)).analyzed());

			// An edit to document 1 starts from its findings; what it publishes is a whole analysis's.
			String edited = texts.get(1) + "\n# an edit\n";
			lsp.change(uris.get(1), 2, edited);
			PublishDiagnosticsParams published = lsp.awaitVersion(uris.get(1), 2);
			OpenDocument doc1 = server.document(uris.get(1));
			var whole = server.scheduler().analyze(doc1.snapshot());
			List<String> expected = whole.diagnostics().stream().filter(d -> !Analyzer.isCompileRule(d.rule()))
					.map(d -> d.rule() + "@" + whole.lines().line(d.span().start())).sorted().toList();
			List<String> got = published.getDiagnostics().stream().filter(d -> !Analyzer.isCompileRule(d.getCode().getLeft()))
					.map(d -> d.getCode().getLeft() + "@" + (d.getRange().getStart().getLine() + 1)).sorted().toList();
			assertEquals(expected, got);
			assertFalse(expected.isEmpty(), "the example has findings to compare");
		}
	}

	/**
	 * A request on a document that let go of its analysis analyzes it again, and its compile after: what
	 * was published for the version, the compile's findings included, stands as it is; nothing is sent
	 * again.
	 */
	@Test
	void analyzingADocumentAgainPublishesNothingNew() throws Exception {
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(workspace, null);
			PtoLanguageServer server = lsp.implementation();
			String rejected;
			try (var in = getClass().getResourceAsStream("/e2e/undefined_name.py")) {
				rejected = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
			}
			String first = workspace.resolve("rejected.py").toUri().toString();
			lsp.open(first, rejected);
			lsp.awaitDiagnostics(first, d -> d.getDiagnostics().stream().anyMatch(x -> "PTO500".equals(x.getCode().getLeft())));
			String other = example("single_chip.py");
			for (int i = 0; i < RetainedAnalyses.CAPACITY; i++) {
				String u = workspace.resolve("m" + i + ".py").toUri().toString();
				lsp.open(u, other);
				lsp.awaitVersion(u, 1);
			}
			OpenDocument doc = server.document(first);
			assertNull(doc.analyzed(), "the document opened first let go of its analysis");
			int publishedBefore = publications(lsp, first).size();

			var symbols = lsp.server.getTextDocumentService()
					.documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(first))).get(30, TimeUnit.SECONDS);
			assertFalse(symbols.isEmpty());
			AnalyzedDocument compiled = server.scheduler().compiled(doc).get(30, TimeUnit.SECONDS);
			assertTrue(compiled.diagnostics().stream().anyMatch(d -> d.rule().equals("PTO500")), "analyzed again, compiled");
			assertNotNull(doc.analyzed());
			assertEquals(List.of(), publications(lsp, first).subList(publishedBefore, publications(lsp, first).size()),
					"nothing published again");
		}
	}

	private static List<PublishDiagnosticsParams> publications(LspHarness lsp, String uri) {
		return lsp.client.diagnostics.stream().filter(p -> p.getUri().equals(uri)).toList();
	}

	private static String uri(WorkspaceSymbol s) {
		return s.getLocation().isLeft() ? s.getLocation().getLeft().getUri() : s.getLocation().getRight().getUri();
	}
}
