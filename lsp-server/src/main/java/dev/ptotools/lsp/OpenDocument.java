package dev.ptotools.lsp;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

import org.eclipse.lsp4j.TextDocumentContentChangeEvent;

import dev.ptotools.language.source.LineMap;

/**
 * One open document: its text and version as the client last sent them, and the newest analysis. Text
 * changes happen on the protocol thread, in order; analyses run elsewhere on snapshots.
 */
public final class OpenDocument {

	/** An immutable view of a version of the document. */
	public record Snapshot(String uri, Path path, int version, String text) {
	}

	private final String uri;
	private final Path path;
	private String text;
	private int version;
	/** The newest version with its final word: analyzed, or skipped as too large. */
	private volatile AnalyzedDocument analyzed;
	/** The newest version with findings, analyzed or carried: the next edit's findings start from it. */
	private volatile AnalyzedDocument withFindings;
	/**
	 * The newest version whose findings the next edit may carry (no syntax error), findings only: while
	 * a statement is typed, most versions do not parse, and each starts from the last one that did.
	 */
	private volatile AnalyzedDocument carriable;
	/** What was last published, so that a version's same findings are not sent again. */
	private Publication published;

	/** What a client was sent for a version: its diagnostics and rank loops, or why it was skipped. */
	private record Publication(int version, List<dev.ptotools.analyzer.diagnostics.Diagnostic> diagnostics,
			List<dev.ptotools.analyzer.incremental.Findings.Loop> loops, String skippedBecause) {

		static Publication of(AnalyzedDocument a) {
			return a.findings() == null ? new Publication(a.version(), List.of(), List.of(), a.skippedBecause())
					: new Publication(a.version(), a.diagnostics(), a.findings().loops(), null);
		}
	}
	ScheduledFuture<?> pending;
	CompletableFuture<AnalyzedDocument> inFlight;
	int inFlightVersion = Integer.MIN_VALUE;
	/** Whether a request (not only an edit's debounce) waits for the analysis in flight. */
	boolean inFlightRequested;
	/** The compile step of the newest analyzed version, and that version. */
	AnalysisScheduler.PendingCompile compiling;
	/**
	 * Counts the analyses of this version made again because a module it imports changed: a compile step
	 * begun before one of them read the module as it was, and its result is dropped.
	 */
	volatile int importsEpoch;
	int compilingVersion = Integer.MIN_VALUE;
	/** Held while a version's diagnostics are checked and sent. */
	final Object publishing = new Object();

	OpenDocument(String uri, String text, int version) {
		this.uri = uri;
		this.path = Lsp.path(uri);
		this.text = text;
		this.version = version;
	}

	public String uri() {
		return uri;
	}

	public Path path() {
		return path;
	}

	public synchronized Snapshot snapshot() {
		return new Snapshot(uri, path, version, text);
	}

	public synchronized int version() {
		return version;
	}

	/** Applies a didChange: full replacements and ranged edits, in the order sent. */
	public synchronized void apply(List<TextDocumentContentChangeEvent> changes, int newVersion) {
		for (TextDocumentContentChangeEvent c : changes) {
			if (c.getRange() == null) {
				text = c.getText();
			} else {
				LineMap lines = LineMap.of(text);
				int start = Lsp.offset(lines, text, c.getRange().getStart());
				int end = Math.max(start, Lsp.offset(lines, text, c.getRange().getEnd()));
				text = text.substring(0, start) + c.getText() + text.substring(end);
			}
		}
		version = newVersion;
	}

	public synchronized void replace(String newText, int newVersion) {
		text = newText;
		version = newVersion;
	}

	public AnalyzedDocument analyzed() {
		return analyzed;
	}

	/** The newest version with findings (see {@link AnalyzedDocument}), or null. */
	public AnalyzedDocument withFindings() {
		return withFindings;
	}

	/** The newest version whose findings the next edit may carry (findings only), or null. */
	public AnalyzedDocument carriable() {
		return carriable;
	}

	/** Keeps what was learned of a version if it is newer than what is held. */
	synchronized void offer(AnalyzedDocument a) {
		if (a.complete() && (analyzed == null || a.version() >= analyzed.version())) {
			analyzed = a;
		}
		if (a.findings() != null && (withFindings == null || a.version() >= withFindings.version())) {
			withFindings = a;
		}
		if (a.findings() != null && a.findings().carriable() && (carriable == null || a.version() >= carriable.version())) {
			carriable = a.analyzed() ? a.withoutAnalysis() : a;
		}
	}

	/**
	 * Lets go of the whole analysis, most of what the document holds ({@link RetainedAnalyses}): the
	 * findings stay, for the next edit to carry and for what was published. A request analyzes again.
	 */
	synchronized void dropAnalysis() {
		if (analyzed != null && analyzed.analyzed()) {
			analyzed = null;
		}
		if (withFindings != null && withFindings.analyzed()) {
			withFindings = withFindings.withoutAnalysis();
		}
		// finished steps hold their results, and a compile step waiting to run holds its first step's
		if (inFlight != null && inFlight.isDone()) {
			inFlight = null;
			inFlightVersion = Integer.MIN_VALUE;
		}
		if (compiling != null) {
			compiling.dropAnalysis();
			if (compiling.result.isDone()) {
				compiling = null;
				compilingVersion = Integer.MIN_VALUE;
			}
		}
	}

	/**
	 * Whether the findings of this version may be published: never older after newer, and not what was
	 * published last again (a version analyzed again after it let go of its analysis).
	 */
	synchronized boolean mayPublish(AnalyzedDocument a) {
		int v = a.version();
		Publication p = Publication.of(a);
		if (v != version || published != null && v < published.version() || p.equals(published)) {
			return false;
		}
		published = p;
		return true;
	}
}
