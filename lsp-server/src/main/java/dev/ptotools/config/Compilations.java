package dev.ptotools.config;

import java.nio.file.Path;
import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.Generation;

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
		return new CompileSettings(runtimeHeader, null, null, null, null, null, null).options();
	}

	/** Compiles one source text (an editor buffer or a file's content) into an output folder. */
	public static CompileResult compileText(Path file, String text, Path outDir, CompileOptions options) {
		return write(List.of(generate(file.toString(), text, options).withFile(file)), outDir);
	}

	/** Generates one source text in memory; paths of the files are relative to the output folder. */
	public static Generation generate(String sourceName, String text, CompileOptions options) {
		return Compiler.generate(sourceName, text, options);
	}

	/** The same, its imports of the project's other modules read through {@code imported}. */
	public static Generation generate(String sourceName, String text, CompileOptions options,
			dev.ptotools.analyzer.project.ImportedModules imported) {
		return Compiler.generate(sourceName, text, options, imported);
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
	 * Writes generations into an output folder through the one writer (checked, each program folder
	 * replaced whole, confined); the folders a source without errors no longer produces are removed.
	 */
	public static CompileResult write(List<Generation> generations, Path outDir) {
		return Compiler.write(generations, outDir, p -> false);
	}
}
