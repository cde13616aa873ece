package dev.ptotools.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
				options);
	}

	/** Parses, analyzes and generates one source text. */
	public static Generation generate(String sourceName, String text, CompileOptions options) {
		ParsedFile parsed = PythonFrontEnd.get().parse(text);
		return generate(analyzer(options).analyze(parsed, AnalyzerConfig.DEFAULT), options, sourceName);
	}

	/** Compiles a source text (an editor buffer) into the output folder. */
	public static CompileResult compileSource(String sourceName, String text, Path outDir, CompileOptions options) {
		Generation g = generate(sourceName, text, options);
		return write(List.of(g), outDir);
	}

	/** Compiles one .py file, or every .py file under a folder (sorted, hidden folders skipped). */
	public static CompileResult compile(Path input, Path outDir, CompileOptions options) {
		List<Generation> generations = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		for (Path file : sources(input, outDir)) {
			try {
				String text = Files.readString(file);
				generations.add(generate(file.toString(), text, options));
			} catch (IOException | UncheckedIOException e) {
				problems.add(new Problem(Severity.ERROR, "cannot read: " + e.getMessage(), file.toString(), 0, 0, null));
			}
		}
		CompileResult r = write(generations, outDir);
		problems.addAll(r.problems());
		return new CompileResult(r.written(), problems);
	}

	/**
	 * Writes a generation (from {@link #generate}) into the output folder through the one writer; for a
	 * caller that already has the analysis, such as the language server on save.
	 */
	public static CompileResult write(Generation generation, Path outDir) {
		return write(List.of(generation), outDir);
	}

	private static CompileResult write(List<Generation> generations, Path outDir) {
		List<Problem> problems = new ArrayList<>();
		List<Path> written = new ArrayList<>();
		Map<String, String> owners = new HashMap<>();
		OutputWriter writer = new OutputWriter(outDir);
		for (Generation g : generations) {
			problems.addAll(g.problems());
			List<GeneratedFile> batch = new ArrayList<>();
			String source = g.problems().isEmpty() ? null : g.problems().get(0).source();
			for (GeneratedFile f : g.files()) {
				String program = f.path().substring(0, f.path().indexOf('/'));
				String owner = owners.putIfAbsent(program, String.valueOf(System.identityHashCode(g)));
				if (owner != null && !owner.equals(String.valueOf(System.identityHashCode(g)))) {
					problems.add(new Problem(Severity.ERROR, "program '" + program + "' is defined in two sources; "
							+ "keeping the first", source, 0, 0, program));
					continue;
				}
				batch.add(f);
			}
			OutputWriter.Result r = writer.write(batch);
			written.addAll(r.written());
			for (String refusal : r.refusals()) {
				problems.add(new Problem(Severity.ERROR, refusal, null, 0, 0, null));
			}
		}
		return new CompileResult(written, problems);
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
