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
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.layout.ProgramGenerator;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.ProgramContext;
import dev.ptotools.codegen.write.OutputWriter;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * The headless compiler: PyPTO source to pypto's build output. {@link #generate} is pure (the same
 * analysis and options give the same bytes), so the CLI ({@code pto compile}) and the language
 * server's on-save produce identical files; the {@code compile} methods add parsing, analysis and the
 * one {@link OutputWriter}.
 *
 * <p>Each program goes to {@code <out>/<program>/}. A program with an error (from the analyzer or from
 * codegen) gets no files at all, so whatever an earlier compile wrote for it stays as it was.
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
		List<Diagnostic> errors = analysis.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
		Map<String, Program> seen = new HashMap<>();
		for (Program p : analysis.module().programs()) {
			if (seen.put(p.name(), p) != null) {
				problems.add(problem(analysis, sourceName, p.name(), p.nameSpan(),
						"program '" + p.name() + "' is defined twice; its output folder would be written twice"));
				continue;
			}
			List<Diagnostic> blocking = errors.stream()
					.filter(d -> d.span() == Span.NONE || d.rule().equals(Analyzer.INTERNAL_ERROR) || d.rule().equals(SYNTAX_ERROR)
							|| p.span().contains(d.span()))
					.toList();
			if (!blocking.isEmpty()) {
				for (Diagnostic d : blocking) {
					problems.add(problem(analysis, sourceName, p.name(), d.span(), d.rule() + ": " + d.message()));
				}
				continue;
			}
			ProgramContext ctx = new ProgramContext(p, analysis.facts().get(Keys.CALLS), analysis.facts().get(Keys.FUNCTIONS),
					analysis.facts().get(Keys.CONSTANTS).evaluator(p), analysis.facts().get(Keys.CALL_DIRECTIONS),
					analysis.facts().has(Keys.COMM_DOMAINS) ? analysis.facts().get(Keys.COMM_DOMAINS) : null,
					analysis.facts().has(Keys.RANK_LOOPS) ? analysis.facts().get(Keys.RANK_LOOPS) : null, options,
					analysis.file().text());
			try {
				ProgramGenerator.Output out = ProgramGenerator.build(ctx);
				files.addAll(out.files());
				for (ProgramGenerator.Note note : out.notes()) {
					problems.add(new Problem(note.severity(), note.message(), sourceName, 0, 0, p.name()));
				}
			} catch (CodegenException e) {
				problems.add(problem(analysis, sourceName, p.name(), e.span(), e.getMessage()));
			} catch (RuntimeException e) {
				problems.add(problem(analysis, sourceName, p.name(), Span.NONE,
						"internal error in codegen: " + e + " (please report)"));
			}
		}
		return new Generation(files, problems);
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
		Map<String, Integer> owners = new HashMap<>();
		OutputWriter writer = new OutputWriter(outDir);
		for (int gi = 0; gi < generations.size(); gi++) {
			Generation g = generations.get(gi);
			problems.addAll(g.problems());
			List<GeneratedFile> batch = new ArrayList<>();
			for (GeneratedFile f : g.files()) {
				String program = f.path().substring(0, f.path().indexOf('/'));
				Integer owner = owners.putIfAbsent(program, gi);
				if (owner != null && owner != gi) {
					problems.add(new Problem(Severity.ERROR, "program '" + program + "' is defined in two sources; "
							+ "keeping the first", null, 0, 0, program));
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
