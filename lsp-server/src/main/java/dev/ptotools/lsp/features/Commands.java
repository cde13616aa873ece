package dev.ptotools.lsp.features;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.graph.TaskGraphs;
import dev.ptotools.config.Compilations;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.InvalidParams;
import dev.ptotools.lsp.OpenDocument;
import dev.ptotools.lsp.PtoLanguageServer;

/**
 * The server's commands: explain a rank loop, show the code it generates (per rank and grouped),
 * compile the workspace with progress, show a document's task graphs; and the compile that runs on save.
 */
public final class Commands {

	private final PtoLanguageServer server;

	public Commands(PtoLanguageServer server) {
		this.server = server;
	}

	public Object execute(ExecuteCommandParams params) {
		List<Object> args = params.getArguments() == null ? List.of() : params.getArguments();
		switch (params.getCommand()) {
		case PtoLanguageServer.EXPLAIN_LOOP, PtoLanguageServer.SHOW_GENERATED_CODE:
			checkUriAndLine(params.getCommand(), args);
			break;
		default:
			break;
		}
		switch (params.getCommand()) {
		case PtoLanguageServer.EXPLAIN_LOOP: {
			RankLoop loop = loopAt(args);
			return loop == null ? null : Hovers.explain(loop);
		}
		case PtoLanguageServer.SHOW_GENERATED_CODE:
			return generatedCode(args);
		case PtoLanguageServer.COMPILE_WORKSPACE:
			return compileWorkspace(params.getWorkDoneToken());
		case PtoLanguageServer.SHOW_PASS_DUMPS:
			if (args.isEmpty() || !(args.get(0) instanceof JsonPrimitive p && p.isString()) && !(args.get(0) instanceof String)) {
				throw InvalidParams.error(PtoLanguageServer.SHOW_PASS_DUMPS + " takes [uri] (a document uri); got " + args);
			}
			return passDumps(args);
		case PtoLanguageServer.SHOW_TASK_GRAPH:
			if (args.isEmpty() || !(args.get(0) instanceof JsonPrimitive p && p.isString()) && !(args.get(0) instanceof String)) {
				throw InvalidParams.error(PtoLanguageServer.SHOW_TASK_GRAPH + " takes [uri] (a document uri); got " + args);
			}
			return taskGraph(args);
		default:
			throw InvalidParams.error("unknown command " + params.getCommand());
		}
	}

	/** The arguments [uri, line] of the loop commands: a document uri and a 0-based line, else InvalidParams. */
	private static void checkUriAndLine(String command, List<Object> args) {
		String expected = command + " takes [uri, line] (a document uri and a 0-based line number)";
		if (args.size() < 2) {
			throw InvalidParams.error(expected + "; got " + args.size() + " argument(s)");
		}
		if (!(args.get(0) instanceof JsonPrimitive p && p.isString()) && !(args.get(0) instanceof String)) {
			throw InvalidParams.error(expected + "; the uri is " + args.get(0));
		}
		Object line = args.get(1);
		boolean integral = line instanceof JsonPrimitive p ? p.isNumber() && p.getAsDouble() == Math.rint(p.getAsDouble())
				: line instanceof Integer || line instanceof Long;
		long value = !integral ? -1 : line instanceof JsonPrimitive p ? p.getAsLong() : ((Number) line).longValue();
		if (!integral || value < 0 || value > Integer.MAX_VALUE) {
			throw InvalidParams.error(expected + "; the line is " + line);
		}
	}

	/** The document and rank loop named by [uri, line] arguments. */
	private AnalyzedDocument document(List<Object> args) {
		if (args.isEmpty()) {
			return null;
		}
		OpenDocument doc = server.document(string(args.get(0)));
		return doc == null ? null : server.scheduler().current(doc).join();
	}

