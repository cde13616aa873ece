package dev.ptotools.lsp;

import static dev.ptotools.lsp.LspHarness.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.ptotools.language.support.Examples;

/** Each capability of the server, through JSON-RPC with an LSP4J client. */
class LanguageServerTest {

	@TempDir
	Path workspace;
	LspHarness lsp;
	String text;
	String uri;

	@BeforeEach
	void start() throws Exception {
		text = Files.readString(Examples.dir().resolve("ineligible_loops.py"));
		Path file = workspace.resolve("ineligible_loops.py");
		Files.writeString(file, text);
		uri = file.toUri().toString();
		lsp = new LspHarness();
	}

	@AfterEach
	void stop() throws Exception {
		lsp.close();
	}

	private PublishDiagnosticsParams openExample() throws Exception {
		lsp.initialize(workspace, null);
		lsp.open(uri, text);
		return lsp.awaitVersion(uri, 1);
	}

	private static List<String> codes(PublishDiagnosticsParams p) {
		return p.getDiagnostics().stream().map(d -> d.getCode().getLeft()).sorted().collect(Collectors.toList());
	}

	@Test
	void advertisesItsCapabilities() throws Exception {
		InitializeResult r = lsp.initialize(workspace, null);
		ServerCapabilities c = r.getCapabilities();
		assertNotNull(c.getCodeLensProvider());
		assertNotNull(c.getCodeActionProvider());
		assertNotNull(c.getSemanticTokensProvider());
		assertNotNull(c.getCompletionProvider());
		assertTrue(c.getExecuteCommandProvider().getCommands().contains(PtoLanguageServer.SHOW_GENERATED_CODE));
		assertEquals("pto", r.getServerInfo().getName());
	}

	@Test
	void publishesEveryFindingWithTheDocumentVersion() throws Exception {
		PublishDiagnosticsParams p = openExample();
		assertEquals(1, p.getVersion());
		List<String> codes = codes(p);
		for (String expected : new String[] { "PTO100", "PTO101", "PTO103", "PTO105", "PTO106", "PTO302" }) {
			assertTrue(codes.contains(expected), expected + " missing from " + codes);
		}
		org.eclipse.lsp4j.Diagnostic d105 = p.getDiagnostics().stream().filter(d -> d.getCode().getLeft().equals("PTO105"))
				.findFirst().orElseThrow();
		assertEquals(DiagnosticSeverity.Warning, d105.getSeverity());
		assertEquals("pto", d105.getSource());
		assertEquals(at(text, "device=0", 0).getLine(), d105.getRange().getStart().getLine());
		assertNotNull(d105.getCodeDescription(), "a link to the rule page");
	}

	@Test
	void quickFixRemovesTheLoopsWarning() throws Exception {
		PublishDiagnosticsParams p = openExample();
		org.eclipse.lsp4j.Diagnostic d105 = p.getDiagnostics().stream().filter(d -> d.getCode().getLeft().equals("PTO105"))
				.findFirst().orElseThrow();
		List<Either<Command, CodeAction>> actions = lsp.server.getTextDocumentService().codeAction(
				new CodeActionParams(new TextDocumentIdentifier(uri), d105.getRange(), new CodeActionContext(List.of(d105))))
				.get(30, TimeUnit.SECONDS);
		CodeAction pin = actions.stream().map(Either::getRight).filter(a -> Boolean.TRUE.equals(a.getIsPreferred()))
				.filter(a -> a.getDiagnostics().get(0).getCode().getLeft().equals("PTO105")).findFirst().orElseThrow();
		assertEquals(CodeActionKind.QuickFix, pin.getKind());
		assertTrue(actions.stream().anyMatch(a -> a.getRight().getTitle().equals("Suppress PTO105 on this line")));
		String fixed = LspHarness.apply(text, pin.getEdit().getChanges().get(uri));
		lsp.change(uri, 2, fixed);
		PublishDiagnosticsParams after = lsp.awaitVersion(uri, 2);
		assertTrue(!codes(after).contains("PTO105"), codes(after).toString());
		assertEquals(2, codes(after).stream().filter("PTO100"::equals).count(), "the fixed loop is grouped now");
	}

	/** A generated 600-line module, opened, then one program edited (version 2): its uri and both versions' codes. */
	private record OneProgramEdited(String uri, List<String> before, List<String> after) {
	}

	/** Opens a generated module and turns the loop dispatched to device=0 in its first program into a grouped one. */
	private OneProgramEdited openLargeAndEditOneProgram() throws Exception {
		String module = dev.ptotools.analyzer.support.GeneratedPrograms.multiRank(600);
		Path file = workspace.resolve("large.py");
		Files.writeString(file, module);
		String large = file.toUri().toString();
		lsp.initialize(workspace, null);
		lsp.open(large, module);
		List<String> before = codes(lsp.awaitVersion(large, 1));
		lsp.change(large, 2, module.replaceFirst("device=0\\)", "device=r)"));
		List<String> after = codes(lsp.awaitVersion(large, 2));
		return new OneProgramEdited(large, before, after);
	}

