package dev.ptotools.codegen.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.compile.Compilation;

/**
 * The task-graph pages of an analyzed module, from the compile the analysis already holds (the same
 * one pto check, pto compile and the editor run): one page per program that compiled. The CLI's
 * {@code pto graph} and the language server's {@code pto.showTaskGraph} both come here.
 */
public final class TaskGraphs {

	private TaskGraphs() {
	}

	/**
	 * The pages of a module's programs, in compile order ({@code source} names the module), and the
	 * generation they come from: a program gets a page when pto compile would write it, so its problems
	 * say why another has none.
	 */
	public record Result(List<TaskGraphPage.Input> pages, Generation generation) {
	}

	public static Result of(Analysis analysis, CompileOptions options, String source) {
		List<TaskGraphPage.Input> pages = new ArrayList<>();
		Generation generation = Compiler.generate(analysis, options, source);
		if (!analysis.isPypto()) {
			return new Result(pages, generation);
		}
		java.util.Set<String> written = new java.util.HashSet<>();
		generation.files().forEach(f -> written.add(f.path().substring(0, f.path().indexOf('/'))));
		Compilation c = Compiler.compilation(analysis, options);
		RankLoops loops = analysis.facts().has(Keys.RANK_LOOPS) ? analysis.facts().get(Keys.RANK_LOOPS) : null;
		List<RankLoop> rankLoops = loops == null ? List.of() : loops.loops();
		String text = analysis.file() == null ? "" : analysis.file().text();
		for (Compilation.CompiledProgram p : c.programs()) {
			if (written.contains(p.entry().outputName())) {
				pages.add(new TaskGraphPage.Input(p.entry().outputName(), source, text, p.graphs(), rankLoops));
			}
		}
		return new Result(pages, generation);
	}

	/** A page written: its program, its file and its HTML. */
	public record WrittenPage(TaskGraphPage.Input input, java.nio.file.Path file, String html) {
	}

	/** A folder of pages as written: the pages in order, and the index that links them. */
	public record Site(List<WrittenPage> pages, java.nio.file.Path index) {
	}

	/**
	 * Writes the pages and their index into a folder (created if missing), each through a temporary file
	 * and a rename, so that a browser or editor never reads half a page; the CLI's {@code pto graph} and
	 * the language server's {@code pto.showTaskGraph} both write here.
	 */
	public static Site write(List<TaskGraphPage.Input> pages, java.nio.file.Path dir) throws java.io.IOException {
		java.nio.file.Files.createDirectories(dir);
		Map<TaskGraphPage.Input, String> names = fileNames(pages);
		List<WrittenPage> written = new ArrayList<>();
		for (TaskGraphPage.Input p : pages) {
			String html = TaskGraphPage.html(p);
			java.nio.file.Path file = dir.resolve(names.get(p));
			writeWhole(file, html);
			written.add(new WrittenPage(p, file, html));
		}
		java.nio.file.Path index = dir.resolve("index.html");
		writeWhole(index, TaskGraphPage.index(pages, names));
		return new Site(written, index);
	}

	private static void writeWhole(java.nio.file.Path file, String text) throws java.io.IOException {
		java.nio.file.Path tmp = java.nio.file.Files.createTempFile(file.getParent(), ".pto-graph", ".tmp");
		try {
			java.nio.file.Files.writeString(tmp, text, java.nio.charset.StandardCharsets.UTF_8);
			java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
					java.nio.file.StandardCopyOption.ATOMIC_MOVE);
		} finally {
			java.nio.file.Files.deleteIfExists(tmp);
		}
	}

	/**
	 * File names for a folder of pages: {@code <program>.html}, numbered when two modules define programs
	 * of one name, never {@code index.html}.
	 */
	static Map<TaskGraphPage.Input, String> fileNames(List<TaskGraphPage.Input> pages) {
		Map<TaskGraphPage.Input, String> names = new LinkedHashMap<>();
		java.util.Set<String> taken = new java.util.HashSet<>(java.util.Set.of("index"));
		for (TaskGraphPage.Input p : pages) {
			String base = p.program().replaceAll("[^\\p{L}\\p{N}_.-]", "_");
			String name = base;
			for (int n = 2; !taken.add(name.toLowerCase(java.util.Locale.ROOT)); n++) {
				name = base + "-" + n;
			}
			names.put(p, name + ".html");
		}
		return names;
	}
}
