package dev.ptotools.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.write.OutputWriter;
import dev.ptotools.config.Compilations;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.source.DecodedSource;

/**
 * {@code pto compile}: pypto's build output for every program, through the same compile path as the
 * language server's on-save ({@link Compilations}), so the bytes are the editor's. {@code --check}
 * generates in memory and compares with the disk instead of writing.
 */
@Command(name = "compile", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
		description = { "Compile PyPTO programs into pypto's build output, or --check that it is up to date.",
				"The layout is <out>/<program>/..., byte-identical to what the editor writes on save. A program with"
						+ " errors gets no files; what an earlier compile wrote for it stays.",
				"Output folder: -o, else [tool.pto] output (relative to pyproject.toml), else build_output next to"
						+ " pyproject.toml or in the current directory." },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:compiled (with --check: the outputs on disk are up to date)",
				"1:a program was not compiled because of errors (with --check: outputs are missing, stale or extra,"
						+ " or a source has errors)",
				"2:usage error, a missing or unreadable input, or an internal error" })
public final class CompileCommand implements Callable<Integer> {

	@Parameters(paramLabel = "PATHS", arity = "0..*", description = "Files and folders to compile (default: the current directory).")
	List<Path> paths = new ArrayList<>();

	@Option(names = { "-o", "--output-dir" }, paramLabel = "DIR", description = "Output folder (overrides [tool.pto] output).")
	Path outDir;

	@Option(names = "--check", description = "Write nothing: exit 1 and list the missing, stale and extra generated files"
			+ " when the outputs on disk are not what a compile would write.")
	boolean check;

	@Option(names = "--dump-passes", description = "Also write each program's IR after the front end and after every"
			+ " pass, as pypto's passes_dump/ (<program>/passes_dump/NN_after_<Pass>.py, pypto's numbering).")
	boolean dumpPasses;

	@picocli.CommandLine.Mixin
	CompileFlags flags = new CompileFlags();

	@Option(names = "--exclude", paramLabel = "GLOB", split = ",", description = "Skip paths matching GLOB (as for check).")
	List<String> exclude = new ArrayList<>();

	@Mixin
	GitignoreOption gitignore = new GitignoreOption();

	private record Unit(Path file, String display, Path out, Generation generation, String error) {
	}

	@Override
	public Integer call() throws IOException {
		Path cwd = Cli.cwd();
		if (!flags.valid()) {
			return Cli.ERROR;
		}
		Cli.Projects projects = new Cli.Projects();
		ProjectConfig here = projects.forPath(cwd);
		List<Path> inputs = paths.isEmpty() ? List.of(Path.of(".")) : paths;
		Set<Path> outputs = new HashSet<>();
		if (outDir != null) {
			outputs.add(cwd.resolve(outDir).normalize());
		}
		SourceFiles.Found found = SourceFiles.find(inputs, cwd, Cli.excludes(exclude, cwd, projects),
				Cli.outputFolders(projects, cwd, outputs), gitignore.gitignores(here));
		found.warnings().forEach(Cli::warning);
		List<String> errors = new ArrayList<>(found.errors());

		List<Unit> units = Cli.parallel(found.files(), f -> generate(f, cwd, projects));
		Map<Path, List<Unit>> byOut = new LinkedHashMap<>();
		// Sources without programs still speak for the folders they wrote before (all their programs gone).
		Map<Path, List<Unit>> without = new LinkedHashMap<>();
		for (Unit u : units) {
			if (u.error() != null) {
				errors.add(u.display() + ": " + u.error());
			} else {
				boolean some = !u.generation().files().isEmpty() || !u.generation().problems().isEmpty();
				(some ? byOut : without).computeIfAbsent(u.out(), k -> new ArrayList<>()).add(u);
			}
		}
		boolean failed = false;
		java.util.function.Predicate<Path> gone = gone(inputs, cwd);
		Set<Path> outs = new java.util.LinkedHashSet<>(byOut.keySet());
		without.keySet().stream().filter(Files::isDirectory).forEach(outs::add);
		for (Path out : outs) {
			List<Generation> gens = new ArrayList<>();
			byOut.getOrDefault(out, List.of()).forEach(u -> gens.add(u.generation()));
			without.getOrDefault(out, List.of()).forEach(u -> gens.add(u.generation()));
			boolean quiet = !byOut.containsKey(out);
			failed |= check ? check(out, gens, cwd, gone, quiet) : write(out, gens, cwd, gone, quiet);
		}
		if (byOut.isEmpty() && errors.isEmpty() && !found.noPythonFiles()) {
			Cli.out().println("No PyPTO programs in " + found.files().size() + (found.files().size() == 1 ? " file." : " files."));
		}
		errors.forEach(Cli::error);
		if (!errors.isEmpty()) {
			return Cli.ERROR;
		}
		return failed ? Cli.FINDINGS : Cli.OK;
	}

