package dev.ptotools.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Predicate;
import java.util.Map;
import java.util.stream.Stream;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.compile.Compilation;
import dev.ptotools.codegen.compile.CompilePass;
import dev.ptotools.codegen.write.OutputWriter;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * The headless compiler: PyPTO source to pypto's build output. {@link #generate} is pure (the same
 * analysis and options give the same bytes), so the CLI ({@code pto compile}) and the language
 * server's on-save produce identical files; the {@code compile} methods add parsing, analysis and the
 * one {@link OutputWriter}.
 *
 * <p>Each program goes to {@code <out>/<program>/}. A program that does not compile (pypto rejects it,
 * this compiler cannot reproduce it, or the analyzer found an error in it) gets no files at all, so
 * whatever an earlier compile wrote for it stays as it was.
 */
public final class Compiler {

	/** The analyzer's rule for Python syntax errors: any of them stops the whole file. */
	private static final String SYNTAX_ERROR = "PTO000";

	/** One analyzer per options in use (the CLI and the server use one or two). */
	private static final Map<CompileOptions, Analyzer> ANALYZERS = new java.util.concurrent.ConcurrentHashMap<>();

	private Compiler() {
	}

	/**
	 * The analyzer's standard pipeline followed by the compile ({@link CompilePass}): what {@code pto
	 * check}, {@code pto compile} and the editor run, so all three report compile problems (PTO500,
	 * PTO501) at the same places, and on-save writes the compilation the analysis holds.
	 */
	/**
	 * The same pipeline for the editor, whose compile stops between programs once {@code superseded}
	 * holds (it throws {@link java.util.concurrent.CancellationException}, which the analysis reports
	 * as an internal error: the caller drops such an analysis).
	 */
	public static Analyzer analyzer(CompileOptions options, java.util.function.BooleanSupplier superseded) {
		List<dev.ptotools.analyzer.pipeline.Pass> passes = new ArrayList<>(Analyzer.standard().passes());
		passes.add(new CompilePass(options, superseded));
		return new Analyzer(passes, Analyzer.standard().rules());
	}

	public static Analyzer analyzer(CompileOptions options) {
		return ANALYZERS.computeIfAbsent(options, o -> analyzer(o, () -> false));
	}

	/** Generates every program of an analyzed file; paths are relative to the output folder. */
	public static Generation generate(Analysis analysis, CompileOptions options, String sourceName) {
		List<GeneratedFile> files = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		if (!analysis.isPypto()) {
			return new Generation(sourceName, files, problems);
		}
		Compilation c = compilation(analysis, options);
		// DSL text in a string is not compiled here, and a module may hand pl.parse bad text on purpose:
		// its errors neither stop the module's programs nor fail the compile.
		List<Diagnostic> errors = analysis.diagnostics().stream()
				.filter(d -> d.severity() == Severity.ERROR && !Analyzer.isCompileRule(d.rule()))
				.filter(d -> !inEmbeddedText(analysis, d.span()))
				.toList();
		// Each error is reported once, with the program it stops.
		java.util.Set<Diagnostic> shown = new java.util.HashSet<>();
		for (Compilation.CompiledProgram p : c.programs()) {
			Span programSpan = p.entry().span();
			List<Diagnostic> blocking = errors.stream()
					.filter(d -> d.span() == Span.NONE || d.rule().equals(Analyzer.INTERNAL_ERROR) || d.rule().equals(SYNTAX_ERROR)
							|| programSpan.contains(d.span()))
					.toList();
			if (!blocking.isEmpty()) {
				for (Diagnostic d : blocking) {
					if (shown.add(d)) {
						problems.add(problem(analysis, sourceName, p.entry().outputName(), d.span(), d.rule() + ": " + d.message()));
					}
				}
				continue;
			}
			files.addAll(p.files());
		}
		boolean quiet = errors.stream().anyMatch(d -> d.rule().equals(SYNTAX_ERROR));
		for (CompileFindings.Finding f : c.findings()) {
			if (quiet) {
				break;
			}
			if (f.kind() == CompileFindings.Kind.PERF_HINT) {
				continue; // advice on a program that compiles: check and the editor show it (PTO503)
			}
			if (f.kind() == CompileFindings.Kind.OVERRIDDEN) {
				Problem p = problem(analysis, sourceName, f.program(), f.span(), "PTO502: " + f.message());
				problems.add(new Problem(Severity.INFO, p.message(), p.source(), p.line(), p.column(), p.program()));
				continue;
			}
			// As in the analysis: an analyzer error in the finding's program says more than the compile.
			List<Diagnostic> instead = analyzerErrorsAround(analysis, errors, f.span());
			if (!instead.isEmpty()) {
				for (Diagnostic d : instead) {
					if (shown.add(d)) {
						problems.add(problem(analysis, sourceName, f.program(), d.span(), d.rule() + ": " + d.message()));
					}
				}
				continue;
			}
			problems.add(problem(analysis, sourceName, f.program(), f.span(),
					(f.kind() == CompileFindings.Kind.UNSUPPORTED ? "PTO501: " : "PTO500: ") + f.message()));
		}
		// Errors outside the programs written here (a function no entry reaches): running the module
		// raises there too, so the compile fails where pto check does.
		for (Diagnostic d : errors) {
			if (shown.add(d)) {
				dev.ptotools.analyzer.ir.Program in = programAt(analysis, d.span());
				problems.add(problem(analysis, sourceName, in == null ? null : in.name(), d.span(), d.rule() + ": " + d.message()));
			}
		}
		return new Generation(sourceName, files, problems);
	}

