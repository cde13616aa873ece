package dev.ptotools.analyzer.report;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.language.source.LineMap;

/**
 * One checked file as the report writers see it: its path as reports print it (relative to the
 * repository root, with forward slashes), its text and line map (for positions, source lines and
 * fingerprints), its findings in the analyzer's order and its rank loops.
 */
public record FileReport(String path, String text, LineMap lines, List<Diagnostic> diagnostics, List<RankLoop> loops) {

	public FileReport {
		diagnostics = List.copyOf(diagnostics);
		loops = List.copyOf(loops);
		if (lines == null) {
			lines = LineMap.of(text);
		}
	}

	public static FileReport of(String path, Analysis analysis) {
		return new FileReport(path, analysis.file().text(), analysis.file().lines(), analysis.diagnostics(),
				analysis.rankLoops());
	}

	/** A file with findings only (no loops), from any diagnostics. */
	public static FileReport of(String path, String text, List<Diagnostic> diagnostics) {
		return new FileReport(path, text, LineMap.of(text), diagnostics, List.of());
	}
}
