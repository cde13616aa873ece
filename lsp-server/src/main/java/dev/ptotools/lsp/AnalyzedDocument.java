package dev.ptotools.lsp;

import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.config.ProjectConfig;

/**
 * A document version with its analysis and the settings it was analyzed with. {@code analysis} is
 * null when the document was not analyzed (too large).
 */
public record AnalyzedDocument(OpenDocument.Snapshot snapshot, Analysis analysis, ServerSettings settings,
		ProjectConfig project, String skippedBecause) {

	public int version() {
		return snapshot.version();
	}

	public String text() {
		return snapshot.text();
	}

	public boolean analyzed() {
		return analysis != null;
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