	/** Whether a span lies in DSL text given to pl.parse (the host range of that text). */
	private static boolean inEmbeddedText(Analysis analysis, Span at) {
		for (var e : analysis.embedded()) {
			if (e.toHost(new Span(0, e.analysis().file().text().length())).contains(at)) {
				return true;
			}
		}
		return false;
	}

	/** The class program that holds a span, or null. */
	private static dev.ptotools.analyzer.ir.Program programAt(Analysis analysis, Span at) {
		for (dev.ptotools.analyzer.ir.Program p : analysis.module().programs()) {
			if (p.span().contains(at)) {
				return p;
			}
		}
		return null;
	}

	/** The analyzer errors in the class program that holds a span, if any. */
	private static List<Diagnostic> analyzerErrorsAround(Analysis analysis, List<Diagnostic> errors, Span at) {
		dev.ptotools.analyzer.ir.Program p = programAt(analysis, at);
		return p == null ? List.of() : errors.stream().filter(d -> p.span().contains(d.span())).toList();
	}

	/** The compilation the analysis already holds (when made with these options), else a new one. */
	public static Compilation compilation(Analysis analysis, CompileOptions options) {
		if (analysis.facts().has(Keys.COMPILE) && analysis.facts().get(Keys.COMPILE).output() instanceof Compilation held
				&& held.options().equals(options)) {
			return held;
		}
		var f = analysis.facts();
		return Compilation.of(analysis.module(), analysis.file() == null ? null : analysis.file().text(),
				f.has(Keys.CONSTANTS) ? f.get(Keys.CONSTANTS) : null,
				f.has(Keys.JIT_SAMPLES) ? f.get(Keys.JIT_SAMPLES) : null, f.has(Keys.RANK_LOOPS) ? f.get(Keys.RANK_LOOPS) : null,
				options, () -> false, f.has(Keys.IMPORTED_MODULES) ? f.get(Keys.IMPORTED_MODULES) : null);
	}

	/** Parses, analyzes and generates one source text. */
	public static Generation generate(String sourceName, String text, CompileOptions options) {
		return generate(sourceName, text, options, null);
	}

	/** The same, the module's imports of its project's other modules read through {@code imported} (or not, null). */
	public static Generation generate(String sourceName, String text, CompileOptions options,
			dev.ptotools.analyzer.project.ImportedModules imported) {
		ParsedFile parsed = PythonFrontEnd.get().parse(text);
		return generate(analyzer(options).analyze(parsed, AnalyzerConfig.DEFAULT, imported), options, sourceName);
	}

	/** Compiles one source text (an editor buffer) into the output folder. */
	public static CompileResult compileSource(String sourceName, String text, Path outDir, CompileOptions options) {
		Generation g = generate(sourceName, text, options);
		return write(List.of(g), outDir, p -> false);
	}

	/** Compiles one .py file, or every .py file under a folder (sorted, hidden folders skipped). */
	public static CompileResult compile(Path input, Path outDir, CompileOptions options) {
		List<Generation> generations = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		for (Path file : sources(input, outDir)) {
			try {
				String text = Files.readString(file);
				generations.add(generate(file.toString(), text, options).withFile(file));
			} catch (IOException | UncheckedIOException e) {
				problems.add(new Problem(Severity.ERROR, "cannot read: " + e.getMessage(), file.toString(), 0, 0, null));
			}
		}
		CompileResult r = write(generations, outDir, p -> false);
		problems.addAll(r.problems());
		return new CompileResult(r.written(), r.changed(), r.removed(), problems);
	}

