package dev.ptotools.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.report.FileReport;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.config.ProjectRoots;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/** One file through the shared pipeline: read, decode (PEP 263), parse, analyze. */
final class FileAnalysis {

	/** The result for one file: its report, or why it could not be read. */
	record Outcome(Path file, String display, FileReport report, String error) {
	}

	private static final byte[] PYPTO = { 'p', 'y', 'p', 't', 'o' };

	private FileAnalysis() {
	}

	static Outcome analyze(Path file, String display, AnalyzerConfig config, ImportedModules imported, boolean parseAll) {
		return analyze(file, display, config, Analyzer.standard(), imported, parseAll);
	}

	/** With the compile in the pipeline ({@link Compiler#analyzer}): what {@code pto check} runs. */
	static Outcome analyze(Path file, String display, AnalyzerConfig config, CompileOptions compile, ImportedModules imported,
			boolean parseAll) {
		return analyze(file, display, config, Compiler.analyzer(compile), imported, parseAll);
	}

	/** {@code imported}: what the file's imports of its project's other modules bind ({@link ProjectRoots}). */
	private static Outcome analyze(Path file, String display, AnalyzerConfig config, Analyzer analyzer,
			ImportedModules imported, boolean parseAll) {
		byte[] bytes;
		try {
			bytes = Files.readAllBytes(file);
		} catch (IOException e) {
			return new Outcome(file, display, null, "cannot read: " + Cli.reason(e));
		} catch (OutOfMemoryError e) {
			return new Outcome(file, display, null, "too large to read");
		}
		// The analyzer reports nothing on a file that does not import pypto.language, and no file can
		// import it without naming it: such files are skipped without parsing (same result, faster).
		if (!parseAll && !contains(bytes, PYPTO)) {
			return new Outcome(file, display, empty(display), null);
		}
		Analysis a;
		try {
			ParsedFile parsed = PythonFrontEnd.get().parse(bytes);
			a = analyzer.analyze(parsed, config, imported);
		} catch (RuntimeException | StackOverflowError e) {
			// The analyzer turns its own failures into PTO900 findings; this is the parser or worse.
			return new Outcome(file, display, null, "internal error: " + e + " (please report)");
		}
		if (a.diagnostics().isEmpty() && a.rankLoops().isEmpty()) {
			return new Outcome(file, display, empty(display), null);
		}
		return new Outcome(file, display, FileReport.of(display, a), null);
	}

	private static FileReport empty(String display) {
		return new FileReport(display, "", null, List.of(), List.of());
	}

	static boolean contains(byte[] hay, byte[] needle) {
		outer: for (int i = 0; i + needle.length <= hay.length; i++) {
			if (hay[i] != needle[0]) {
				continue;
			}
			for (int j = 1; j < needle.length; j++) {
				if (hay[i + j] != needle[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}
}
