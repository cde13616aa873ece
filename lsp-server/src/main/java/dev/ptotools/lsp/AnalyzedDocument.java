package dev.ptotools.lsp;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.incremental.Findings;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.source.LineMap;

/**
 * A document version with what was learned of it and the settings that applied. Three kinds:
 * <ul>
 * <li>analyzed: {@code analysis} is the pipeline's, and {@code findings} its findings by place;</li>
 * <li>findings only: {@code analysis} is null and {@code findings} were carried from the version
 * before with only the edited classes and defs analyzed again ({@code UnitReanalysis}): published
 * at once, while the whole analysis, which features answer from, follows when the text rests or a
 * request needs it; or the version's analysis was let go ({@link RetainedAnalyses}) and a request
 * makes it again;</li>
 * <li>skipped (too large): both are null and {@code skippedBecause} says why.</li>
 * </ul>
 */
public record AnalyzedDocument(OpenDocument.Snapshot snapshot, Analysis analysis, Findings findings,
		ServerSettings settings, ProjectConfig project, String skippedBecause) {

	/** An analyzed version. */
	public static AnalyzedDocument of(OpenDocument.Snapshot snapshot, Analysis analysis, ServerSettings settings,
			ProjectConfig project) {
		return new AnalyzedDocument(snapshot, analysis, Findings.of(analysis), settings, project, null);
	}

	/** A version published from carried findings, before its whole analysis. */
	public static AnalyzedDocument findingsOnly(OpenDocument.Snapshot snapshot, Findings findings,
			ServerSettings settings, ProjectConfig project) {
		return new AnalyzedDocument(snapshot, null, findings, settings, project, null);
	}

	/** This version without its analysis: its findings only. */
	public AnalyzedDocument withoutAnalysis() {
		return findingsOnly(snapshot, findings, settings, project);
	}

	/** A version not analyzed, and why. */
	public static AnalyzedDocument skipped(OpenDocument.Snapshot snapshot, ServerSettings settings,
			ProjectConfig project, String because) {
		return new AnalyzedDocument(snapshot, null, null, settings, project, because);
	}

	public int version() {
		return snapshot.version();
	}

	public String text() {
		return snapshot.text();
	}

	/** Whether the pipeline ran on this version (a findings-only or skipped version has no analysis). */
	public boolean analyzed() {
		return analysis != null;
	}

	/** Whether this is a version's final word: its analysis, or why it has none. */
	public boolean complete() {
		return analysis != null || skippedBecause != null;
	}

	/** What to publish: the analysis' diagnostics (the compile's included), else the carried findings. */
	public List<Diagnostic> diagnostics() {
		return analysis != null ? analysis.diagnostics() : findings.diagnostics();
	}

	public LineMap lines() {
		return analysis != null ? analysis.file().lines() : LineMap.of(snapshot.text());
	}

	/**
	 * Whether features can answer from this analysis: a PyPTO file whose passes all ran (a file that
	 * does not import pypto, or whose pipeline failed, gets empty answers).
	 */
	public boolean usable() {
		if (analysis == null || !analysis.isPypto()) {
			return false;
		}
		var f = analysis.facts();
		return f.has(Keys.CALLS) && f.has(Keys.FUNCTIONS) && f.has(Keys.CONSTANTS) && f.has(Keys.RANK_LOOPS)
				&& f.has(Keys.COMM_DOMAINS);
	}
}
