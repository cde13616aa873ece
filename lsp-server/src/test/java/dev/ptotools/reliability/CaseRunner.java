package dev.ptotools.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.lsp4j.*;

import com.google.gson.JsonPrimitive;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.write.Manifest;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.LspHarness;

/**
 * One fuzz case: the pipeline (parse, analyze, codegen, write) on a text, then every request type at random
 * positions through a live server, whose published findings must equal a whole parse's analysis (it
 * parses the edited document incrementally). Returns a description of the first failure, or null.
 */
final class CaseRunner {

	static final long REQUEST_BOUND_SECONDS = 20;

	/** Program folders written and found whole, over the run (the fuzz summary prints it). */
	static final java.util.concurrent.atomic.AtomicLong FOLDERS_WHOLE = new java.util.concurrent.atomic.AtomicLong();

	private final LspHarness lsp;
	private final String uri;
	private int version = 1;
	private boolean opened;

	CaseRunner(LspHarness lsp, String uri) {
		this.lsp = lsp;
		this.uri = uri;
	}

	/** The pipeline alone, as the CLI runs it. */
	static String pipeline(String text) {
		try {
			Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
			for (var d : a.diagnostics()) {
				if (d.rule().equals(Analyzer.INTERNAL_ERROR)) {
					return "internal error: " + d.message();
				}
			}
			// the compile reports its own internal errors as problems, not as exceptions: they count too
			Generation g = Compiler.generate(a, CompileOptions.DEFAULT, "fuzz.py");
			for (var p : g.problems()) {
				if (p.message().contains("internal error")) {
					return "compile: " + p.message();
				}
			}
			return writtenWhole(g);
		} catch (Throwable t) {
			return "pipeline threw " + t;
		}
	}

	/**
	 * Writes a generation into a fresh folder, as pto compile does, and checks that every program folder
	 * on disk holds exactly that program's files with their generated text (a partial folder is a
	 * failure), and that no program with an error has a folder. Null when it holds.
	 */
	static String writtenWhole(Generation g) throws IOException {
		Path out = Files.createTempDirectory("pto-fuzz-out");
		try {
			CompileResult r = Compiler.write(g, out);
			if (r.problems().stream().anyMatch(p -> !g.problems().contains(p))) {
				return "write: " + r.problems();
			}
			Map<String, Map<String, String>> expected = new TreeMap<>();
			for (GeneratedFile f : g.files()) {
				expected.computeIfAbsent(f.path().substring(0, f.path().indexOf('/')), k -> new TreeMap<>())
						.put(f.path(), f.content());
			}
			Map<String, Map<String, String>> onDisk = new TreeMap<>();
			try (Stream<Path> walk = Files.walk(out)) {
				for (Path file : walk.filter(Files::isRegularFile).toList()) {
					String rel = out.relativize(file).toString().replace('\\', '/');
					if (rel.endsWith(Manifest.FILE) || !rel.contains("/")) {
						continue;
					}
					onDisk.computeIfAbsent(rel.substring(0, rel.indexOf('/')), k -> new TreeMap<>())
							.put(rel, Files.readString(file));
				}
			}
			for (var folder : onDisk.entrySet()) {
				Map<String, String> want = expected.get(folder.getKey());
				if (!folder.getValue().equals(want)) {
					return "partial folder " + folder.getKey() + ": on disk " + folder.getValue().keySet() + ", generated "
							+ (want == null ? "nothing" : want.keySet());
				}
			}
			if (!onDisk.keySet().equals(expected.keySet())) {
				return "folders on disk " + onDisk.keySet() + ", generated " + expected.keySet();
			}
			for (var p : g.problems()) {
				if (p.isError() && p.program() != null && onDisk.containsKey(p.program())) {
					return "folder written for " + p.program() + " although it failed: " + p.message();
				}
			}
			FOLDERS_WHOLE.addAndGet(onDisk.size());
			return null;
		} finally {
			try (Stream<Path> walk = Files.walk(out)) {
				walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
			}
		}
	}

	/** The pipeline, then every request at positions drawn from the mutator. */
	String run(String text, Mutator random) {
		String failure = pipeline(text);
		if (failure != null) {
			return failure;
		}
		try {
			if (!opened) {
				lsp.open(uri, text);
				opened = true;
				version = 1;
			} else {
				lsp.change(uri, ++version, text);
			}
			LineMap lines = LineMap.of(text);
			TextDocumentIdentifier doc = new TextDocumentIdentifier(uri);
			List<CompletableFuture<?>> requests = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				Position p = new Position(random.nextInt(lines.lineCount() + 2), random.nextInt(120));
				Position q = new Position(p.getLine() + random.nextInt(3), random.nextInt(120));
				var td = lsp.server.getTextDocumentService();
				requests.add(td.hover(new HoverParams(doc, p)));
				requests.add(td.codeAction(new CodeActionParams(doc, new Range(p, q), new CodeActionContext(List.of()))));
				requests.add(td.completion(new CompletionParams(doc, p)));
				requests.add(td.definition(new DefinitionParams(doc, p)));
				requests.add(td.references(new ReferenceParams(doc, p, new ReferenceContext(true))));
				requests.add(td.prepareRename(new PrepareRenameParams(doc, p)));
				requests.add(td.rename(new RenameParams(doc, p, "renamed_fn")).exceptionally(e -> null));
				requests.add(lsp.server.getWorkspaceService().executeCommand(new ExecuteCommandParams(
						"pto.explainLoop", List.of(new JsonPrimitive(uri), new JsonPrimitive(p.getLine())))));
				requests.add(lsp.server.getWorkspaceService().executeCommand(new ExecuteCommandParams(
						"pto.showGeneratedCode", List.of(new JsonPrimitive(uri), new JsonPrimitive(p.getLine())))));
			}
			var td = lsp.server.getTextDocumentService();
			requests.add(td.codeLens(new CodeLensParams(doc)));
			requests.add(td.documentSymbol(new DocumentSymbolParams(doc)));
			requests.add(td.semanticTokensFull(new SemanticTokensParams(doc)));
			requests.add(td.foldingRange(new FoldingRangeRequestParams(doc)));
			for (CompletableFuture<?> f : requests) {
				f.get(REQUEST_BOUND_SECONDS, TimeUnit.SECONDS);
			}
			// the server parses the document incrementally: its findings must be a whole parse's (of the text
			// it got: half a surrogate pair does not survive UTF-8, so such a text is not compared)
			List<String> published = DiagnosticKeys.of(lsp.awaitVersion(uri, version));
			List<String> whole = DiagnosticKeys.of(
					Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT));
			if (!hasLoneSurrogate(text) && !published.equals(whole)) {
				return "server: published " + published + " where a whole parse gives " + whole;
			}
			return null;
		} catch (Throwable t) {
			String log = lsp.client.messages.stream().filter(m -> m.getType() == MessageType.Error)
					.map(MessageParams::getMessage).reduce((a, b) -> b).orElse("");
			return "server: " + t + " [server log: " + log + "]";
		}
	}

	private static boolean hasLoneSurrogate(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			} else if (Character.isSurrogate(c)) {
				return true;
			}
		}
		return false;
	}
}
