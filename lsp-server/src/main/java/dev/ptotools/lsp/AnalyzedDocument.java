package dev.ptotools.lsp;

import dev.ptotools.analyzer.pipeline.Analysis;
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
}
