package dev.ptotools.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.compile.Compilation;
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

	private Compiler() {
	}

	/** Generates every program of an analyzed file; paths are relative to the output folder. */
	public static Generation generate(Analysis analysis, CompileOptions options, String sourceName) {
		List<GeneratedFile> files = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		if (!analysis.isPypto()) {
			return new Generation(files, problems);
		}
		Compilation c = compilation(analysis, options);
		List<Diagnostic> errors = analysis.diagnostics().stream()
				.filter(d -> d.severity() == Severity.ERROR && !d.rule().startsWith("PTO5")).toList();
		Set<Diagnostic> reported = new HashSet<>();
		for (Compilation.CompiledProgram p : c.programs()) {
			Span programSpan = p.entry().span();
			List<Diagnostic> blocking = errors.stream()
					.filter(d -> d.span() == Span.NONE || d.rule().equals(Analyzer.INTERNAL_ERROR) || d.rule().equals(SYNTAX_ERROR)
							|| programSpan.contains(d.span()))
					.toList();
			if (!blocking.isEmpty()) {
				for (Diagnostic d : blocking) {
					reported.add(d);
					problems.add(problem(analysis, sourceName, p.entry().outputName(), d.span(), d.rule() + ": " + d.message()));
				}
				continue;
			}
			files.addAll(p.files());
		}
		boolean quiet = errors.stream().anyMatch(d -> d.rule().equals(SYNTAX_ERROR));
		for (CompileFindings.Finding f : c.findings()) {
			if (quiet) {
				continue;
			}
			// As in pto check, a compile finding yields to the analyzer's errors in the same program
			// (the analyzer says why in its own words, at the construct).
			List<Diagnostic> own = analyzerErrorsInProgramOf(f.span(), errors, analysis);
			if (!own.isEmpty()) {
				for (Diagnostic d : own) {
					if (reported.add(d)) {
						problems.add(problem(analysis, sourceName, f.program(), d.span(), d.rule() + ": " + d.message()));
					}
				}
				continue;
			}
			problems.add(problem(analysis, sourceName, f.program(), f.span(),
					(f.kind() == CompileFindings.Kind.UNSUPPORTED ? "PTO501: " : "PTO500: ") + f.message()));
		}
		return new Generation(files, problems);
	}

	/** The analyzer's errors inside the {@code @pl.program} class that holds a span, if any holds it. */
	private static List<Diagnostic> analyzerErrorsInProgramOf(Span span, List<Diagnostic> errors, Analysis analysis) {
		for (Program p : analysis.module().programs()) {
			if (span != Span.NONE && p.span().contains(span)) {
				return errors.stream().filter(d -> p.span().contains(d.span())).toList();
			}
		}
		return List.of();
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
		return generate(Analyzer.standard().analyze(parsed, AnalyzerConfig.DEFAULT), options, sourceName);
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
