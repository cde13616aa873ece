package dev.ptotools.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;

/**
 * The one way the CLI and the language server compile, so that what the editor writes on save is
 * byte-identical to what {@code pto compile} writes for the same text and settings: a pure
 * {@link #generate} (also what {@code pto compile --check} compares with the disk) and one
 * {@link #write} through codegen's output writer.
 */
public final class Compilations {

	private Compilations() {
	}

	/** Compile options from the runtime-header setting (fallback, pto_orchestration_api, orchestration_api). */
	public static CompileOptions options(String runtimeHeader) {
		return new CompileSettings(runtimeHeader, null, null, null, null, null).options();
	}

	/** Compiles one source text (an editor buffer or a file's content) into an output folder. */
	public static CompileResult compileText(Path file, String text, Path outDir, CompileOptions options) {
		return write(List.of(generate(file.toString(), text, options)), outDir);
	}

	/** Generates one source text in memory; paths of the files are relative to the output folder. */
	public static Generation generate(String sourceName, String text, CompileOptions options) {
		return Compiler.generate(sourceName, text, options);
	}

	/**
	 * The same generation as {@link #generate(String, String, CompileOptions)} from an analysis already
	 * made of that text (the editor's, on save), without parsing it again. Compiling reads the
	 * diagnostics (errors block it), so the analysis is reused only when it was made with the default
	 * configuration, as {@code pto compile} makes its own; otherwise the text is analyzed again.
	 */
	public static Generation generate(String sourceName, String text, Analysis analysis, AnalyzerConfig analyzedWith,
			CompileOptions options) {
		if (analysis != null && AnalyzerConfig.DEFAULT.equals(analyzedWith)) {
			return Compiler.generate(analysis, options, sourceName);
		}
		return generate(sourceName, text, options);
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
			out.add(new Generation(g.source(), files, problems));
		}
		return out;
	}

	/** Writes generations into an output folder through the one writer (checked, atomic, confined). */
	public static CompileResult write(List<Generation> generations, Path outDir) {
		List<Path> written = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		for (Generation g : deduplicate(generations)) {
			CompileResult r = Compiler.write(g, outDir);
			written.addAll(r.written());
			problems.addAll(r.problems());
		}
		return new CompileResult(written, problems);
	}
}
