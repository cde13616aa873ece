package dev.ptotools.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.graph.TaskGraphPage;
import dev.ptotools.codegen.graph.TaskGraphs;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.source.DecodedSource;

/**
 * {@code pto graph}: the task graph of every orchestration of every program, as self-contained HTML
 * pages (one per program, and an index), from the same compile as {@code pto compile}.
 */
@Command(name = "graph", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
		description = { "Write the task graph of each program as an HTML page: the tasks each orchestration submits,"
				+ " the loops around them, their dependencies, and rank loops as one group publication or per-rank"
				+ " submissions with the reason.",
				"One page per program (<program>.html) and index.html in the output folder; the pages load nothing"
						+ " from the network." },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:the pages were written", "1:a program was not compiled because of errors (its page is missing)",
				"2:usage error, a missing or unreadable input, an unwritable folder, or an internal error" })
public final class GraphCommand implements Callable<Integer> {

	@Parameters(paramLabel = "PATHS", arity = "0..*", description = "Files and folders (default: the current directory).")
	List<Path> paths = new ArrayList<>();

	@Option(names = { "-o", "--output-dir" }, paramLabel = "DIR", defaultValue = "task_graphs",
			description = "Folder for the pages (default: ${DEFAULT-VALUE}).")
	Path outDir;

	@Mixin
	CompileFlags flags = new CompileFlags();

	@Option(names = "--exclude", paramLabel = "GLOB", split = ",", description = "Skip paths matching GLOB (as for check).")
	List<String> exclude = new ArrayList<>();

	@Mixin
	GitignoreOption gitignore = new GitignoreOption();

	private record Unit(List<TaskGraphPage.Input> pages, List<String> notCompiled, String error) {
	}

	@Override
	public Integer call() throws IOException {
		Path cwd = Cli.cwd();
		if (!flags.valid()) {
			return Cli.ERROR;
		}
		Cli.Projects projects = new Cli.Projects();
		ProjectConfig here = projects.forPath(cwd);
		Path out = cwd.resolve(outDir).normalize();
		SourceFiles.Found found = SourceFiles.find(paths.isEmpty() ? List.of(Path.of(".")) : paths, cwd,
				Cli.excludes(exclude, cwd, projects), Cli.outputFolders(projects, cwd, Set.of(out)), gitignore.gitignores(here));
		found.warnings().forEach(Cli::warning);
		List<String> errors = new ArrayList<>(found.errors());
		List<Unit> units = Cli.parallel(found.files(), f -> pages(f, Cli.display(cwd, f), projects.forPath(f)));
		List<TaskGraphPage.Input> pages = new ArrayList<>();
		boolean failed = false;
		for (Unit u : units) {
			if (u.error() != null) {
				errors.add(u.error());
				continue;
			}
			pages.addAll(u.pages());
			for (String n : u.notCompiled()) {
				Cli.note(n);
				failed = true;
			}
		}
		if (!errors.isEmpty()) {
			errors.forEach(Cli::error);
			return Cli.ERROR;
		}
		if (pages.isEmpty()) {
			Cli.out().println(found.noPythonFiles() ? "No Python files." : "No compiled PyPTO programs in "
					+ found.files().size() + (found.files().size() == 1 ? " file." : " files."));
			return failed ? Cli.FINDINGS : Cli.OK;
		}
		try {
			TaskGraphs.write(pages, out);
		} catch (IOException e) {
			Cli.error(Cli.display(cwd, out) + ": cannot write the pages: " + Cli.reason(e));
			return Cli.ERROR;
		}
		Cli.out().println("Wrote the task graphs of " + pages.size() + (pages.size() == 1 ? " program" : " programs")
				+ " into " + Cli.display(cwd, out) + ": open " + Cli.display(cwd, out.resolve("index.html")));
		return failed ? Cli.FINDINGS : Cli.OK;
	}

	private Unit pages(Path file, String display, ProjectConfig project) {
		byte[] bytes;
		try {
			bytes = Files.readAllBytes(file);
		} catch (IOException e) {
			return new Unit(List.of(), List.of(), display + ": cannot read: " + Cli.reason(e));
		}
		if (!FileAnalysis.contains(bytes, "pypto".getBytes(StandardCharsets.US_ASCII))) {
			return new Unit(List.of(), List.of(), null);
		}
		DecodedSource decoded = DecodedSource.decode(bytes);
		if (decoded.problem().isPresent()) {
			return new Unit(List.of(), List.of(display + ": not compiled: " + decoded.problem().get().message()), null);
		}
		try {
			CompileOptions options = flags.options(project);
			Analysis analysis = Compiler.analyzer(options).analyze(PythonFrontEnd.get().parse(decoded.text()),
					AnalyzerConfig.DEFAULT, dev.ptotools.config.ProjectRoots.importsOf(file, project));
			TaskGraphs.Result r = TaskGraphs.of(analysis, options, display);
			List<String> notCompiled = new ArrayList<>();
			for (var p : r.generation().problems()) {
				if (p.severity() == Severity.ERROR) {
					notCompiled.add(Cli.shorten(Cli.cwd(), p.toString()) + " (no task graph for "
							+ (p.program() == null ? "this module" : p.program()) + ")");
				}
			}
			return new Unit(r.pages(), notCompiled, null);
		} catch (RuntimeException | StackOverflowError e) {
			return new Unit(List.of(), List.of(), display + ": internal error: " + e + " (please report)");
		}
	}
}
