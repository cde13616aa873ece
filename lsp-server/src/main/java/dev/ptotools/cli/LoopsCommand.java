package dev.ptotools.cli;

import java.io.IOException;
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
import dev.ptotools.analyzer.report.FileReport;
import dev.ptotools.analyzer.report.LoopsReport;
import dev.ptotools.config.ProjectConfig;

/** {@code pto loops}: every rank loop and its grouped-dispatch verdict. */
@Command(name = "loops", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
		description = { "List every rank loop and whether it is grouped (all ranks published as one group).",
				"For each loop of a HOST orchestrator that iterates the world or dispatches with device=<its variable>:"
						+ " where its for is, its function, the verdict and, when not grouped, the rule and the reason." },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:the loops were listed", "2:usage error, a missing or unreadable input, or an internal error" })
public final class LoopsCommand implements Callable<Integer> {

	/** Output formats. */
	public enum Format {
		text, json
	}

	@Parameters(paramLabel = "PATHS", arity = "0..*", description = "Files and folders (default: the current directory).")
	List<Path> paths = new ArrayList<>();

	@Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
	Format format;

	@Option(names = "--output", paramLabel = "FILE", description = "Write to FILE instead of standard output.")
	Path output;

	@Option(names = "--exclude", paramLabel = "GLOB", split = ",", description = "Skip paths matching GLOB (as for check).")
	List<String> exclude = new ArrayList<>();

	@Mixin
	GitignoreOption gitignore = new GitignoreOption();

	@Option(names = "--root", paramLabel = "DIR", description = "Paths are printed relative to DIR (default: the current directory).")
	Path root;

	@Override
	public Integer call() throws IOException {
		Path cwd = Cli.cwd();
		Path base = root == null ? cwd : cwd.resolve(root).normalize();
		Cli.Projects projects = new Cli.Projects();
		ProjectConfig here = projects.forPath(cwd);
		List<Path> inputs = paths.isEmpty() ? List.of(Path.of(".")) : paths;
		SourceFiles.Found found = SourceFiles.find(inputs, cwd, Cli.excludes(exclude, cwd, projects),
				Cli.outputFolders(projects, cwd, Set.of()), gitignore.gitignores(here));
		found.warnings().forEach(Cli::warning);
		List<String> errors = new ArrayList<>(found.errors());
		List<FileAnalysis.Outcome> outcomes = Cli.parallel(found.files(),
				f -> FileAnalysis.analyze(f, Cli.display(base, f), AnalyzerConfig.DEFAULT,
						dev.ptotools.config.ProjectRoots.importsOf(f, dev.ptotools.config.ProjectConfig.forPath(f)), false));
		List<FileReport> reports = new ArrayList<>();
		for (FileAnalysis.Outcome o : outcomes) {
			if (o.error() != null) {
				errors.add(o.display() + ": " + o.error());
			} else {
				reports.add(o.report());
			}
		}
		String report = format == Format.json ? LoopsReport.json(reports)
				: found.noPythonFiles() ? "" : LoopsReport.text(reports, reports.size());
		if (!Cli.emit(report, output)) {
			return Cli.ERROR;
		}
		errors.forEach(Cli::error);
		return errors.isEmpty() ? Cli.OK : Cli.ERROR;
	}
}