	@Test
	void anEditOfOneProgramIsPublishedFromCarriedFindingsAndRequestsSeeItsAnalysis() throws Exception {
		OneProgramEdited edit = openLargeAndEditOneProgram();
		assertEquals(1, lsp.implementation().scheduler().carriedVersions());
		long grouped = edit.after().stream().filter("PTO100"::equals).count();
		assertEquals(edit.before().stream().filter("PTO100"::equals).count() + 1, grouped);
		// a request right after answers from the whole analysis of version 2, not an older one
		List<String> titles = lsp.server.getTextDocumentService()
				.codeLens(new CodeLensParams(new TextDocumentIdentifier(edit.uri()))).get(30, TimeUnit.SECONDS).stream()
				.map(l -> l.getCommand().getTitle()).toList();
		assertEquals(grouped, titles.stream().filter(t -> t.equals("grouped: all ranks start together")).count());
		assertEquals(2, lsp.implementation().document(edit.uri()).analyzed().version());
	}

	@Test
	void theWholeAnalysisOfACarriedVersionFollowsOnceTheTextRests() throws Exception {
		OneProgramEdited edit = openLargeAndEditOneProgram();
		assertEquals(1, lsp.implementation().scheduler().carriedVersions());
		OpenDocument doc = lsp.implementation().document(edit.uri());
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (doc.analyzed().version() != 2 && System.nanoTime() < deadline) {
			Thread.sleep(20); // no request: only the rest timer starts it
		}
		assertEquals(2, doc.analyzed().version());
		assertTrue(doc.analyzed().analyzed());
	}

	@Test
	void codeLensAboveEveryRankLoop() throws Exception {
		openExample();
		List<? extends CodeLens> lenses = lsp.server.getTextDocumentService()
				.codeLens(new CodeLensParams(new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
		List<String> titles = lenses.stream().map(l -> l.getCommand().getTitle()).toList();
		assertEquals(10, lenses.size(), titles.toString());
		assertEquals(1, titles.stream().filter(t -> t.equals("grouped: all ranks start together")).count());
		assertTrue(titles.stream().anyMatch(t -> t.startsWith("not grouped: self.chip_step is dispatched to device=0")));
		assertEquals(5, titles.stream().filter(t -> t.equals("Show generated code")).count());
	}

	@Test
	void hoverExplainsTheVerdictAndTheCallee() throws Exception {
		openExample();
		Hover loop = lsp.server.getTextDocumentService()
				.hover(new HoverParams(new TextDocumentIdentifier(uri), at(text, "for r in pl.range(4)", 1)))
				.get(30, TimeUnit.SECONDS);
		String md = loop.getContents().getRight().getValue();
		assertTrue(md.contains("not grouped") && md.contains("✗") && md.contains("PTO101"), md);
		// The checklist is uniform: every check is a ✓ or ✗ bullet, none numbered (not "2., 3., -, -, 4.").
		List<String> checks = md.lines().filter(l -> l.startsWith("- ")).toList();
		assertEquals(10, checks.size(), md);
		assertTrue(checks.stream().allMatch(l -> l.matches("- [✓✗] [a-z].*")), md);
		Hover callee = lsp.server.getTextDocumentService()
				.hover(new HoverParams(new TextDocumentIdentifier(uri), at(text, "self.chip_step(data, device=0)", 6)))
				.get(30, TimeUnit.SECONDS);
		String c = callee.getContents().getRight().getValue();
		assertTrue(c.contains("def chip_step(data: pld.DistributedTensor[[SIZE], pl.FP32])"), c);
		assertTrue(c.contains("CHIP orchestrator") && c.contains("level CHIP") && c.contains("role Orchestrator"), c);
	}

	/** A jit function with two specializations (16x64 FP32, 32x64 FP16), for the type views. */
	private static final String TYPED = """
				import pypto.language as pl
				import torch


				@pl.jit
				def double(a: pl.Tensor, c: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				        t = pl.load(a, [0, 0], [16, 64])
				        d = pl.mul(t, 2.0)
				        pl.store(d, [0, 0], c)
				    return c


				def main():
				    double(torch.zeros((16, 64), dtype=torch.float32), torch.zeros((16, 64), dtype=torch.float32))
				    double(torch.zeros((32, 64), dtype=torch.float16), torch.zeros((32, 64), dtype=torch.float16))
				""";

	@Test
	void hoverShowsTheTypePyptosFrontEndGivesAValue() throws Exception {
		String src = TYPED;
		Path file = workspace.resolve("typed.py");
		Files.writeString(file, src);
		String typedUri = file.toUri().toString();
		lsp.initialize(workspace, null);
		lsp.open(typedUri, src);
		lsp.awaitVersion(typedUri, 1);
		// the types come from the compile, the analysis's second step, after the first diagnostics
		Hover first = null;
		for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); first == null && System.nanoTime() < end;) {
			first = lsp.server.getTextDocumentService()
					.hover(new HoverParams(new TextDocumentIdentifier(typedUri), at(src, "pl.mul(t, 2.0)", 7)))
					.get(30, TimeUnit.SECONDS);
			if (first == null) {
				Thread.sleep(20);
			}
		}
		assertNotNull(first, "a hover once compiled");
		String read = first.getContents().getRight().getValue();
		List<String> typeLines = read.lines().filter(l -> l.startsWith("t: ")).toList();
		assertEquals(2, typeLines.size(), read);
		assertTrue(typeLines.get(0).contains("[16, 64], pl.FP32") && typeLines.get(1).contains("[16, 64], pl.FP16"),
				read);
		String param = lsp.server.getTextDocumentService()
				.hover(new HoverParams(new TextDocumentIdentifier(typedUri), at(src, "a: pl.Tensor", 0)))
				.get(30, TimeUnit.SECONDS).getContents().getRight().getValue();
		assertTrue(param.contains("a: pl.Tensor[[16, 64], pl.FP32]") && param.contains("a: pl.Tensor[[32, 64], pl.FP16]"),
				param);

		// the same types inline: after each bound tile's name and each bare jit annotation, the first
		// specialization's, with how many others differ; the client is told to ask again once compiled
		assertTrue(lsp.client.inlayHintRefreshes.get() > 0, "workspace/inlayHint/refresh after the compile");
		List<InlayHint> hints = lsp.server.getTextDocumentService()
				.inlayHint(new InlayHintParams(new TextDocumentIdentifier(typedUri),
						new Range(new Position(0, 0), new Position(src.split("\n").length, 0))))
				.get(30, TimeUnit.SECONDS);
		List<String> shown = hints.stream()
				.map(h -> h.getPosition().getLine() + ":" + h.getPosition().getCharacter() + h.getLabel().getLeft()).toList();
		java.util.function.Function<Position, String> pos = q -> q.getLine() + ":" + q.getCharacter();
		assertEquals(List.of(pos.apply(at(src, "a: pl.Tensor", 12)) + " [16, 64] FP32 (+1)",
				pos.apply(at(src, "c: pl.Out[pl.Tensor]", 20)) + " [16, 64] FP32 (+1)",
				pos.apply(at(src, "t = pl.load", 1)) + ": Tile[16, 64] FP32 Vec (+1)",
				pos.apply(at(src, "d = pl.mul", 1)) + ": Tile[16, 64] FP32 Vec (+1)"), shown);
		assertTrue(hints.get(2).getTooltip().getRight().getValue().contains("t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]"),
				hints.get(2).getTooltip().getRight().getValue());
	}

