package dev.ptotools.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.ptotools.analyzer.incremental.Findings;
import dev.ptotools.analyzer.incremental.UnitReanalysis;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.DeepStack;
import dev.ptotools.language.IncrementalParser;
import dev.ptotools.language.PythonFrontEnd;

/**
 * Runs the analysis pipeline on document snapshots: after a debounce for edits, at once when a
 * request needs the current version. Analyses run one at a time on one deep-stack thread, so results
 * are published in version order; a result for a version the client has moved past is kept for
 * requests but never published.
 */
public final class AnalysisScheduler {

	private final ExecutorService analysisThread = deepStackThread("pto-analysis");
	/** The compile step of each version, behind the analyzer's step: it never delays the next edit's analysis. */
	private final ExecutorService compileThread = deepStackThread("pto-compile");
	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread t = new Thread(r, "pto-debounce");
		t.setDaemon(true);
		return t;
	});
	private final WorkspaceFolders workspace;
	private final Consumer<AnalyzedDocument> publisher;
	/** Told of each version the compile step finished (whether or not its diagnostics changed). */
	private volatile Consumer<AnalyzedDocument> compiledListener = a -> {
	};
	/** The document edited last: its versions are parsed incrementally. */
	private volatile OpenDocument edited;
	/**
	 * The incremental parser of {@link #edited}, confined to the analysis thread. One document at a
	 * time: it holds the syntax tree of the version before, which for every other open document is
	 * dropped after its analysis (most of a document's memory).
	 */
	private IncrementalParser incremental;
	private OpenDocument incrementalFor;
	private final java.util.concurrent.atomic.AtomicInteger carriedVersions = new java.util.concurrent.atomic.AtomicInteger();
	private final java.util.concurrent.atomic.AtomicInteger reanalyzedVersions = new java.util.concurrent.atomic.AtomicInteger();
	/** The documents in use, which keep their whole analysis; the others keep their findings. */
	private final RetainedAnalyses retained;
	/** The open documents' texts, which the analyses of the modules importing them read instead of the disk. */
	private volatile dev.ptotools.analyzer.project.ProjectModules.OpenTexts openTexts =
			dev.ptotools.analyzer.project.ProjectModules.OpenTexts.NONE;
	/** The project's module files each open document's last whole analysis read (its imports, theirs...), by uri. */
	private final java.util.Map<String, java.util.Set<java.nio.file.Path>> importsRead = new java.util.concurrent.ConcurrentHashMap<>();
	/** What the importers of a module last saw of it ({@code ProjectRoots.exportsOf}), by module file. */
	private final java.util.Map<java.nio.file.Path, Object> exportsSeen = new java.util.concurrent.ConcurrentHashMap<>();
	private final java.util.concurrent.atomic.AtomicInteger importerReanalyses = new java.util.concurrent.atomic.AtomicInteger();

	private static ExecutorService deepStackThread(String name) {
		return Executors.newSingleThreadExecutor(r -> {
			Thread t = DeepStack.threadFactory().newThread(r);
			t.setName(name);
			return t;
		});
	}

	/** Where the open documents' texts come from (the language server's documents). */
	public void useOpenTexts(dev.ptotools.analyzer.project.ProjectModules.OpenTexts texts) {
		openTexts = texts;
	}

	/**
	 * After an edit of a module (once its analysis is under way), its opening or its closing: when open
	 * documents import it (their last analyses read it) and what they see of it changed — its folded
	 * exports, or the text of its pypto functions (ProjectModules.fingerprint) — they are analyzed again
	 * and published, the edit's text as they now see it; an edit they cannot see (a comment, a body of a
	 * module without pypto) costs nothing more. On the analysis thread, after the edit's own analysis.
	 */
	public void importedModuleMayHaveChanged(OpenDocument changed, java.util.function.Supplier<List<OpenDocument>> open,
			boolean closed) {
		java.nio.file.Path path = changed.path();
		if (path == null) {
			return;
		}
		java.nio.file.Path module = path.toAbsolutePath().normalize();
		int version = changed.version();
		Runnable check = () -> {
			if (!closed && changed.version() != version) {
				return; // a newer edit has its own check, queued behind
			}
			List<OpenDocument> importers = open.get().stream().filter(d -> d != changed)
					.filter(d -> importsRead.getOrDefault(d.uri(), java.util.Set.of()).contains(module)).toList();
			if (importers.isEmpty()) {
				exportsSeen.remove(module);
				return;
			}
			ProjectConfig project = workspace.projectFor(module);
			Object now = dev.ptotools.config.ProjectRoots.exportsOf(module, project, openTexts);
			Object before = exportsSeen.put(module, now);
			if (before == null) {
				// not seen since it was opened: its importers read the disk, or this same text
				before = dev.ptotools.config.ProjectRoots.exportsOf(module, project,
						dev.ptotools.analyzer.project.ProjectModules.OpenTexts.NONE);
			}
			if (java.util.Objects.equals(before, now)) {
				return; // nothing an importer sees changed: the cut-off
			}
			for (OpenDocument d : importers) {
				synchronized (d.publishing) {
					synchronized (d) {
						// what is held or under way of its version read the module as it was
						d.compiling = null;
						d.compilingVersion = Integer.MIN_VALUE;
						d.importsEpoch++;
					}
				}
				importerReanalyses.incrementAndGet();
				offerAndPublish(d, analyze(d.snapshot()));
			}
		};
		if (closed) {
			analysisThread.execute(check);
		} else {
			// after the edit's own debounce, so a burst of keystrokes is one check (and the edit's analysis first)
			timer.schedule(() -> analysisThread.execute(check), workspace.settingsFor(path).effectiveDebounceMs(),
					TimeUnit.MILLISECONDS);
		}
	}

	/** How many analyses of importers an edit, opening or closing of a module they import caused. */
	public int importerReanalyses() {
		return importerReanalyses.get();
	}

	/** What to tell when a version's compile step has run (the language server refreshes inlay hints). */
	public void onCompiled(Consumer<AnalyzedDocument> listener) {
		compiledListener = listener;
	}

	public AnalysisScheduler(WorkspaceFolders workspace, Consumer<AnalyzedDocument> publisher) {
		this(workspace, publisher, RetainedAnalyses.CAPACITY);
	}

	/** With the number of documents that keep their whole analysis ({@link RetainedAnalyses}). */
	AnalysisScheduler(WorkspaceFolders workspace, Consumer<AnalyzedDocument> publisher, int retainedAnalyses) {
		this.workspace = workspace;
		this.publisher = publisher;
		this.retained = new RetainedAnalyses(retainedAnalyses);
	}

	/** Analyzes the document after the debounce delay, replacing any analysis already waiting. */
	public void scheduleAfterEdit(OpenDocument doc) {
		int delay = workspace.settingsFor(doc.path()).effectiveDebounceMs();
		edited = doc;
		retained.use(doc);
		synchronized (doc) {
			if (doc.pending != null) {
				doc.pending.cancel(false);
			}
			doc.pending = timer.schedule(() -> afterEdit(doc), delay, TimeUnit.MILLISECONDS);
		}
	}

	/** The analysis of the document's current version: the one held, or one started now. */
	public CompletableFuture<AnalyzedDocument> current(OpenDocument doc) {
		retained.use(doc);
		return current(doc, true);
	}

	/**
	 * After an edit's debounce: the analysis of the version current now, which is skipped when it waits
	 * behind another analysis and the document moves on meanwhile (the newer edit has its own), unless a
	 * request asked for that version too. So a burst of edits to a large file costs one analysis after the
	 * one running, not one per keystroke queued behind it.
	 */
	private void afterEdit(OpenDocument doc) {
		current(doc, false);
	}

	private CompletableFuture<AnalyzedDocument> current(OpenDocument doc, boolean requested) {
		OpenDocument.Snapshot snap = doc.snapshot();
		AnalyzedDocument held = doc.analyzed();
		if (held != null && held.version() == snap.version()) {
			return CompletableFuture.completedFuture(held);
		}
		CompletableFuture<AnalyzedDocument> f;
		synchronized (doc) {
			if (doc.inFlight != null && doc.inFlightVersion == snap.version()) {
				doc.inFlightRequested |= requested;
				f = doc.inFlight;
			} else {
				f = CompletableFuture.supplyAsync(() -> analyzeAndPublish(doc, snap, !requested), analysisThread);
				f.whenComplete((a, e) -> letGoUnlessInUse(doc)); // the finished future holds the analysis
				doc.inFlight = f;
				doc.inFlightVersion = snap.version();
				doc.inFlightRequested = requested;
			}
		}
		// an edit's step may have published carried findings only: a request needs the analysis
		return requested ? f.thenCompose(a -> a.complete() ? CompletableFuture.completedFuture(a) : whole(doc, snap)) : f;
	}

	/** The whole analysis of a version whose findings were carried, when the text rests or a request needs it. */
	private CompletableFuture<AnalyzedDocument> whole(OpenDocument doc, OpenDocument.Snapshot snap) {
		return CompletableFuture.supplyAsync(() -> analyzeAndPublish(doc, snap, false), analysisThread);
	}

	/** Whether an analysis about to start is of a version nobody needs any more. */
	private static boolean stale(OpenDocument doc, OpenDocument.Snapshot snap) {
		synchronized (doc) {
			return doc.version() != snap.version() && !(doc.inFlightVersion == snap.version() && doc.inFlightRequested);
		}
	}

	/**
	 * The analysis of the current version with the compile's findings, for on-save: the compile step of
	 * that version (running, queued or done) rather than its first step, so the save writes the
	 * compilation that analysis holds instead of compiling again.
	 */
	public CompletableFuture<AnalyzedDocument> compiled(OpenDocument doc) {
		return current(doc).thenCompose(a -> {
			synchronized (doc) {
				if (doc.compiling != null && doc.compilingVersion == a.version()) {
					doc.compiling.start();
					return doc.compiling.result;
				}
			}
			return CompletableFuture.completedFuture(a);
		});
	}

	/** The newest analysis available without waiting (possibly of an older version), else the current one. */
	public CompletableFuture<AnalyzedDocument> latest(OpenDocument doc) {
		AnalyzedDocument held = doc.analyzed();
		return held != null ? CompletableFuture.completedFuture(held) : current(doc);
	}

	/**
	 * Analyzes a snapshot and publishes its diagnostics in two steps: the analyzer's findings as soon as
	 * they are ready, then, unless the document has moved on, the same version again with the compile's
	 * findings (PTO500/PTO501). The compile is the slowest stage on large modules; it runs on its own
	 * thread from the first step's facts once the text has rested ({@link #COMPILE_AFTER_MS}) or on
	 * save, so neither the first step nor the next edit's analysis waits for it, and it stops between
	 * programs when the text moves on (its result is then dropped).
	 *
	 * <p>An edit's first step ({@code mayCarry}) is cheaper still when only some classes and defs changed:
	 * their findings are made again and the rest carried from the version before ({@link #carried}); the
	 * whole analysis then follows on the compile thread once the text rests ({@link #WHOLE_AFTER_MS}), or
	 * here when a request needs it, and the compile after it.
	 */
	private AnalyzedDocument analyzeAndPublish(OpenDocument doc, OpenDocument.Snapshot snap, boolean mayCarry) {
		AnalyzedDocument held = doc.analyzed();
		if (held != null && held.version() == snap.version()) {
			return held;
		}
		if (held != null && stale(doc, snap)) {
			return held; // an older version, which nobody waiting on this one reads: see afterEdit
		}
		AnalyzedDocument carried = mayCarry ? carried(doc, snap) : null;
		if (carried != null) {
			offerAndPublish(doc, carried);
			timer.schedule(() -> compileThread.execute(() -> wholeAfterRest(doc, snap)), WHOLE_AFTER_MS,
					TimeUnit.MILLISECONDS);
			return carried;
		}
		Prepared p = prepare(snap, parserFor(doc));
		if (p.skipped() != null) {
			return offerAndPublish(doc, p.skipped());
		}
		AnalyzedDocument quick = publishAnalysis(doc, analyze(p, Analyzer.standard()));
		scheduleCompile(doc, quick, COMPILE_AFTER_MS);
		return quick;
	}

	/**
	 * The whole analysis of a version published from carried findings, once the text has rested: on the
	 * compile thread (from a whole parse: the incremental parser belongs to the analysis thread), so the
	 * next edit's first step does not wait for it; then its compile, at once.
	 */
	private void wholeAfterRest(OpenDocument doc, OpenDocument.Snapshot snap) {
		AnalyzedDocument held = doc.analyzed();
		if (doc.version() != snap.version() || held != null && held.version() == snap.version()) {
			return;
		}
		Prepared p = prepare(snap);
		if (p.skipped() != null) {
			offerAndPublish(doc, p.skipped());
			return;
		}
		scheduleCompile(doc, publishAnalysis(doc, analyze(p, Analyzer.standard())), 0);
	}

	/**
	 * Offers a version's analysis and publishes it, unless what was published for the version from
	 * carried findings says the same already.
	 */
	private AnalyzedDocument publishAnalysis(OpenDocument doc, AnalyzedDocument analyzed) {
		AnalyzedDocument before = doc.withFindings();
		boolean carried = before != null && before.version() == analyzed.version() && !before.complete();
		if (carried && before.findings().diagnostics().equals(analyzed.findings().diagnostics())
				&& before.findings().loops().equals(analyzed.findings().loops())) {
			keep(doc, analyzed);
			return analyzed;
		}
		if (carried) {
			System.err.println("pto: the findings carried for version " + analyzed.version() + " of "
					+ analyzed.snapshot().uri() + " differ from its analysis; published the analysis' (please report)");
		}
		return offerAndPublish(doc, analyzed);
	}

	/**
	 * Sets up a version's compile step, continued from its analysis: started after {@code delayMs}, or at
	 * once on save. A document not in use (one of many opened at once, which nobody edits) is compiled
	 * here and now from the analysis in hand, which otherwise it would hold until the step runs.
	 */
	private void scheduleCompile(OpenDocument doc, AnalyzedDocument quick, int delayMs) {
		OpenDocument.Snapshot snap = quick.snapshot();
		int epoch = doc.importsEpoch;
		java.util.function.BooleanSupplier superseded = () -> doc.snapshot().version() != snap.version()
				|| doc.importsEpoch != epoch;
		if (!quick.usable() || !quick.analysis().isPypto() || superseded.getAsBoolean()) {
			return;
		}
		PendingCompile compile = new PendingCompile(doc, quick, superseded);
		synchronized (doc) {
			doc.compiling = compile;
			doc.compilingVersion = snap.version();
		}
		// While edits keep coming, compiling each version would only take time from the next analysis:
		// the compile starts once the text has rested (or at once on save: compiled(doc)).
		if (!retained.retains(doc)) {
			compile.runHere();
		} else if (delayMs == 0) {
			compile.start();
		} else {
			timer.schedule(compile::start, delayMs, TimeUnit.MILLISECONDS);
		}
	}

	/**
	 * The version's findings carried from the newest version with findings and no syntax error, only the
	 * classes and defs the edit touched analyzed again ({@link UnitReanalysis}); null when that cannot be
	 * shown equal to a whole analysis, or would not be much cheaper, or the settings changed since.
	 */
	private AnalyzedDocument carried(OpenDocument doc, OpenDocument.Snapshot snap) {
		AnalyzedDocument before = doc.withFindings();
		if (before != null && !before.findings().carriable()) {
			before = doc.carriable(); // a version with a syntax error: from the newest one without
		}
		if (before == null || before.version() >= snap.version()) {
			return null;
		}
		ServerSettings settings = workspace.settingsFor(snap.path());
		ProjectConfig project = workspace.projectFor(snap.path());
		if (snap.text().length() > settings.effectiveMaxFileChars() || !settings.equals(before.settings())
				|| !project.equals(before.project())) {
			return null;
		}
		Findings findings = UnitReanalysis.attempt(before.findings(), snap.text(), withImports(Analyzer.standard(), snap, project),
				settings.analyzerConfig(project), MAX_SHARE_CARRIED).findings();
		if (findings == null) {
			return null;
		}
		carriedVersions.incrementAndGet();
		return AnalyzedDocument.findingsOnly(snap, findings, settings, project);
	}

	/** How many versions were published from carried findings (before their whole analysis). */
	public int carriedVersions() {
		return carriedVersions.get();
	}

	/** How many versions were analyzed again for a settings change ({@link #reanalyze}). */
	public int reanalyzedVersions() {
		return reanalyzedVersions.get();
	}

	/**
	 * Beyond this share of the text analyzed again, carrying findings saves little and the whole
	 * analysis, which gives every fact, is made at once instead.
	 */
	static final double MAX_SHARE_CARRIED = 0.5;

	/** How long the text must rest before a version published from carried findings is analyzed whole. */
	static final int WHOLE_AFTER_MS = 250;

	/** How long the text must rest before its compile step starts. */
	static final int COMPILE_AFTER_MS = 250;

	/**
	 * A version's compile step: started by its timer or by a save, whichever comes first, once. It holds
	 * what the compile reads and nothing more (the parse, the syntax tree, must not be held until it
	 * runs, for every open document); a document not in use lets go of the analysis too, and the step
	 * then analyzes the text again when it runs (opening many files at once queues a compile for each).
	 */
	final class PendingCompile {
		final CompletableFuture<AnalyzedDocument> result = new CompletableFuture<>();
		private final OpenDocument doc;
		private final OpenDocument.Snapshot snap;
		private final ServerSettings settings;
		private final ProjectConfig project;
		private final java.util.function.BooleanSupplier superseded;
		/** The first step's analysis, until the step runs or the document lets go of it. */
		private final java.util.concurrent.atomic.AtomicReference<AnalyzedDocument> from;
		private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();

		PendingCompile(OpenDocument doc, AnalyzedDocument quick, java.util.function.BooleanSupplier superseded) {
			this.doc = doc;
			this.snap = quick.snapshot();
			this.settings = quick.settings();
			this.project = quick.project();
			this.superseded = superseded;
			this.from = new java.util.concurrent.atomic.AtomicReference<>(quick);
		}

		/** Queues the compile on the compile thread unless it already was. */
		void start() {
			startOn(compileThread);
		}

		/** Runs the compile on this thread unless it was queued already. */
		void runHere() {
			startOn(Runnable::run);
		}

		private void startOn(java.util.concurrent.Executor executor) {
			if (!started.getAndSet(true)) {
				result.completeAsync(this::run, executor).whenComplete((a, e) -> letGoUnlessInUse(doc));
			}
		}

		/** Lets go of the first step's analysis (the step analyzes again if it still runs). */
		void dropAnalysis() {
			from.set(null);
		}

		private AnalyzedDocument run() {
			AnalyzedDocument quick = from.getAndSet(null);
			if (superseded.getAsBoolean()) {
				return unchanged(quick);
			}
			Analyzer compiler = withImports(Compiler.analyzer(settings.effectiveCompile(project).options(), superseded), snap,
					project);
			// continued from the first step's facts (which hold no syntax tree): only the compile and the
			// rules reading it run; or, the analysis let go of, the whole pipeline on the text again
			Analysis compiled = quick != null ? compiler.extend(quick.analysis(), settings.analyzerConfig(project))
					: compiler.analyze(PythonFrontEnd.get().parse(snap.text()), settings.analyzerConfig(project))
							.withoutSyntaxTree();
			AnalyzedDocument done;
			synchronized (doc.publishing) {
				// checked where it is published: a re-analysis for an imported module's change publishes under it too
				if (superseded.getAsBoolean()) {
					return unchanged(quick);
				}
				done = offerAndPublish(doc, AnalyzedDocument.of(snap, compiled, settings, project));
			}
			compiledListener.accept(done);
			return done;
		}

		/** What a step the document moved past answers: its first step, or the findings held. */
		private AnalyzedDocument unchanged(AnalyzedDocument quick) {
			return quick != null ? quick : doc.withFindings();
		}
	}

	/** Offers a version's analysis to the document, which keeps it whole only while in use. */
	private void keep(OpenDocument doc, AnalyzedDocument a) {
		doc.offer(a);
		if (a.analyzed()) {
			letGoUnlessInUse(doc);
		}
	}

	/** A document not in use lets go of its analysis wherever it holds one ({@link RetainedAnalyses}). */
	private void letGoUnlessInUse(OpenDocument doc) {
		if (!retained.retains(doc)) {
			doc.dropAnalysis();
		}
	}

	private AnalyzedDocument offerAndPublish(OpenDocument doc, AnalyzedDocument a) {
		keep(doc, a);
		// the check and the send as one, so that the two steps' threads never send a version after a newer one
		synchronized (doc.publishing) {
			if (doc.mayPublish(a)) {
				publisher.accept(a);
			}
		}
		return a;
	}

	/** A snapshot parsed, with the settings that apply to it; or why it is not analyzed. */
	private record Prepared(OpenDocument.Snapshot snap, ServerSettings settings, ProjectConfig project,
			dev.ptotools.language.ParsedFile parsed, AnalyzedDocument skipped) {
	}

	/** The edited document's incremental parser (made on its first edit), else null: a whole parse. */
	private IncrementalParser parserFor(OpenDocument doc) {
		if (doc != edited) {
			return null;
		}
		if (incrementalFor != doc) {
			incremental = new IncrementalParser(PythonFrontEnd.get());
			incrementalFor = doc;
		}
		return incremental;
	}

	/** Forgets a closed document's incremental parser and the syntax tree it holds. */
	public void closed(OpenDocument doc) {
		retained.closed(doc);
		importsRead.remove(doc.uri());
		if (edited == doc) {
			edited = null;
		}
		analysisThread.execute(() -> {
			if (incrementalFor == doc) {
				incremental = null;
				incrementalFor = null;
			}
		});
	}

	private Prepared prepare(OpenDocument.Snapshot snap) {
		return prepare(snap, null);
	}

	private Prepared prepare(OpenDocument.Snapshot snap, IncrementalParser parser) {
		ServerSettings settings = workspace.settingsFor(snap.path());
		ProjectConfig project = workspace.projectFor(snap.path());
		int max = settings.effectiveMaxFileChars();
		if (snap.text().length() > max) {
			return new Prepared(snap, settings, project, null, AnalyzedDocument.skipped(snap, settings, project, String.format(
					"file is too large to analyze (%,d characters, the limit is %,d: setting pto.maxFileChars)",
					snap.text().length(), max)));
		}
		dev.ptotools.language.ParsedFile parsed = parser != null ? parser.parse(snap.text())
				: PythonFrontEnd.get().parse(snap.text());
		return new Prepared(snap, settings, project, parsed, null);
	}

	/**
	 * The analyzer reading the document's imports of its project's other modules from the disk (saved
	 * versions; an untitled document imports none).
	 */
	private Analyzer withImports(Analyzer analyzer, OpenDocument.Snapshot snap, ProjectConfig project) {
		return snap.path() == null ? analyzer
				: analyzer.withImportedModules(dev.ptotools.config.ProjectRoots.importsOf(snap.path(), project, openTexts));
	}

	private AnalyzedDocument analyze(Prepared p, Analyzer analyzer) {
		// Held until the next version: without the syntax tree, which nothing reads after the pipeline
		// and which is most of the memory of every open document.
		Analysis analysis = withImports(analyzer, p.snap(), p.project()).analyze(p.parsed(),
				p.settings().analyzerConfig(p.project())).withoutSyntaxTree();
		if (analysis.facts().has(dev.ptotools.analyzer.pipeline.Keys.IMPORTED_MODULES)) {
			importsRead.put(p.snap().uri(),
					java.util.Set.copyOf(analysis.facts().get(dev.ptotools.analyzer.pipeline.Keys.IMPORTED_MODULES).modulesRead()));
		}
		return AnalyzedDocument.of(p.snap(), analysis, p.settings(), p.project());
	}

	/**
	 * The whole pipeline on one snapshot, the compile included, with the settings that apply to it (for
	 * a re-analysis after a settings change, which publishes once).
	 */
	public AnalyzedDocument analyze(OpenDocument.Snapshot snap) {
		Prepared p = prepare(snap);
		if (p.skipped() != null) {
			return p.skipped();
		}
		return analyze(p, Compiler.analyzer(p.settings().effectiveCompile(p.project()).options()));
	}

	/**
	 * Re-analyzes documents (after a settings change) and publishes the results. A document whose
	 * held analysis was made with the settings and project configuration that apply now is left as it
	 * is: the analysis reads nothing else, so it would come out the same; and if the document has moved
	 * on since, its edit's own analysis is under way, with these settings too. (Editors send
	 * configuration at start-up, often twice: without this, a large file was analyzed up to four times
	 * before the first edit.)
	 */
	public void reanalyze(List<OpenDocument> docs) {
		for (OpenDocument d : new ArrayList<>(docs)) {
			analysisThread.submit(() -> {
				OpenDocument.Snapshot snap = d.snapshot();
				// a document not in use keeps findings only; they were made with the settings of their time too
				AnalyzedDocument held = d.analyzed() != null ? d.analyzed() : d.withFindings();
				if (held != null && (held.version() != snap.version() || held.text().equals(snap.text()))
						&& held.settings().equals(workspace.settingsFor(snap.path()))
						&& held.project().equals(workspace.projectFor(snap.path()))) {
					return;
				}
				reanalyzedVersions.incrementAndGet();
				offerAndPublish(d, analyze(snap));
			});
		}
	}

	public void shutdown() {
		timer.shutdownNow();
		analysisThread.shutdownNow();
		compileThread.shutdownNow();
	}
}