	private RankLoop loopAt(List<Object> args) {
		AnalyzedDocument a = document(args);
		if (a == null || !a.usable() || args.size() < 2) {
			return null;
		}
		int line = integer(args.get(1));
		LineMap lines = a.analysis().file().lines();
		int start = lines.lineStart(line + 1);
		int end = lines.lineEnd(a.text(), line + 1);
		return Locator.rankLoopAt(a.analysis(), start, start, end);
	}

	private Object generatedCode(List<Object> args) {
		AnalyzedDocument a = document(args);
		RankLoop loop = loopAt(args);
		if (a == null || loop == null) {
			return null;
		}
		GeneratedCode.Excerpt e = GeneratedCode.excerpt(a, loop);
		JsonObject out = new JsonObject();
		out.addProperty("title", e.title());
		out.addProperty("perRank", e.perRank());
		if (e.grouped() != null) {
			out.addProperty("grouped", e.grouped());
		} else {
			out.add("grouped", com.google.gson.JsonNull.INSTANCE);
		}
		return out;
	}

	/**
	 * The task-graph pages of a document's programs, as pto graph writes them, from the document's
	 * current text: each page's HTML (for a client that shows it, as VS Code's webview does) and the file
	 * it was written to, in a folder of this server's (for a client that opens it in a browser), with the
	 * folder's index. Null for a document that is not open.
	 */
	private Object taskGraph(List<Object> args) {
		AnalyzedDocument a = document(args);
		if (a == null || !a.usable()) {
			return null;
		}
		String name = a.snapshot().path() == null ? a.snapshot().uri() : a.snapshot().path().getFileName().toString();
		TaskGraphs.Result r = TaskGraphs.of(a.analysis(), a.settings().effectiveCompile(a.project()).options(), name);
		JsonObject out = new JsonObject();
		com.google.gson.JsonArray pages = new com.google.gson.JsonArray();
		try {
			TaskGraphs.Site site = TaskGraphs.write(r.pages(), graphFolder(a.snapshot().uri()));
			for (TaskGraphs.WrittenPage p : site.pages()) {
				JsonObject page = new JsonObject();
				page.addProperty("program", p.input().program());
				page.addProperty("path", p.file().toString());
				page.addProperty("html", p.html());
				pages.add(page);
			}
			out.addProperty("index", site.index().toString());
		} catch (java.io.IOException e) {
			throw new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(
					org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode.InternalError,
					"cannot write the task graph pages: " + e.getMessage(), null));
		}
		out.add("pages", pages);
		com.google.gson.JsonArray problems = new com.google.gson.JsonArray();
		r.generation().problems().stream().filter(Problem::isError).forEach(p -> problems.add(p.message()));
		out.add("notCompiled", problems);
		return out;
	}

	/**
	 * The program of each entry of a document after the front end and after every pass, as
	 * {@code pto compile --dump-passes} writes it (pypto's passes_dump/ names and numbering), from the
	 * document's current text: {@code {programs: [{program, dumps: [{file, pass, text}]}], notCompiled}}.
	 */
	private Object passDumps(List<Object> args) {
		AnalyzedDocument a = document(args);
		if (a == null || !a.usable()) {
			return null;
		}
		String name = a.snapshot().path() == null ? a.snapshot().uri() : a.snapshot().path().toString();
		Generation g = dev.ptotools.codegen.Compiler.generate(a.analysis(),
				a.settings().effectiveCompile(a.project()).options().withDumpPasses(true), name);
		java.util.Map<String, com.google.gson.JsonArray> byProgram = new java.util.LinkedHashMap<>();
		for (dev.ptotools.codegen.GeneratedFile f : g.files()) {
			int cut = f.path().indexOf("/passes_dump/");
			if (cut < 0) {
				continue;
			}
			String file = f.path().substring(cut + "/passes_dump/".length());
			JsonObject dump = new JsonObject();
			dump.addProperty("file", file);
			dump.addProperty("pass", passOf(file));
			dump.addProperty("text", f.content());
			byProgram.computeIfAbsent(f.path().substring(0, cut), k -> new com.google.gson.JsonArray()).add(dump);
		}
		com.google.gson.JsonArray programs = new com.google.gson.JsonArray();
		byProgram.forEach((program, dumps) -> {
			JsonObject p = new JsonObject();
			p.addProperty("program", program);
			p.add("dumps", dumps);
			programs.add(p);
		});
		JsonObject out = new JsonObject();
		out.add("programs", programs);
		com.google.gson.JsonArray problems = new com.google.gson.JsonArray();
		g.problems().stream().filter(Problem::isError).forEach(p -> problems.add(p.message()));
		out.add("notCompiled", problems);
		return out;
	}

	/** "03_after_CtrlFlowTransform.py" -> "CtrlFlowTransform"; "00_frontend.py" -> "frontend". */
	static String passOf(String file) {
		String base = file.endsWith(".py") ? file.substring(0, file.length() - 3) : file;
		int after = base.indexOf("_after_");
		return after >= 0 ? base.substring(after + "_after_".length()) : base.substring(base.indexOf('_') + 1);
	}

	/** This server's folder of pages for one document (under the system's temporary folder), emptied first. */
	private Path graphFolder(String uri) throws java.io.IOException {
		synchronized (this) {
			if (graphRoot == null) {
				graphRoot = Files.createTempDirectory("pto-task-graphs");
				graphRoot.toFile().deleteOnExit();
			}
		}
		String key = Integer.toHexString(uri.hashCode());
		String base = uri.substring(uri.lastIndexOf('/') + 1).replaceAll("[^\\p{L}\\p{N}_.-]", "_");
		Path dir = graphRoot.resolve(base + "-" + key);
		if (Files.isDirectory(dir)) {
			try (var old = Files.list(dir)) {
				for (Path f : old.toList()) {
					Files.deleteIfExists(f);
				}
			}
		}
		return dir;
	}

	private Path graphRoot;

	/** On save: the same compile the CLI runs, into the configured output folder. */
	public void compileOnSave(AnalyzedDocument a) {
		if (a == null || !a.usable() || a.snapshot().path() == null
				|| !a.settings().effectiveCodegenOnSave(a.project())) {
			return;
		}
		Path out = outputFolder(a.snapshot().path(), a);
		Path file = a.snapshot().path();
		Generation g = Compilations.generate(file.toString(), a.text(), a.analysis(),
				a.settings().analyzerConfig(a.project()), a.settings().effectiveCompile(a.project()).options())
				.withFile(file);
		CompileResult r = Compilations.write(List.of(g), out);
		report(r, a.snapshot().path(), out);
	}

	private Path outputFolder(Path file, AnalyzedDocument a) {
		Path base = server.workspace().outputBase(file);
		return base.resolve(a.settings().effectiveOutputFolder(a.project()));
	}

	/**
	 * After an on-save compile: errors at a location are already diagnostics of the document (the compile
	 * runs in its analysis), so only those without one (two sources writing one program, a folder that
	 * cannot be written) are shown as a message; "previous outputs kept" only where there are some.
	 */
	private void report(CompileResult r, Path source, Path out) {
		LanguageClient c = server.client();
		List<Problem> errors = r.problems().stream()
				.filter(p -> p.severity() == dev.ptotools.analyzer.diagnostics.Severity.ERROR).toList();
		List<Problem> unlocated = errors.stream().filter(p -> p.line() <= 0).toList();
		if (!unlocated.isEmpty() && c != null) {
			Problem first = unlocated.get(0);
			StringBuilder b = new StringBuilder("pto: ");
			if (first.program() != null) {
				b.append('[').append(first.program()).append("] ");
			}
			b.append("not compiled: ").append(first.message());
			if (first.program() != null && java.nio.file.Files.isDirectory(out.resolve(first.program()))) {
				b.append("; its previous outputs are kept");
			}
			if (unlocated.size() > 1) {
				b.append(" (and ").append(unlocated.size() - 1).append(" more)");
			}
			c.showMessage(new MessageParams(MessageType.Warning, b.toString()));
		}
		server.log(MessageType.Info, "pto: compiled " + source + ": " + r.written().size() + " file(s) written, "
				+ errors.size() + " error(s)" + (errors.size() > unlocated.size() ? " (shown as diagnostics)" : ""));
	}

	private Object compileWorkspace(Either<String, Integer> token) {
		LanguageClient c = server.client();
		Either<String, Integer> progress = token;
		if (progress == null && c != null && server.clientCapabilities().getWindow() != null
				&& Boolean.TRUE.equals(server.clientCapabilities().getWindow().getWorkDoneProgress())) {
			progress = Either.forLeft("pto-compile-" + UUID.randomUUID());
			try {
				c.createProgress(new WorkDoneProgressCreateParams(progress)).get();
			} catch (Exception e) {
				progress = null;
			}
		}
		List<Path> files = new ArrayList<>();
		for (Path folder : server.workspace().folders()) {
			for (Path f : Symbols.pythonFiles(folder)) {
				if (mentionsPypto(f)) {
					files.add(f);
				}
			}
		}
		WorkDoneProgressBegin begin = new WorkDoneProgressBegin();
		begin.setTitle("PTO: compiling the workspace");
		begin.setPercentage(0);
		begin.setCancellable(false);
		notifyProgress(c, progress, Either.forLeft(begin));
		int written = 0;
		int errors = 0;
		for (int i = 0; i < files.size(); i++) {
			Path f = files.get(i);
			OpenDocument open = server.document(f.toUri().toString());
			AnalyzedDocument a = open == null ? null : server.scheduler().current(open).join();
			CompileResult r;
			try {
				String text = a != null ? a.text() : Files.readString(f);
				var settings = server.workspace().settingsFor(f);
				var project = server.workspace().projectFor(f);
				r = Compilations.compileText(f, text, server.workspace().outputBase(f)
						.resolve(settings.effectiveOutputFolder(project)),
						settings.effectiveCompile(project).options());
			} catch (Exception e) {
				errors++;
				continue;
			}
			written += r.written().size();
			errors += (int) r.problems().stream()
					.filter(p -> p.severity() == dev.ptotools.analyzer.diagnostics.Severity.ERROR).count();
			WorkDoneProgressReport report = new WorkDoneProgressReport();
			report.setMessage(f.getFileName() + " (" + (i + 1) + "/" + files.size() + ")");
			report.setPercentage((int) (100L * (i + 1) / Math.max(1, files.size())));
			notifyProgress(c, progress, Either.forLeft(report));
		}
		WorkDoneProgressEnd end = new WorkDoneProgressEnd();
		end.setMessage(written + " file(s) written, " + errors + " error(s)");
		notifyProgress(c, progress, Either.forLeft(end));
		JsonObject out = new JsonObject();
		out.addProperty("files", written);
		out.addProperty("errors", errors);
		out.addProperty("sources", files.size());
		return out;
	}

	private static void notifyProgress(LanguageClient c, Either<String, Integer> token,
			Either<org.eclipse.lsp4j.WorkDoneProgressNotification, Object> value) {
		if (c != null && token != null) {
			c.notifyProgress(new ProgressParams(token, Either.forLeft(value.getLeft())));
		}
	}

	private static boolean mentionsPypto(Path f) {
		try {
			return Files.size(f) < 4_000_000 && Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1).contains("pypto");
		} catch (Exception e) {
			return false;
		}
	}

	private static String string(Object o) {
		return o instanceof JsonPrimitive p ? p.getAsString() : o instanceof JsonElement e ? e.toString() : String.valueOf(o);
	}

	private static int integer(Object o) {
		if (o instanceof JsonPrimitive p && p.isNumber()) {
			return p.getAsInt();
		}
		if (o instanceof Number n) {
			return n.intValue();
		}
		return Integer.parseInt(string(o));
	}
}
