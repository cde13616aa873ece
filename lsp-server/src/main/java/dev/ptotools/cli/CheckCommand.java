package dev.ptotools.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.config.RuleSelectors;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.report.FileReport;
import dev.ptotools.analyzer.report.GithubReport;
import dev.ptotools.analyzer.report.JsonReport;
import dev.ptotools.analyzer.report.Notice;
import dev.ptotools.analyzer.report.SarifReport;
import dev.ptotools.analyzer.report.Summary;
import dev.ptotools.analyzer.report.TextReport;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.config.ProjectRoots;

/** {@code pto check}: the analyzer over files and folders, for people and for CI. */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
		description = { "Analyze PyPTO programs and report the findings (text, json, sarif or github).",
				"Files, and folders recursively (hidden folders, virtual environments, __pycache__, node_modules,"
						+ " site-packages, build_output, the configured output folder and what git ignores are skipped)."
						+ " Files that do not import pypto.language have no findings.",
				"Configuration: [tool.pto] of the nearest pyproject.toml; flags override it." },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:no finding at or above the --fail-on threshold",
				"1:findings at or above the threshold",
				"2:usage error, a missing or unreadable input, or an internal error" })
public final class CheckCommand implements Callable<Integer> {

	/** Output formats. */
	public enum Format {
		text, json, sarif, github
	}

	/** Thresholds of --fail-on. */
	public enum FailOn {
		error, warning, info, never;

		Severity severity() {
			return switch (this) {
			case error -> Severity.ERROR;
			case warning -> Severity.WARNING;
			case info -> Severity.INFO;
			case never -> null;
			};
		}
	}

	/** --color. */
	public enum Colour {
		auto, always, never
	}

	@Parameters(paramLabel = "PATHS", arity = "0..*", description = "Files and folders to check (default: the current directory).")
	List<Path> paths = new ArrayList<>();

