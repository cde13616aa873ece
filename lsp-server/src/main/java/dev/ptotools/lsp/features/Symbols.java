package dev.ptotools.lsp.features;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.SymbolInformation;
import org.eclipse.lsp4j.SymbolKind;
import org.eclipse.lsp4j.WorkspaceSymbol;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.config.GitIgnores;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;
import dev.ptotools.lsp.OpenDocument;
import dev.ptotools.lsp.PtoLanguageServer;

/** Document symbols (programs and their functions, with each function's kind) and workspace symbols. */
public final class Symbols {

	/** Workspace files already indexed, by path, with the modification time they were read at. */
	private static final Map<Path, Indexed> INDEX = new ConcurrentHashMap<>();
	private static final int MAX_FILES = 20_000;

	/** Open documents' symbols, for the version they were read from (gone with the document). */
	private static final Map<OpenDocument, OpenIndexed> OPEN_INDEX = java.util.Collections
			.synchronizedMap(new java.util.WeakHashMap<>());

	private record OpenIndexed(int version, List<WorkspaceSymbol> symbols) {
	}

	private record Indexed(long modified, List<WorkspaceSymbol> symbols) {
	}

	private Symbols() {
	}

	public static List<Either<SymbolInformation, DocumentSymbol>> documentSymbols(AnalyzedDocument doc) {
		Analysis a = doc.analysis();
		LineMap lines = a.file().lines();
		FunctionKinds kinds = a.facts().get(Keys.FUNCTIONS);
		List<Either<SymbolInformation, DocumentSymbol>> out = new ArrayList<>();
		for (Program p : a.module().programs()) {
			List<DocumentSymbol> children = new ArrayList<>();
			for (Function f : p.functions()) {
				children.add(new DocumentSymbol(f.name(), p.style() == Program.Style.CLASS ? SymbolKind.Method
						: SymbolKind.Function, Lsp.range(lines, f.span()), Lsp.range(lines, f.nameSpan()),
						kinds.of(f).describe()));
			}
			DocumentSymbol program = new DocumentSymbol(p.name(),
					p.style() == Program.Style.CLASS ? SymbolKind.Class : SymbolKind.Module, Lsp.range(lines, p.span()),
					Lsp.range(lines, p.nameSpan()), p.style() == Program.Style.CLASS ? "@pl.program" : "@pl.jit program");
			program.setChildren(children);
			out.add(Either.forRight(program));
		}
		return out;
	}

	public static Either<List<? extends SymbolInformation>, List<? extends WorkspaceSymbol>> workspaceSymbols(
			PtoLanguageServer server, String query) {
		String q = query == null ? "" : query.toLowerCase(Locale.ROOT);
		List<WorkspaceSymbol> out = new ArrayList<>();
		java.util.Set<String> open = new java.util.HashSet<>();
		for (OpenDocument d : server.openDocuments()) {
			open.add(d.uri());
			AnalyzedDocument a = d.analyzed();
			if (a != null && a.usable()) {
				out.addAll(symbols(a.analysis(), d.uri()));
			} else if (a == null && d.withFindings() != null) {
				out.addAll(openIndexed(d)); // a document not in use, which keeps findings only
			}
		}
		for (Path folder : server.workspace().folders()) {
			for (Path file : pythonFiles(folder)) {
				if (!open.contains(Lsp.uri(file))) {
					out.addAll(indexed(file));
				}
			}
		}
		return Either.forRight(out.stream().filter(s -> q.isEmpty() || s.getName().toLowerCase(Locale.ROOT).contains(q))
				.limit(1000).toList());
	}

	/** An open document's symbols from its text as the editor has it, kept for its version. */
	private static List<WorkspaceSymbol> openIndexed(OpenDocument d) {
		OpenDocument.Snapshot snap = d.snapshot();
		OpenIndexed i = OPEN_INDEX.get(d);
		if (i != null && i.version() == snap.version()) {
			return i.symbols();
		}
		List<WorkspaceSymbol> symbols = List.of();
		try {
			symbols = symbols(PythonFrontEnd.get().parse(snap.text()), snap.uri());
		} catch (RuntimeException e) {
			// as for a closed file: no symbols rather than no answer
		}
		OPEN_INDEX.put(d, new OpenIndexed(snap.version(), symbols));
		return symbols;
	}

	/** The symbols of a file parsed outside the analysis scheduler (none unless a PyPTO file). */
	private static List<WorkspaceSymbol> symbols(dev.ptotools.language.ParsedFile parsed, String uri) {
		Analysis a = Analyzer.standard().analyze(parsed, AnalyzerConfig.DEFAULT);
		return a.isPypto() ? symbols(a, uri) : List.of();
	}

	private static List<WorkspaceSymbol> indexed(Path file) {
		try {
			long modified = Files.getLastModifiedTime(file).toMillis();
			Indexed i = INDEX.get(file);
			if (i != null && i.modified() == modified) {
				return i.symbols();
			}
			byte[] bytes = Files.readAllBytes(file);
			List<WorkspaceSymbol> symbols = List.of();
			if (new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains("pypto")) {
				symbols = symbols(PythonFrontEnd.get().parse(bytes), Lsp.uri(file));
			}
			INDEX.put(file, new Indexed(modified, symbols));
			return symbols;
		} catch (IOException | RuntimeException e) {
			return List.of();
		}
	}

	private static List<WorkspaceSymbol> symbols(Analysis a, String uri) {
		LineMap lines = a.file().lines();
		List<WorkspaceSymbol> out = new ArrayList<>();
		for (Program p : a.module().programs()) {
			out.add(new WorkspaceSymbol(p.name(), p.style() == Program.Style.CLASS ? SymbolKind.Class : SymbolKind.Module,
					Either.forLeft(new Location(uri, Lsp.range(lines, p.nameSpan())))));
			for (Function f : p.functions()) {
				WorkspaceSymbol s = new WorkspaceSymbol(f.name(), SymbolKind.Method,
						Either.forLeft(new Location(uri, Lsp.range(lines, f.nameSpan()))));
				s.setContainerName(p.name());
				out.add(s);
			}
		}
		return out;
	}

	/** The .py files of a folder, skipping hidden folders, virtual environments, build outputs and what git ignores. */
	static List<Path> pythonFiles(Path root) {
		List<Path> out = new ArrayList<>();
		GitIgnores gitignores = new GitIgnores();
		try {
			Files.walkFileTree(root, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
					String n = dir.getFileName() == null ? "" : dir.getFileName().toString();
					if (!dir.equals(root) && (n.startsWith(".") || n.equals("node_modules") || n.equals("build_output")
							|| n.equals("__pycache__") || Files.isRegularFile(dir.resolve("pyvenv.cfg"))
							|| gitignores.ignored(dir.toAbsolutePath().normalize(), true))) {
						return FileVisitResult.SKIP_SUBTREE;
					}
					return out.size() > MAX_FILES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
					if (file.toString().endsWith(".py") && attrs.isRegularFile()
							&& !gitignores.ignored(file.toAbsolutePath().normalize(), false)) {
						out.add(file);
					}
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFileFailed(Path file, IOException exc) {
					return FileVisitResult.CONTINUE;
				}
			});
		} catch (IOException e) {
			// an unreadable folder has no symbols
		}
		return out;
	}
}