	private Unit generate(Path file, Path cwd, Cli.Projects projects) {
		String display = Cli.display(cwd, file);
		ProjectConfig project = projects.forPath(file);
		Path out = outDir != null ? cwd.resolve(outDir).normalize() : outputFor(project, cwd);
		byte[] bytes;
		try {
			bytes = Files.readAllBytes(file);
		} catch (IOException e) {
			return new Unit(file, display, out, null, "cannot read: " + Cli.reason(e));
		}
		if (!FileAnalysis.contains(bytes, "pypto".getBytes(StandardCharsets.US_ASCII))) {
			return new Unit(file, display, out, new Generation(display, List.of(), List.of()), null);
		}
		DecodedSource decoded = DecodedSource.decode(bytes);
		CompileOptions options = flags.options(project).withDumpPasses(dumpPasses);
		Generation g;
		try {
			g = Compilations.generate(display, decoded.text(), options,
					dev.ptotools.config.ProjectRoots.importsOf(file, project));
		} catch (RuntimeException | StackOverflowError e) {
			return new Unit(file, display, out, null, "internal error: " + e + " (please report)");
		}
		if (decoded.problem().isPresent() && (!g.files().isEmpty() || !g.problems().isEmpty())) {
			// CPython would not import this PyPTO module, so pypto never sees its programs.
			g = new Generation(display, List.of(), List.of(new Problem(dev.ptotools.analyzer.diagnostics.Severity.ERROR,
					"not compiled: " + decoded.problem().get().message(), display, 0, 0, null)));
		}
		return new Unit(file, display, out, g.withFile(file), null);
	}

	/** The output folder: [tool.pto] output relative to its pyproject.toml, else build_output there or here. */
	static Path outputFor(ProjectConfig project, Path cwd) {
		Path base = project.root() != null ? project.root() : cwd;
		return base.resolve(project.output().orElse("build_output")).toAbsolutePath().normalize();
	}

	/** Writes one output folder's generations; {@code quiet}: no programs, say something only when folders go. */
	private boolean write(Path out, List<Generation> gens, Path cwd, java.util.function.Predicate<Path> gone,
			boolean quiet) {
		CompileResult r = Compiler.write(gens, out, gone);
		boolean failed = false;
		for (Problem p : r.problems()) {
			Cli.note(Cli.shorten(cwd, p.toString()));
			failed |= p.isError();
		}
		Set<String> programs = new TreeSet<>();
		int files = 0;
		for (Generation g : Compiler.deduplicate(gens)) {
			for (GeneratedFile f : g.files()) {
				programs.add(f.path().substring(0, f.path().indexOf('/')));
				files++;
			}
		}
		Set<String> writtenPrograms = new TreeSet<>();
		for (Path w : r.written()) {
			writtenPrograms.add(out.relativize(w).getName(0).toString());
		}
		String where = Cli.display(cwd, out);
		String counts = r.written().size() + " of " + files + " files written (" + r.changed() + " changed)";
		if (quiet) {
			// nothing compiled here: only a removal is news
		} else if (writtenPrograms.size() < programs.size()) {
			Cli.out().println("Wrote " + writtenPrograms.size() + " of " + programs.size()
					+ (programs.size() == 1 ? " program" : " programs") + " into " + where + ": " + counts
					+ "; see the errors above.");
		} else {
			Cli.out().println("Compiled " + programs.size() + (programs.size() == 1 ? " program" : " programs") + " into "
					+ where + ": " + counts + ".");
		}
		if (!r.removed().isEmpty()) {
			Cli.out().println("Removed the outputs of " + r.removed().size()
					+ (r.removed().size() == 1 ? " program" : " programs") + " their sources no longer have: "
					+ String.join(", ", r.removed().stream().map(p -> p.getFileName().toString()).toList()) + ".");
		}
		return failed;
	}

