package dev.ptotools.config;

import java.nio.file.Path;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.CompileResult;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.RuntimeHeader;

/**
 * The one way the CLI and the language server compile, so that what the editor writes on save is
 * byte-identical to what {@code pto compile} writes for the same text and settings.
 */
public final class Compilations {

	private Compilations() {
	}

	/** Compile options from the runtime-header setting (fallback, pto_orchestration_api, orchestration_api). */
	public static CompileOptions options(String runtimeHeader) {
		RuntimeHeader header = runtimeHeader == null ? RuntimeHeader.FALLBACK : RuntimeHeader.parse(runtimeHeader);
		return CompileOptions.DEFAULT.withHeader(header == null ? RuntimeHeader.FALLBACK : header);
	}

	/** Compiles one source text (an editor buffer or a file's content) into an output folder. */
	public static CompileResult compileText(Path file, String text, Path outDir, CompileOptions options) {
		return Compiler.compileSource(file.toString(), text, outDir, options);
	}
}