	/**
	 * Writes a generation (from {@link #generate}) into the output folder through the one writer; for a
	 * caller that already has the analysis, such as the language server on save.
	 */
	public static CompileResult write(Generation generation, Path outDir) {
		return write(List.of(generation), outDir, p -> false);
	}

	/**
	 * Writes generations into one output folder through the one writer ({@link OutputWriter}): each
	 * program folder replaced whole, and the folders a source without errors wrote before and no longer
	 * produces removed, as are those of a source for which {@code gone} holds (a deleted module).
	 */
	public static CompileResult write(List<Generation> generations, Path outDir, Predicate<Path> gone) {
		List<Generation> kept = deduplicate(generations);
		List<Problem> problems = new ArrayList<>();
		kept.forEach(g -> problems.addAll(g.problems()));
		OutputWriter.Result r = new OutputWriter(outDir).write(outputs(kept), gone);
		for (String refusal : r.refusals()) {
			problems.add(new Problem(Severity.ERROR, refusal, null, 0, 0, null));
		}
		return new CompileResult(r.written(), r.changed(), r.removed(), problems);
	}

	/** What {@link #write(List, Path, Predicate)} would do, touching nothing: {@code pto compile --check}. */
	public static OutputWriter.Plan plan(List<Generation> generations, Path outDir, Predicate<Path> gone) {
		return new OutputWriter(outDir).plan(outputs(deduplicate(generations)), gone);
	}

	private static List<OutputWriter.SourceOutput> outputs(List<Generation> generations) {
		return generations.stream().map(g -> new OutputWriter.SourceOutput(g.file(), g.files(), !g.hasErrors())).toList();
	}

	/**
	 * The generations as they are written into one output folder: a program that an earlier
	 * generation already produced is dropped from a later one, with an error.
	 */
	public static List<Generation> deduplicate(List<Generation> generations) {
		Map<String, Integer> owners = new HashMap<>();
		List<Generation> out = new ArrayList<>();
		for (int gi = 0; gi < generations.size(); gi++) {
			Generation g = generations.get(gi);
			List<GeneratedFile> files = new ArrayList<>();
			List<Problem> problems = new ArrayList<>(g.problems());
			List<String> reported = new ArrayList<>();
			for (GeneratedFile f : g.files()) {
				String program = f.path().substring(0, f.path().indexOf('/'));
				Integer owner = owners.putIfAbsent(program, gi);
				if (owner != null && owner != gi) {
					if (!reported.contains(program)) {
						reported.add(program);
						String first = generations.get(owner).source();
						problems.add(new Problem(Severity.ERROR, "program '" + program + "' is defined in two sources, "
								+ (first == null ? "an earlier one" : first) + " and " + (g.source() == null ? "this one" : g.source())
								+ ", which write the same output folder; keeping the first (give one of them another name, or"
								+ " compile them into different output folders)", g.source(), 0, 0, program));
					}
					continue;
				}
				files.add(f);
			}
			out.add(new Generation(g.source(), g.file(), files, problems));
		}
		return out;
	}

	private static List<Path> sources(Path input, Path outDir) {
		if (!Files.isDirectory(input)) {
			return List.of(input);
		}
		Path out = outDir.toAbsolutePath().normalize();
		try (Stream<Path> s = Files.walk(input)) {
			return s.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p))
					.filter(p -> !p.toAbsolutePath().normalize().startsWith(out))
					.filter(p -> input.relativize(p).toString().chars().noneMatch(c -> c == '\\')
							&& !hidden(input.relativize(p)))
					.sorted().toList();
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static boolean hidden(Path rel) {
		for (Path part : rel) {
			if (part.toString().startsWith(".")) {
				return true;
			}
		}
		return false;
	}

	private static Problem problem(Analysis a, String source, String program, Span span, String message) {
		int line = 0;
		int col = 0;
		if (span != null && span != Span.NONE && a.file() != null) {
			line = a.file().lines().line(span.start());
			col = a.file().lines().column(span.start());
		}
		return new Problem(Severity.ERROR, message, source, line, col, program);
	}
}