	private boolean check(Path out, List<Generation> gens, Path cwd, java.util.function.Predicate<Path> gone,
			boolean quiet) {
		Set<String> programs = new TreeSet<>();
		int expected = 0;
		int sourcesWithErrors = 0;
		for (Generation g : Compiler.deduplicate(gens)) {
			for (GeneratedFile f : g.files()) {
				programs.add(f.path().substring(0, f.path().indexOf('/')));
				expected++;
			}
			for (Problem p : g.problems()) {
				Cli.note(p.toString());
			}
			sourcesWithErrors += g.hasErrors() ? 1 : 0;
		}
		// What pto compile would do, from the same plan: every line here is a change it makes.
		OutputWriter.Plan plan = Compiler.plan(gens, out, gone);
		List<String> missing = new ArrayList<>();
		List<String> stale = new ArrayList<>();
		List<String> extra = new ArrayList<>();
		for (OutputWriter.FolderChange c : plan.changes()) {
			c.missing().forEach(p -> missing.add(Cli.display(cwd, out.resolve(p))));
			c.stale().forEach(p -> stale.add(Cli.display(cwd, out.resolve(p))));
			c.extra().forEach(p -> extra.add(Cli.display(cwd, out.resolve(p))));
		}
		missing.forEach(p -> Cli.out().println("missing: " + p));
		stale.forEach(p -> Cli.out().println("stale:   " + p));
		extra.forEach(p -> Cli.out().println("extra:   " + p));
		plan.refusals().forEach(p -> Cli.error(Cli.shorten(cwd, p)));
		String where = Cli.display(cwd, out);
		String ofPrograms = expected + " generated files of " + programs.size()
				+ (programs.size() == 1 ? " program" : " programs");
		// The last line and the exit code say the same thing: "up to date" only with exit 0. A source
		// with errors generates nothing to compare, so its outputs are unverified, never up to date.
		String errors = sourcesWithErrors == 0 ? ""
				: sourcesWithErrors + (sourcesWithErrors == 1 ? " source has errors (above), so its outputs"
						: " sources have errors (above), so their outputs") + " cannot be checked";
		if (plan.upToDate()) {
			if (quiet) {
				return false;
			}
			if (sourcesWithErrors == 0) {
				Cli.out().println(where + " is up to date (" + ofPrograms + ").");
				return false;
			}
			Cli.out().println(where + " is not verified: " + errors + "; the " + ofPrograms + " that compiled match.");
			return true;
		}
		String refused = plan.refusals().isEmpty() ? ""
				: "; " + plan.refusals().size() + " cannot be written (above)";
		Cli.out().println(where + " is out of date: " + missing.size() + " missing, " + stale.size() + " stale, "
				+ extra.size() + " extra" + refused + (errors.isEmpty() ? "" : "; " + errors)
				+ (plan.changes().isEmpty() ? "." : ". Run pto compile to update it."));
		return true;
	}

	/**
	 * Whether a source named in an output folder's records is gone and the inputs speak for it: it no
	 * longer exists, and it was under a folder given to this command (a deleted or renamed module).
	 */
	private static java.util.function.Predicate<Path> gone(List<Path> inputs, Path cwd) {
		List<Path> folders = inputs.stream().map(in -> cwd.resolve(in).toAbsolutePath().normalize())
				.filter(Files::isDirectory).toList();
		return source -> !Files.exists(source) && folders.stream().anyMatch(source::startsWith);
	}
}