	@Test
	void theSettingPicksTheSpecializationTheInlayHintsShow() throws Exception {
		lsp.initialize(workspace,
				com.google.gson.JsonParser.parseString("{\"settings\": {\"inlayHintSpecialization\": \"_jit_double__2\"}}"));
		String src = TYPED;
		Path file = workspace.resolve("typed.py");
		Files.writeString(file, src);
		String u = file.toUri().toString();
		lsp.open(u, src);
		lsp.awaitVersion(u, 1);
		List<InlayHint> hints = List.of();
		for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); hints.isEmpty() && System.nanoTime() < end;) {
			hints = lsp.server.getTextDocumentService()
					.inlayHint(new InlayHintParams(new TextDocumentIdentifier(u), new Range(new Position(0, 0), new Position(999, 0))))
					.get(30, TimeUnit.SECONDS);
			if (hints.isEmpty()) {
				Thread.sleep(20);
			}
		}
		// the second sample call's types: [32, 64] FP16 tensors (loaded 16 rows at a time), the first's in the tooltip
		assertEquals(List.of(" [32, 64] FP16 (+1)", " [32, 64] FP16 (+1)", ": Tile[16, 64] FP16 Vec (+1)",
				": Tile[16, 64] FP16 Vec (+1)"), hints.stream().map(h -> h.getLabel().getLeft()).toList());
		String tip = hints.get(2).getTooltip().getRight().getValue();
		assertTrue(tip.indexOf("_jit_double__2") < tip.indexOf("_jit_double\n"), tip);
	}

	@Test
	void inlayHintsAreOffWithTheSettingOff() throws Exception {
		lsp.initialize(workspace, com.google.gson.JsonParser.parseString("{\"settings\": {\"inlayHints\": false}}"));
		String src = TYPED;
		Path file = workspace.resolve("typed.py");
		Files.writeString(file, src);
		String u = file.toUri().toString();
		lsp.open(u, src);
		lsp.awaitVersion(u, 1);
		// the compile step's hover says it has the types that the hints would show
		for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); System.nanoTime() < end;) {
			if (lsp.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(u),
					at(src, "pl.mul(t, 2.0)", 7))).get(30, TimeUnit.SECONDS) != null) {
				break;
			}
			Thread.sleep(20);
		}
		List<InlayHint> hints = lsp.server.getTextDocumentService()
				.inlayHint(new InlayHintParams(new TextDocumentIdentifier(u), new Range(new Position(0, 0), new Position(999, 0))))
				.get(30, TimeUnit.SECONDS);
		assertEquals(List.of(), hints);
	}

	@Test
	void symbolsDefinitionReferencesAndRename() throws Exception {
		openExample();
		List<Either<SymbolInformation, DocumentSymbol>> symbols = lsp.server.getTextDocumentService()
				.documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
		DocumentSymbol program = symbols.get(0).getRight();
		assertEquals("Reasons", program.getName());
		assertEquals(List.of("chip_step", "host_orch"), program.getChildren().stream().map(DocumentSymbol::getName).toList());
		assertTrue(program.getChildren().get(1).getDetail().startsWith("HOST orchestrator"));

		Position call = at(text, "self.chip_step(data, device=0)", 6);
		List<? extends Location> def = lsp.server.getTextDocumentService()
				.definition(new DefinitionParams(new TextDocumentIdentifier(uri), call)).get(30, TimeUnit.SECONDS).getLeft();
		assertEquals(at(text, "def chip_step", 4).getLine(), def.get(0).getRange().getStart().getLine());
		List<? extends Location> refs = lsp.server.getTextDocumentService()
				.references(new ReferenceParams(new TextDocumentIdentifier(uri), call, new ReferenceContext(true)))
				.get(30, TimeUnit.SECONDS);
		assertEquals(6, refs.size(), "the definition and five dispatches");
		WorkspaceEdit rename = lsp.server.getTextDocumentService()
				.rename(new RenameParams(new TextDocumentIdentifier(uri), call, "chip_run")).get(30, TimeUnit.SECONDS);
		String renamed = LspHarness.apply(text, rename.getChanges().get(uri));
		assertTrue(renamed.contains("def chip_run(") && !renamed.contains("chip_step"), renamed);

		// a parameter: its declaration, and its reads in its own function
		Position flag = at(text, "if flag > 0", 3);
		List<? extends Location> param = lsp.server.getTextDocumentService()
				.definition(new DefinitionParams(new TextDocumentIdentifier(uri), flag)).get(30, TimeUnit.SECONDS).getLeft();
		assertEquals(1, param.size(), "a parameter has a definition");
		assertEquals(at(text, "flag: pl.Scalar", 0), param.get(0).getRange().getStart());
		List<? extends Location> flagRefs = lsp.server.getTextDocumentService()
				.references(new ReferenceParams(new TextDocumentIdentifier(uri), flag, new ReferenceContext(true)))
				.get(30, TimeUnit.SECONDS);
		assertEquals(2, flagRefs.size(), "the parameter and its one read: " + flagRefs);

		Either<List<? extends SymbolInformation>, List<? extends WorkspaceSymbol>> ws = lsp.server.getWorkspaceService()
				.symbol(new WorkspaceSymbolParams("host")).get(30, TimeUnit.SECONDS);
		assertTrue(ws.getRight().stream().anyMatch(s -> s.getName().equals("host_orch")));
	}

	@Test
	void completionOfMembersFunctionsAndDecoratorKeywords() throws Exception {
		openExample();
		String typed = text.replace("        return 0\n", "        x = pld.\n        y = pl.\n        self.\n        return 0\n");
		lsp.change(uri, 2, typed);
		assertLabels(typed, "x = pld.", 8, "world_size", "window", "tensor", "system");
		assertLabels(typed, "y = pl.", 7, "range", "parallel", "create_tensor", "FP32");
		assertLabels(typed, "        self.\n", 13, "chip_step", "host_orch");
		CompletionItem range = items(typed, "y = pl.", 7).stream().filter(i -> i.getLabel().equals("range")).findFirst()
				.orElseThrow();
		assertTrue(range.getDetail().startsWith("pl.range("), range.getDetail());
		String decorated = text.replace("@pl.function(type=pl.FunctionType.Orchestration)", "@pl.function(");
		lsp.change(uri, 3, decorated);
		assertLabels(decorated, "@pl.function(\n", 13, "type=", "level=", "role=");
	}

	private List<CompletionItem> items(String typed, String marker, int delta) throws Exception {
		return lsp.server.getTextDocumentService()
				.completion(new CompletionParams(new TextDocumentIdentifier(uri), at(typed, marker, delta)))
				.get(30, TimeUnit.SECONDS).getRight().getItems();
	}

	private void assertLabels(String typed, String marker, int delta, String... expected) throws Exception {
		List<String> labels = items(typed, marker, delta).stream().map(CompletionItem::getLabel).toList();
		for (String e : expected) {
			assertTrue(labels.contains(e), e + " missing from " + labels);
		}
	}

	@Test
	void semanticTokensAndFolding() throws Exception {
		openExample();
		SemanticTokens tokens = lsp.server.getTextDocumentService()
				.semanticTokensFull(new SemanticTokensParams(new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
		assertTrue(tokens.getData().size() >= 5 * 10, "tokens: " + tokens.getData().size());
		assertEquals(0, tokens.getData().size() % 5);
		List<FoldingRange> folds = lsp.server.getTextDocumentService()
				.foldingRange(new FoldingRangeRequestParams(new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
		assertTrue(folds.size() >= 8, folds.toString());
	}

	@Test
	void findingsOfDslTextGivenToPlParseAreShownInsideTheString() throws Exception {
		String host = """
				import textwrap

				import pypto.language as pl

				PROGRAM = pl.parse(
				    textwrap.dedent(
				        \"\"\"
				        @pl.program
				        class P:
				            @pl.function(type=pl.FunctionType.Orchestration)
				            def chip(self, x: pl.Tensor[[64], pl.FP32]):
				                return x

				            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				            def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
				                for r in pl.parallel(pld.world_size()):
				                    self.chip(x[r], device=r)
				                return x
				        \"\"\"
				    )
				)
				""";
		String embedded = workspace.resolve("embedded.py").toUri().toString();
		lsp.initialize(workspace, null);
		lsp.open(embedded, host);
		PublishDiagnosticsParams p = lsp.awaitVersion(embedded, 1);
		org.eclipse.lsp4j.Diagnostic d109 = p.getDiagnostics().stream()
				.filter(d -> d.getCode().getLeft().equals("PTO109")).findFirst().orElseThrow();
		assertEquals(at(host, "pl.parallel", 0), d109.getRange().getStart(), "on pl.parallel, inside the string");
		assertEquals(at(host, "pl.parallel", "pl.parallel".length()), d109.getRange().getEnd());
		List<Either<Command, CodeAction>> actions = lsp.server.getTextDocumentService().codeAction(
				new CodeActionParams(new TextDocumentIdentifier(embedded), d109.getRange(),
						new CodeActionContext(List.of(d109))))
				.get(30, TimeUnit.SECONDS);
		CodeAction toRange = actions.stream().map(Either::getRight)
				.filter(a -> a.getTitle().equals("Replace pl.parallel by pl.range")).findFirst().orElseThrow();
		String fixed = LspHarness.apply(host, toRange.getEdit().getChanges().get(embedded));
		lsp.change(embedded, 2, fixed);
		PublishDiagnosticsParams after = lsp.awaitVersion(embedded, 2);
		assertEquals(List.of("PTO100"), codes(after), "the loop in the string is grouped now");
		assertEquals(at(fixed, "for r in pl.range", 0), after.getDiagnostics().get(0).getRange().getStart());
	}

	@Test
	void closingClearsDiagnosticsAndOtherPythonGetsNone() throws Exception {
		openExample();
		lsp.server.getTextDocumentService().didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
		lsp.awaitDiagnostics(uri, d -> d.getDiagnostics().isEmpty());
		String plain = workspace.resolve("plain.py").toUri().toString();
		lsp.open(plain, "import os\nx = (\n");
		PublishDiagnosticsParams p = lsp.awaitVersion(plain, 1);
		assertEquals(List.of(), p.getDiagnostics(), "files that do not import pypto get nothing from us");
	}

	@Test
	void onlyTheNewestVersionIsPublishedAfterABurst() throws Exception {
		openExample();
		for (int v = 2; v <= 40; v++) {
			lsp.change(uri, v, text + "\n# edit " + v + "\n");
		}
		lsp.awaitVersion(uri, 40);
		int last = Integer.MIN_VALUE;
		for (PublishDiagnosticsParams p : lsp.client.diagnostics) {
			if (p.getUri().equals(uri)) {
				assertTrue(p.getVersion() >= last, "version " + p.getVersion() + " after " + last);
				last = p.getVersion();
			}
		}
		long published = lsp.client.diagnostics.stream().filter(p -> p.getUri().equals(uri)).count();
		assertTrue(published < 20, "edits are debounced: " + published + " publications for 40 versions");
	}

	@Test
	void settingsFromInitializationOptionsAndPyproject() throws Exception {
		Files.writeString(workspace.resolve("pyproject.toml"), "[tool.pto]\ndisable = [\"PTO103\"]\n");
		JsonElement init = JsonParser.parseString("{\"settings\": {\"severities\": {\"PTO105\": \"error\"}}}");
		lsp.initialize(workspace, init);
		lsp.open(uri, text);
		PublishDiagnosticsParams p = lsp.awaitVersion(uri, 1);
		assertTrue(!codes(p).contains("PTO103"), codes(p).toString());
		assertEquals(DiagnosticSeverity.Error, p.getDiagnostics().stream()
				.filter(d -> d.getCode().getLeft().equals("PTO105")).findFirst().orElseThrow().getSeverity());
		lsp.client.configuration = JsonParser.parseString("{\"disabledRules\": [\"PTO105\"]}");
		lsp.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(new JsonObject()));
		lsp.awaitDiagnostics(uri, d -> !codes(d).contains("PTO105") && !codes(d).isEmpty());
	}

	@Test
	void rulesAreNamedByNameAndWhatNamesNoRuleIsAWarning() throws Exception {
		Files.writeString(workspace.resolve("pyproject.toml"),
				"[tool.pto]\ndisable = [\"conditional-dispatch\", \"no-such-rule\"]\n");
		JsonElement settings = JsonParser.parseString(
				"{\"severities\": {\"dispatch-not-pinned\": \"error\"}, \"disabledRules\": [\"PTO1O1\"]}");
		lsp.client.configuration = settings;
		lsp.initialize(workspace, JsonParser.parseString("{\"settings\": " + settings + "}"));
		lsp.open(uri, text);
		PublishDiagnosticsParams p = lsp.awaitVersion(uri, 1);
		assertTrue(!codes(p).contains("PTO103") && codes(p).contains("PTO101"), codes(p).toString());
		assertEquals(DiagnosticSeverity.Error, p.getDiagnostics().stream()
				.filter(d -> d.getCode().getLeft().equals("PTO105")).findFirst().orElseThrow().getSeverity());
		// the unknown names are shown to the user (not only logged), the editor's and pyproject.toml's
		List<String> warnings = lsp.awaitShown(m -> m.getType() == MessageType.Warning, 2);
		assertTrue(warnings.stream().anyMatch(w -> w.contains("pto settings: pto.disabledRules: 'PTO1O1' matches no rule")),
				warnings.toString());
		assertTrue(warnings.stream().anyMatch(w -> w.contains("pyproject.toml: tool.pto.disable: 'no-such-rule' matches no rule")),
				warnings.toString());
	}

	@Test
	void eachWorkspaceFolderHasItsOwnSettings() throws Exception {
		Path a = Files.createDirectories(workspace.resolve("a"));
		Path b = Files.createDirectories(workspace.resolve("b"));
		lsp.client.folderConfiguration.put(a.toUri().toString(), JsonParser.parseString("{\"disabledRules\": [\"PTO105\"]}"));
		lsp.client.folderConfiguration.put(b.toUri().toString(), JsonParser.parseString("{\"severities\": {\"PTO105\": \"error\"}}"));
		lsp.initialize(List.of(a, b), null);
		String ua = a.resolve("x.py").toUri().toString();
		String ub = b.resolve("x.py").toUri().toString();
		lsp.open(ua, text);
		lsp.open(ub, text);
		lsp.awaitDiagnostics(ua, d -> !codes(d).isEmpty() && !codes(d).contains("PTO105"));
		lsp.awaitDiagnostics(ub, d -> d.getDiagnostics().stream()
				.anyMatch(x -> x.getCode().getLeft().equals("PTO105") && x.getSeverity() == DiagnosticSeverity.Error));
	}

	@Test
	void configurationThatChangesNothingIsNotReanalyzed() throws Exception {
		openExample();
		// both steps of version 1 done (the analyzer's findings, then the compile's) before the configuration arrives
		PtoLanguageServer server = lsp.implementation();
		server.scheduler().compiled(server.document(uri)).get(30, TimeUnit.SECONDS);
		long published = publishesOf(1);
		// What Neovim does after initialize: the same (empty) settings again, then the server pulls them.
		lsp.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(new JsonObject()));
		lsp.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(new JsonObject()));
		// Analyses run one at a time in order: once version 2 is published, any re-analysis of 1 was too.
		lsp.change(uri, 2, text + "\n");
		lsp.awaitVersion(uri, 2);
		assertEquals(0, server.scheduler().reanalyzedVersions(), "nothing analyzed again for the configuration");
		assertEquals(published, publishesOf(1));

		// A configuration that changes something does analyze again, and publishes what changed.
		JsonElement disabling = JsonParser.parseString("{\"disabledRules\": [\"PTO302\"]}");
		lsp.client.configuration = disabling; // what the server pulls after the notification
		lsp.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(disabling));
		lsp.awaitDiagnostics(uri, d -> d.getVersion() == 2
				&& d.getDiagnostics().stream().noneMatch(x -> "PTO302".equals(x.getCode().getLeft())));
		assertTrue(server.scheduler().reanalyzedVersions() >= 1);
	}

	private long publishesOf(int version) {
		return lsp.client.diagnostics.stream()
				.filter(p -> p.getUri().equals(uri) && p.getVersion() != null && p.getVersion() == version).count();
	}

	@Test
	void commandsExplainShowCodeAndCompileTheWorkspace() throws Exception {
		// Without the tensor created inside a loop (PTO302), the example compiles.
		text = text.replace("            scratch = pl.create_tensor([SIZE], dtype=pl.FP32)\n", "");
		Files.writeString(workspace.resolve("ineligible_loops.py"), text);
		openExample();
		int line = at(text, "for r in pl.range(4)", 0).getLine();
		List<Object> args = List.of(new JsonPrimitive(uri), new JsonPrimitive(line));
		Object explained = lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.EXPLAIN_LOOP, args)).get(30, TimeUnit.SECONDS);
		assertTrue(String.valueOf(explained).contains("PTO101"), String.valueOf(explained));
		JsonObject code = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_GENERATED_CODE, args)).get(30, TimeUnit.SECONDS));
		assertTrue(code.get("perRank").getAsString().contains("_submit_chip("), code.toString());
		assertTrue(!code.has("grouped") || code.get("grouped").isJsonNull(), "a loop that is not grouped has no grouped form");
		int groupedLine = at(text, "for r in pl.range(n)", 0).getLine();
		JsonObject grouped = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_GENERATED_CODE,
						List.of(new JsonPrimitive(uri), new JsonPrimitive(groupedLine))))
				.get(30, TimeUnit.SECONDS));
		assertTrue(grouped.get("grouped").getAsString().contains("_submit_chip_group("), grouped.toString());
		// The title names the loop; the clients add "(per rank)" / "(grouped)" to their two views.
		for (JsonObject result : List.of(code, grouped)) {
			String title = result.get("title").getAsString();
			assertTrue(title.matches("Reasons\\.host_orch: rank loop at line \\d+"), title);
		}
		JsonObject compiled = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.COMPILE_WORKSPACE, List.of()))
				.get(60, TimeUnit.SECONDS));
		assertEquals(1, compiled.get("sources").getAsInt(), compiled.toString());
		assertTrue(lsp.client.progress.size() >= 2, "begin/report/end progress");
	}

	@Test
	void showTaskGraphWritesThePagesOfTheDocumentAsItIsNow() throws Exception {
		text = text.replace("            scratch = pl.create_tensor([SIZE], dtype=pl.FP32)\n", "");
		openExample();
		JsonObject graph = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_TASK_GRAPH, List.of(new JsonPrimitive(uri))))
				.get(30, TimeUnit.SECONDS));
		assertEquals(1, graph.getAsJsonArray("pages").size(), graph.toString());
		JsonObject page = graph.getAsJsonArray("pages").get(0).getAsJsonObject();
		assertEquals("Reasons", page.get("program").getAsString());
		String html = page.get("html").getAsString();
		assertEquals(html, Files.readString(Path.of(page.get("path").getAsString())), "the page written is the one returned");
		assertTrue(html.contains("data-level=\"host\"") && html.contains("class=\"task kind-chip"), html);
		assertTrue(html.contains("rank-loop staggered"), "the example's loops are not grouped");
		assertTrue(Files.readString(Path.of(graph.get("index").getAsString())).contains("Reasons.html"));
		assertEquals(0, graph.getAsJsonArray("notCompiled").size(), graph.toString());
		// an unsaved edit that breaks the program: no page, and the reason
		lsp.change(uri, 2, text.replace("for r in pl.range(4):", "for r in pl.range(4):\n            scratch = pl.create_tensor([SIZE], dtype=pl.FP32)"));
		lsp.awaitVersion(uri, 2);
		JsonObject broken = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_TASK_GRAPH, List.of(new JsonPrimitive(uri))))
				.get(30, TimeUnit.SECONDS));
		assertEquals(0, broken.getAsJsonArray("pages").size(), broken.toString());
		assertTrue(broken.getAsJsonArray("notCompiled").toString().contains("PTO302"), broken.toString());
		assertThrows(ExecutionException.class, () -> lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_TASK_GRAPH, List.of())).get(30, TimeUnit.SECONDS));
	}

	@Test
	void showPassDumpsGivesTheProgramAfterEveryPassOfTheDocumentAsItIsNow() throws Exception {
		text = text.replace("            scratch = pl.create_tensor([SIZE], dtype=pl.FP32)\n", "");
		openExample();
		JsonObject dumps = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_PASS_DUMPS, List.of(new JsonPrimitive(uri))))
				.get(60, TimeUnit.SECONDS));
		assertEquals(1, dumps.getAsJsonArray("programs").size(), dumps.toString().substring(0, 300));
		JsonObject program = dumps.getAsJsonArray("programs").get(0).getAsJsonObject();
		assertEquals("Reasons", program.get("program").getAsString());
		var list = program.getAsJsonArray("dumps");
		JsonObject first = list.get(0).getAsJsonObject();
		assertEquals("00_frontend.py", first.get("file").getAsString());
		assertEquals("frontend", first.get("pass").getAsString());
		assertTrue(first.get("text").getAsString().contains("class Reasons:"), first.get("text").getAsString());
		List<String> passes = new java.util.ArrayList<>();
		list.forEach(d -> passes.add(d.getAsJsonObject().get("pass").getAsString()));
		assertTrue(passes.indexOf("ConvertToSSA") > passes.indexOf("UnrollLoops") && passes.indexOf("UnrollLoops") > 0, passes.toString());
		// pypto's numbering: the file of each pass is NN_after_<Pass>.py
		list.forEach(d -> {
			JsonObject o = d.getAsJsonObject();
			assertTrue(o.get("file").getAsString().equals("00_frontend.py")
					|| o.get("file").getAsString().matches("\\d\\d_after_" + o.get("pass").getAsString() + "\\.py"), o.get("file").getAsString());
		});
		assertThrows(ExecutionException.class, () -> lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_PASS_DUMPS, List.of(new JsonPrimitive(7))))
				.get(30, TimeUnit.SECONDS));
	}

	/** A @pl.jit.host entry's files go to _jit_<entry>/, not to a folder named after the function. */
	@Test
	void showGeneratedCodeOfAJitHostEntry() throws Exception {
		String jit = """
				import pypto.language as pl
				import pypto.language.distributed as pld
				import torch

				RANKS = 2


				@pl.jit
				def per_rank(x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
				    return y


				@pl.jit.host
				def ranks(x: pl.Tensor[[RANKS, 8, 8], pl.FP32], y: pl.Out[pl.Tensor[[RANKS, 8, 8], pl.FP32]]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)


				ranks(torch.zeros((RANKS, 8, 8), dtype=torch.float32), torch.zeros((RANKS, 8, 8), dtype=torch.float32))
				""";
		Path file = workspace.resolve("jit_host.py");
		Files.writeString(file, jit);
		String jitUri = file.toUri().toString();
		lsp.initialize(workspace, null);
		lsp.open(jitUri, jit);
		lsp.awaitVersion(jitUri, 1);
		int line = at(jit, "for r in pl.range", 0).getLine();
		JsonObject code = json(lsp.server.getWorkspaceService()
				.executeCommand(new ExecuteCommandParams(PtoLanguageServer.SHOW_GENERATED_CODE,
						List.of(new JsonPrimitive(jitUri), new JsonPrimitive(line))))
				.get(30, TimeUnit.SECONDS));
		assertTrue(code.get("perRank").getAsString().contains("_submit_chip("), code.toString());
		assertTrue(code.get("grouped").getAsString().contains("_submit_chip_group("), code.toString());
		assertTrue(!code.get("title").getAsString().contains("not compiled"), code.toString());
	}

	/** Command results arrive as untyped JSON (maps); make them a JsonObject again. */
	private static JsonObject json(Object result) {
		return new com.google.gson.Gson().toJsonTree(result).getAsJsonObject();
	}

	@Test
	void saveWritesTheCompiledOutputs() throws Exception {
		String good = Files.readString(Examples.dir().resolve("no_window_host.py"));
		Path file = workspace.resolve("no_window_host.py");
		Files.writeString(file, good);
		String u = file.toUri().toString();
		lsp.initialize(workspace, null);
		lsp.open(u, good);
		lsp.awaitVersion(u, 1);
		lsp.server.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(u)));
		Path out = workspace.resolve("build_output/Broadcast/orchestration/host_orch.py");
		long deadline = System.currentTimeMillis() + 30_000;
		while (!Files.exists(out) && System.currentTimeMillis() < deadline) {
			Thread.sleep(50);
		}
		assertTrue(Files.exists(out), "on-save codegen wrote " + out);
	}

	@Test
	void unknownDocumentsAndWildPositionsAreAnswered() throws Exception {
		lsp.initialize(workspace, null);
		TextDocumentIdentifier nobody = new TextDocumentIdentifier("file:///nowhere/x.py");
		assertNull(lsp.server.getTextDocumentService().hover(new HoverParams(nobody, new Position(3, 3))).get(10,
				TimeUnit.SECONDS));
		assertEquals(List.of(), lsp.server.getTextDocumentService().codeLens(new CodeLensParams(nobody)).get(10,
				TimeUnit.SECONDS));
		lsp.open(uri, text);
		lsp.awaitVersion(uri, 1);
		Hover far = lsp.server.getTextDocumentService()
				.hover(new HoverParams(new TextDocumentIdentifier(uri), new Position(10_000, 10_000))).get(10, TimeUnit.SECONDS);
		assertNull(far);
		lsp.server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
				new VersionedTextDocumentIdentifier("file:///never/opened.py", 3),
				List.of(new TextDocumentContentChangeEvent("x"))));
		assertNotNull(lsp.server.getTextDocumentService()
				.documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(uri))).get(10, TimeUnit.SECONDS));
	}

	@Test
	void shutdownThenExitIsZeroAndExitAloneIsOne() throws Exception {
		lsp.initialize(workspace, null);
		lsp.server.shutdown().get(10, TimeUnit.SECONDS);
		lsp.server.exit();
		assertEquals(0, lsp.exitCode.get(10, TimeUnit.SECONDS));
		try (LspHarness other = new LspHarness()) {
			other.initialize(workspace, null);
			other.server.exit();
			assertEquals(1, other.exitCode.get(10, TimeUnit.SECONDS));
		}
	}
}