	@Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
			description = "text, json, sarif or github (default: ${DEFAULT-VALUE}).")
	Format format;

	@Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
	Path output;

	@Option(names = "--fail-on", paramLabel = "LEVEL",
			description = "Exit 1 when a finding is at least this severe: error, warning, info or never"
					+ " (default: [tool.pto] fail-on, else error).")
	FailOn failOn;

	@Option(names = "--show-info", negatable = true,
			description = "Also report info and hint findings (such as PTO100, a grouped rank loop) as GitHub annotations"
					+ " and SARIF results; text and json always list them (default: [tool.pto] show-info, else off;"
					+ " on with --fail-on info).")
	Boolean showInfo;

	@Option(names = "--select", paramLabel = "RULES", split = ",",
			description = "Only these rules: ids, id prefixes or names (PTO1,grouped-dispatch), comma-separated or repeated."
					+ " Replaces [tool.pto] select.")
	List<String> select = new ArrayList<>();

	@Option(names = "--ignore", paramLabel = "RULES", split = ",",
			description = "Never these rules: ids, id prefixes or names, comma-separated or repeated. Added to [tool.pto] disable.")
	List<String> ignore = new ArrayList<>();

	@Option(names = "--exclude", paramLabel = "GLOB", split = ",",
			description = "Skip paths matching GLOB (a name, or a path relative to the current directory; ** crosses folders). Repeatable; added to [tool.pto] exclude.")
	List<String> exclude = new ArrayList<>();

	@Mixin
	GitignoreOption gitignore = new GitignoreOption();

	@Option(names = "--root", paramLabel = "DIR",
			description = "Repository root: report paths and SARIF uris are relative to it (default: the current directory).")
	Path root;

	@Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
			description = "Colour the text format: auto (a terminal and NO_COLOR unset), always or never.")
	Colour color;

	@Option(names = "--docs-url", paramLabel = "URL",
			description = "Base URL of the rule pages for SARIF helpUri (default: PTO_DOCS_URL, else the project's pages).")
	String docsUrl;

	@picocli.CommandLine.Mixin
	CompileFlags compileFlags = new CompileFlags();

	@Option(names = "--parse-all", hidden = true,
			description = "Parse and lower every file, also those that never name pypto (benchmarks: same findings, slower).")
	boolean parseAll;

	@Override
	public Integer call() throws IOException {
		Path cwd = Cli.cwd();
		Path base = root == null ? cwd : cwd.resolve(root).normalize();
		if (!compileFlags.valid()) {
			return Cli.ERROR;
		}
		Cli.Projects projects = new Cli.Projects();
		ProjectConfig here = projects.forPath(cwd);
		Set<String> selected = rulesOption("--select", select);
		Set<String> ignored = rulesOption("--ignore", ignore);
		AnalyzerConfig overrides = new AnalyzerConfig(Map.of(), ignored, selected);
		Severity threshold = threshold(here);

		List<Path> inputs = paths.isEmpty() ? List.of(Path.of(".")) : paths;
		SourceFiles.Found found = SourceFiles.find(inputs, cwd, Cli.excludes(exclude, cwd, projects),
				Cli.outputFolders(projects, cwd, Set.of()), gitignore.gitignores(here));
		found.warnings().forEach(Cli::warning);
		List<Notice> notices = new ArrayList<>();
		found.errors().forEach(e -> notices.add(new Notice(null, e)));

		List<FileAnalysis.Outcome> outcomes = Cli.parallel(found.files(), f -> FileAnalysis.analyze(f, Cli.display(base, f),
				projects.forPath(f).analyzer().overriddenBy(overrides), compileFlags.options(projects.forPath(f)),
				ProjectRoots.importsOf(f, projects.forPath(f)), parseAll));
		List<FileReport> reports = new ArrayList<>();
		for (FileAnalysis.Outcome o : outcomes) {
			if (o.error() != null) {
				notices.add(new Notice(o.display(), o.display() + ": " + o.error()));
			} else {
				reports.add(o.report());
			}
		}
		boolean nothing = found.files().isEmpty() && found.errors().isEmpty();

		long outside = reports.stream().filter(r -> r.path().startsWith("/")).count();
		if (format == Format.sarif && outside > 0) {
			Cli.warning(outside + " file(s) are outside the root " + base + "; their SARIF uris are absolute, which code"
					+ " scanning does not accept (run from the repository root or pass --root)");
		}
		// Info findings are marks, not problems: in CI (annotations, code scanning) only when asked for,
		// or when they fail the run. Text and JSON, read by people and scripts, keep every finding.
		List<FileReport> shown = reports;
		int hidden = 0;
		if ((format == Format.github || format == Format.sarif) && !showInfo(here, threshold)) {
			shown = CiFindings.withoutInfo(reports);
			hidden = Summary.of(reports).total() - Summary.of(shown).total();
		}
		String report = switch (format) {
		// No Python file at all: the folders' warnings say so; "No findings in 0 files." would not.
		case text -> found.noPythonFiles() ? "" : TextReport.write(reports, reports.size(), Cli.colour(color.name(), output != null));
		// the rule pages (read from the jar) only for the formats that carry them
		case json -> JsonReport.write(reports, Cli.rulesWithPages());
		case sarif -> SarifReport.write(shown, Cli.rulesWithPages(), Cli.tool(docsUrl), notices);
		case github -> GithubReport.write(shown);
		};
		if (!Cli.emit(report, output)) {
			return Cli.ERROR;
		}
		for (Notice n : notices) {
			Cli.error(n.message());
		}
		if (nothing && found.excluded() > 0) {
			Cli.note("all " + found.excluded() + " matching paths are excluded; nothing checked");
		}
		if (!notices.isEmpty()) {
			return Cli.ERROR;
		}
		Summary s = Summary.of(reports);
		String notShown = hidden == 0 ? ""
				: " " + hidden + (hidden == 1 ? " info finding is" : " info findings are") + " not in the report (--show-info).";
		if (format != Format.text && output == null && s.total() > 0) {
			// Machine formats keep standard output clean; people still get the counts.
			Cli.note(TextReport.summary(s, reports.size(), false) + notShown);
		} else if (format != Format.text && output != null && !found.noPythonFiles()) {
			Cli.note(TextReport.summary(s, reports.size(), false) + notShown + " Report written to " + output + ".");
		}
		return s.atLeast(threshold) > 0 ? Cli.FINDINGS : Cli.OK;
	}

	/** Whether info findings go into annotations and SARIF: the flag, else [tool.pto] show-info, else when they fail the run. */
	private boolean showInfo(ProjectConfig here, Severity threshold) {
		boolean failsTheRun = threshold != null && Severity.INFO.atLeast(threshold);
		return failsTheRun || (showInfo != null ? showInfo : here.showInfo().orElse(false));
	}

	private Severity threshold(ProjectConfig here) {
		if (failOn != null) {
			return failOn.severity();
		}
		if (here.failOn().isPresent()) {
			String v = here.failOn().get().strip().toLowerCase(Locale.ROOT);
			for (FailOn f : FailOn.values()) {
				if (f.name().equals(v)) {
					return f.severity();
				}
			}
			Cli.warning("configuration: tool.pto.fail-on must be error, warning, info or never; using error");
		}
		return Severity.ERROR;
	}

	/**
	 * Rule ids from a repeatable, comma-separated option of ids, id prefixes and names; one that
	 * names no rule is warned about and kept as written, so it matches nothing.
	 */
	static Set<String> rulesOption(String option, List<String> values) {
		Set<String> out = new LinkedHashSet<>();
		for (String v : values) {
			if (v.isBlank()) {
				continue;
			}
			Optional<String> id = RuleSelectors.resolve(v);
			if (id.isEmpty()) {
				Cli.warning(RuleSelectors.unknown(option, v));
			}
			out.add(id.orElse(v.strip()));
		}
		return out;
	}
}
