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
import dev.ptotools.codegen.write.GeneratedMarker;
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
		try {
			flags.validate();
		} catch (IllegalArgumentException e) {
			Cli.error(e.getMessage());
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
		for (Unit u : units) {
			if (u.error() != null) {
				errors.add(u.display() + ": " + u.error());
			} else if (!u.generation().files().isEmpty() || !u.generation().problems().isEmpty()) {
				byOut.computeIfAbsent(u.out(), k -> new ArrayList<>()).add(u);
			}
		}
		boolean failed = false;
		for (Map.Entry<Path, List<Unit>> e : byOut.entrySet()) {
			List<Generation> gens = e.getValue().stream().map(Unit::generation).toList();
			ProjectConfig owner = projects.forPath(e.getValue().get(0).file());
			Path ownerDir = outDir != null || owner.root() == null ? cwd : owner.root();
			failed |= check ? check(e.getKey(), gens, cwd, inputs, ownerDir) : write(e.getKey(), gens, cwd);
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
		CompileOptions options = flags.options(project);
		Generation g;
		try {
			g = Compilations.generate(display, decoded.text(), options);
		} catch (RuntimeException | StackOverflowError e) {
			return new Unit(file, display, out, null, "internal error: " + e + " (please report)");
		}
		if (decoded.problem().isPresent() && (!g.files().isEmpty() || !g.problems().isEmpty())) {
			// CPython would not import this PyPTO module, so pypto never sees its programs.
			g = new Generation(display, List.of(), List.of(new Problem(dev.ptotools.analyzer.diagnostics.Severity.ERROR,
					"not compiled: " + decoded.problem().get().message(), display, 0, 0, null)));
		}
		return new Unit(file, display, out, g, null);
	}

	/** The output folder: [tool.pto] output relative to its pyproject.toml, else build_output there or here. */
	static Path outputFor(ProjectConfig project, Path cwd) {
		Path base = project.root() != null ? project.root() : cwd;
		return base.resolve(project.output().orElse("build_output")).toAbsolutePath().normalize();
	}

	private boolean write(Path out, List<Generation> gens, Path cwd) throws IOException {
		int changed = 0;
		for (Generation g : Compilations.deduplicate(gens)) {
			for (GeneratedFile f : g.files()) {
				Path disk = out.resolve(f.path());
				if (!Files.isRegularFile(disk)
						|| !Arrays.equals(Files.readAllBytes(disk), f.content().getBytes(StandardCharsets.UTF_8))) {
					changed++;
				}
			}
		}
		CompileResult r = Compilations.write(gens, out);
		boolean failed = false;
		for (Problem p : r.problems()) {
			Cli.note(p.toString());
			failed |= p.isError();
		}
		Set<String> programs = new TreeSet<>();
		int files = 0;
		for (Generation g : Compilations.deduplicate(gens)) {
			for (GeneratedFile f : g.files()) {
				programs.add(f.path().substring(0, f.path().indexOf('/')));
				files++;
			}
		}
		Cli.out().println("Compiled " + programs.size() + (programs.size() == 1 ? " program" : " programs") + " into "
				+ Cli.display(cwd, out) + ": " + r.written().size() + " of " + files + " files written ("
				+ Math.min(changed, r.written().size()) + " changed).");
		return failed;
	}

	private boolean check(Path out, List<Generation> gens, Path cwd, List<Path> inputs, Path owner) throws IOException {
		Map<String, String> expected = new TreeMap<>();
		Set<String> programs = new TreeSet<>();
		Set<String> failedPrograms = new TreeSet<>();
		int sourcesWithErrors = 0;
		for (Generation g : Compilations.deduplicate(gens)) {
			for (GeneratedFile f : g.files()) {
				expected.put(f.path(), f.content());
				programs.add(f.path().substring(0, f.path().indexOf('/')));
			}
			boolean withErrors = false;
			for (Problem p : g.problems()) {
				Cli.note(p.toString());
				if (p.isError()) {
					withErrors = true;
					if (p.program() != null) {
						failedPrograms.add(p.program());
					}
				}
			}
			sourcesWithErrors += withErrors ? 1 : 0;
		}
		List<String> missing = new ArrayList<>();
		List<String> stale = new ArrayList<>();
		for (Map.Entry<String, String> e : expected.entrySet()) {
			Path disk = out.resolve(e.getKey());
			if (!Files.isRegularFile(disk)) {
				missing.add(Cli.display(cwd, disk));
			} else if (!Arrays.equals(Files.readAllBytes(disk), e.getValue().getBytes(StandardCharsets.UTF_8))) {
				stale.add(Cli.display(cwd, disk));
			}
		}
		Set<String> scan = new TreeSet<>(programs);
		if (covers(inputs, cwd, owner) && Files.isDirectory(out)) {
			try (Stream<Path> s = Files.list(out)) {
				s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !failedPrograms.contains(n))
						.forEach(scan::add);
			}
		}
		List<String> extra = new ArrayList<>();
		for (String program : scan) {
			Path dir = out.resolve(program);
			if (!Files.isDirectory(dir)) {
				continue;
			}
			try (Stream<Path> s = Files.walk(dir)) {
				for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
					String rel = out.relativize(p).toString().replace(java.io.File.separatorChar, '/');
					if (!expected.containsKey(rel) && generated(p)) {
						extra.add(Cli.display(cwd, p));
					}
				}
			}
		}
		missing.forEach(p -> Cli.out().println("missing: " + p));
		stale.forEach(p -> Cli.out().println("stale:   " + p));
		extra.forEach(p -> Cli.out().println("extra:   " + p));
		String where = Cli.display(cwd, out);
		String ofPrograms = expected.size() + " generated files of " + programs.size()
				+ (programs.size() == 1 ? " program" : " programs");
		// The last line and the exit code say the same thing: "up to date" only with exit 0. A source
		// with errors generates nothing to compare, so its outputs are unverified, never up to date.
		String errors = sourcesWithErrors == 0 ? ""
				: sourcesWithErrors + (sourcesWithErrors == 1 ? " source has errors (above), so its outputs"
						: " sources have errors (above), so their outputs") + " cannot be checked";
		if (missing.isEmpty() && stale.isEmpty() && extra.isEmpty()) {
			if (sourcesWithErrors == 0) {
				Cli.out().println(where + " is up to date (" + ofPrograms + ").");
				return false;
			}
			Cli.out().println(where + " is not verified: " + errors + "; the " + ofPrograms + " that compiled match.");
			return true;
		}
		Cli.out().println(where + " is out of date: " + missing.size() + " missing, " + stale.size() + " stale, "
				+ extra.size() + " extra" + (errors.isEmpty() ? "" : "; " + errors) + ". Run pto compile to update it.");
		return true;
	}

	/** Whether the inputs hold the whole project of an output folder, so every program folder in it is ours to judge. */
	private static boolean covers(List<Path> inputs, Path cwd, Path owner) {
		for (Path in : inputs) {
			Path abs = cwd.resolve(in).toAbsolutePath().normalize();
			if (Files.isDirectory(abs) && owner.startsWith(abs)) {
				return true;
			}
		}
		return false;
	}

	private static boolean generated(Path p) {
		try (InputStream in = Files.newInputStream(p)) {
			byte[] head = in.readNBytes(GeneratedMarker.WINDOW);
			return GeneratedMarker.marks(new String(head, StandardCharsets.ISO_8859_1));
		} catch (IOException e) {
			return false;
		}
	}
}
