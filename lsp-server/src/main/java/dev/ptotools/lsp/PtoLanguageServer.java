package dev.ptotools.lsp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.Either3;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.NotebookDocumentService;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;
import org.eclipse.xtext.ide.server.LanguageServerImpl;

import com.google.gson.JsonElement;

import dev.ptotools.language.DeepStack;
import dev.ptotools.lsp.features.CodeActions;
import dev.ptotools.lsp.features.CodeLenses;
import dev.ptotools.lsp.features.Commands;
import dev.ptotools.lsp.features.Completion;
import dev.ptotools.lsp.features.Folding;
import dev.ptotools.lsp.features.Hovers;
import dev.ptotools.lsp.features.InlayHints;
import dev.ptotools.lsp.features.Navigation;
import dev.ptotools.lsp.features.SemanticTokensFeature;
import dev.ptotools.lsp.features.Symbols;

/**
 * The PyPTO language server: Xtext's LanguageServerImpl, with every document and workspace service
 * routed to our own features over the shared analysis pipeline. Xtext's workspace build (which
 * parses the whole workspace before answering initialize and re-validates on each keystroke) is not
 * used: documents are analyzed when opened or edited, after a debounce, one version at a time.
 * <p>
 * Every request is answered: unknown documents and positions out of range give empty results, and
 * an exception inside a feature is logged and answered with an error response while the server
 * keeps running.
 */
public class PtoLanguageServer extends LanguageServerImpl {

	/** Server-side commands (workspace/executeCommand). */
	public static final String SHOW_GENERATED_CODE = "pto.showGeneratedCode";
	public static final String EXPLAIN_LOOP = "pto.explainLoop";
	public static final String COMPILE_WORKSPACE = "pto.compileWorkspace";
	public static final String SHOW_TASK_GRAPH = "pto.showTaskGraph";
	public static final String SHOW_PASS_DUMPS = "pto.showPassDumps";

	private final Map<String, OpenDocument> documents = new ConcurrentHashMap<>();
	private final WorkspaceFolders workspace = new WorkspaceFolders(new ConfigurationWarnings(this::warn));
	private final AnalysisScheduler scheduler = new AnalysisScheduler(workspace, new DiagnosticsPublisher(this));
	private final ExecutorService requests = Executors.newFixedThreadPool(2, DeepStack.threadFactory());
	private final Commands commands = new Commands(this);
	private volatile LanguageClient client;
	private volatile ClientCapabilities capabilities = new ClientCapabilities();
	private volatile boolean shutdownRequested;
	private volatile boolean initialized;
	private final ExitHandler exitHandler;

	/** What happens on exit: the process exits with 0 after shutdown, 1 without (the LSP rule). */
	public interface ExitHandler {
		void exit(int code);
	}

	public PtoLanguageServer(ExitHandler exitHandler) {
		this.exitHandler = exitHandler;
		// the analyses of a module's importers read its open text, unsaved edits included, not the disk
		scheduler.useOpenTexts(this::openText);
	}

	/** The text of the open document of a file, or null. */
	private String openText(java.nio.file.Path file) {
		for (OpenDocument d : documents.values()) {
			if (d.path() != null && d.path().toAbsolutePath().normalize().equals(file)) {
				return d.snapshot().text();
			}
		}
		return null;
	}

	// ---- lifecycle --------------------------------------------------------------------------

	@Override
	public void connect(LanguageClient languageClient) {
		this.client = languageClient;
		// inlay hints show the compile's types, which come after the first diagnostics of a version
		scheduler.onCompiled(a -> {
			LanguageClient c = client;
			if (c != null && capabilities.getWorkspace() != null && capabilities.getWorkspace().getInlayHint() != null
					&& Boolean.TRUE.equals(capabilities.getWorkspace().getInlayHint().getRefreshSupport())) {
				c.refreshInlayHints();
			}
		});
	}

	public LanguageClient client() {
		return client;
	}

	@Override
	public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
		if (initialized) {
			return CompletableFuture.failedFuture(new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(
					new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(
							org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode.InvalidRequest, "already initialized", null)));
		}
		if (params.getCapabilities() != null) {
			capabilities = params.getCapabilities();
		}
		List<Path> folders = new ArrayList<>();
		if (params.getWorkspaceFolders() != null) {
			for (WorkspaceFolder f : params.getWorkspaceFolders()) {
				Path p = Lsp.path(f.getUri());
				if (p != null) {
					folders.add(p);
				}
			}
		}
		if (folders.isEmpty() && params.getRootUri() != null && Lsp.path(params.getRootUri()) != null) {
			folders.add(Lsp.path(params.getRootUri()));
		}
		workspace.setFolders(folders);
		if (params.getInitializationOptions() instanceof JsonElement json) {
			workspace.setGlobal(ServerSettings.from(json));
		}
		initialized = true;
		InitializeResult result = new InitializeResult(Capabilities.advertised(), new ServerInfo("pto", dev.ptotools.Main.version()));
		return CompletableFuture.completedFuture(result);
	}

	@Override
	public void initialized(InitializedParams params) {
		pullConfiguration();
	}

	@Override
	public CompletableFuture<Object> shutdown() {
		if (!initialized) {
			return refusal();
		}
		shutdownRequested = true;
		scheduler.shutdown();
		requests.shutdownNow();
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public void exit() {
		exitHandler.exit(shutdownRequested ? 0 : 1);
	}

	@Override
	public TextDocumentService getTextDocumentService() {
		return this;
	}

	@Override
	public WorkspaceService getWorkspaceService() {
		return this;
	}

	@Override
	public NotebookDocumentService getNotebookDocumentService() {
		return this;
	}

	@Override
	public Map<String, JsonRpcMethod> supportedMethods() {
		return ServiceEndpoints.getSupportedMethods(getClass());
	}

	@Override
	public void notify(String method, Object parameter) {
		// Unknown notifications are ignored, as the specification asks ($/ ones included).
	}

	@Override
	public CompletableFuture<?> request(String method, Object parameter) {
		return CompletableFuture.failedFuture(new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(
				new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(
						org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode.MethodNotFound, "unknown method " + method,
						null)));
	}

	// ---- documents --------------------------------------------------------------------------

	@Override
	public void didOpen(DidOpenTextDocumentParams params) {
		if (!initialized || shutdownRequested) {
			return; // notifications out of place are dropped
		}
		TextDocumentItem item = params.getTextDocument();
		OpenDocument doc = new OpenDocument(item.getUri(), item.getText() == null ? "" : item.getText(),
				item.getVersion());
		documents.put(item.getUri(), doc);
		scheduler.current(doc);
		scheduler.importedModuleMayHaveChanged(doc, this::openDocuments, false); // an unsaved buffer, restored
	}

	@Override
	public void didChange(DidChangeTextDocumentParams params) {
		if (!initialized || shutdownRequested) {
			return; // notifications out of place are dropped
		}
		OpenDocument doc = documents.get(params.getTextDocument().getUri());
		if (doc == null) {
			return; // a change to a document never opened: nothing to apply it to
		}
		Integer v = params.getTextDocument().getVersion();
		doc.apply(params.getContentChanges(), v == null ? doc.version() + 1 : v);
		scheduler.scheduleAfterEdit(doc);
		scheduler.importedModuleMayHaveChanged(doc, this::openDocuments, false);
	}

	@Override
	public void didClose(DidCloseTextDocumentParams params) {
		String uri = params.getTextDocument().getUri();
		OpenDocument closed = documents.remove(uri);
		if (closed != null) {
			scheduler.closed(closed);
			scheduler.importedModuleMayHaveChanged(closed, this::openDocuments, true); // its importers read the disk again
		}
		if (closed != null && client != null) {
			client.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
		}
	}

	@Override
	public void didSave(DidSaveTextDocumentParams params) {
		if (!initialized || shutdownRequested) {
			return; // notifications out of place are dropped
		}
		OpenDocument doc = documents.get(params.getTextDocument().getUri());
		if (doc == null) {
			return;
		}
		if (params.getText() != null && !params.getText().equals(doc.snapshot().text())) {
			doc.replace(params.getText(), doc.version());
		}
		scheduler.compiled(doc).thenAcceptAsync(commands::compileOnSave, requests).exceptionally(this::logFailure);
	}

	public List<OpenDocument> openDocuments() {
		return List.copyOf(documents.values());
	}

	public OpenDocument document(String uri) {
		return documents.get(uri);
	}

	public WorkspaceFolders workspace() {
		return workspace;
	}

	public AnalysisScheduler scheduler() {
		return scheduler;
	}

	public ExecutorService requestExecutor() {
		return requests;
	}

	// ---- request plumbing -------------------------------------------------------------------

	/**
	 * The specification's answer to a request out of place: ServerNotInitialized before initialize,
	 * InvalidRequest after shutdown; null when the request may run.
	 */
	private <T> CompletableFuture<T> refusal() {
		if (!initialized) {
			return CompletableFuture.failedFuture(new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(
					new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(
							org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode.ServerNotInitialized,
							"the server is not initialized yet", null)));
		}
		if (shutdownRequested) {
			return CompletableFuture.failedFuture(new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(
					new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(
							org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode.InvalidRequest,
							"the server is shutting down", null)));
		}
		return null;
	}

	/**
	 * Runs a feature on the current analysis of a document; an unknown document answers
	 * {@code empty}, and any failure is logged and answered as an error (the server keeps running).
	 */
	private <T> CompletableFuture<T> onDocument(String uri, T empty, Function<AnalyzedDocument, T> feature) {
		CompletableFuture<T> refused = refusal();
		if (refused != null) {
			return refused;
		}
		OpenDocument doc = uri == null ? null : documents.get(uri);
		if (doc == null) {
			return CompletableFuture.completedFuture(empty);
		}
		return scheduler.current(doc).thenApplyAsync(a -> a.usable() ? feature.apply(a) : empty, requests)
				.whenComplete((r, e) -> {
					if (e != null) {
						log(MessageType.Error, "request failed on " + uri + ": " + e);
					}
				});
	}

	private Void logFailure(Throwable e) {
		log(MessageType.Error, "pto: " + e);
		return null;
	}

	/** A warning the user should see (window/showMessage), such as a setting naming no rule. */
	private void warn(String message) {
		LanguageClient c = client;
		if (c != null) {
			c.showMessage(new MessageParams(MessageType.Warning, message));
		} else {
			System.err.println(message);
		}
	}

	public void log(MessageType type, String message) {
		LanguageClient c = client;
		if (c != null) {
			c.logMessage(new MessageParams(type, message));
		} else {
			System.err.println(message);
		}
	}

	// ---- features ---------------------------------------------------------------------------

	@Override
	public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
		return onDocument(params.getTextDocument().getUri(), List.of(), a -> CodeActions.actions(a, params));
	}

	@Override
	public CompletableFuture<List<? extends CodeLens>> codeLens(CodeLensParams params) {
		return onDocument(params.getTextDocument().getUri(), List.of(), CodeLenses::lenses);
	}

	@Override
	public CompletableFuture<CodeLens> resolveCodeLens(CodeLens unresolved) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(unresolved);
	}

	@Override
	public CompletableFuture<List<InlayHint>> inlayHint(InlayHintParams params) {
		return onDocument(params.getTextDocument().getUri(), List.of(), a -> InlayHints.hints(a, params.getRange()));
	}

	@Override
	public CompletableFuture<Hover> hover(HoverParams params) {
		return onDocument(params.getTextDocument().getUri(), null, a -> Hovers.hover(a, params.getPosition()));
	}

	@Override
	public CompletableFuture<List<Either<SymbolInformation, DocumentSymbol>>> documentSymbol(DocumentSymbolParams params) {
		return onDocument(params.getTextDocument().getUri(), List.of(), Symbols::documentSymbols);
	}

	@Override
	public CompletableFuture<Either<List<? extends SymbolInformation>, List<? extends WorkspaceSymbol>>> symbol(
			WorkspaceSymbolParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.supplyAsync(() -> Symbols.workspaceSymbols(this, params.getQuery()), requests);
	}

	@Override
	public CompletableFuture<Either<List<? extends Location>, List<? extends LocationLink>>> definition(
			DefinitionParams params) {
		return onDocument(params.getTextDocument().getUri(), Either.forLeft(List.of()),
				a -> Either.forLeft(Navigation.definition(a, params.getPosition())));
	}

	@Override
	public CompletableFuture<List<? extends Location>> references(ReferenceParams params) {
		boolean withDecl = params.getContext() == null || params.getContext().isIncludeDeclaration();
		return onDocument(params.getTextDocument().getUri(), List.of(),
				a -> Navigation.references(a, params.getPosition(), withDecl));
	}

	@Override
	public CompletableFuture<Either3<Range, PrepareRenameResult, PrepareRenameDefaultBehavior>> prepareRename(
			PrepareRenameParams params) {
		return onDocument(params.getTextDocument().getUri(), null, a -> Navigation.prepareRename(a, params.getPosition()));
	}

	@Override
	public CompletableFuture<WorkspaceEdit> rename(RenameParams params) {
		return onDocument(params.getTextDocument().getUri(), null,
				a -> Navigation.rename(a, params.getPosition(), params.getNewName()));
	}

	@Override
	public CompletableFuture<Either<List<CompletionItem>, CompletionList>> completion(CompletionParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		OpenDocument doc = documents.get(params.getTextDocument().getUri());
		if (doc == null) {
			return CompletableFuture.completedFuture(Either.forLeft(List.of()));
		}
		// Completion reads the text as typed; the analysis may be one keystroke old.
		OpenDocument.Snapshot snap = doc.snapshot();
		return scheduler.latest(doc).thenApplyAsync(
				a -> Either.<List<CompletionItem>, CompletionList>forRight(Completion.complete(snap, a, params.getPosition())),
				requests);
	}

	@Override
	public CompletableFuture<CompletionItem> resolveCompletionItem(CompletionItem unresolved) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(unresolved);
	}

	@Override
	public CompletableFuture<SemanticTokens> semanticTokensFull(SemanticTokensParams params) {
		return onDocument(params.getTextDocument().getUri(), new SemanticTokens(List.of()), SemanticTokensFeature::tokens);
	}

	@Override
	public CompletableFuture<List<FoldingRange>> foldingRange(FoldingRangeRequestParams params) {
		return onDocument(params.getTextDocument().getUri(), List.of(), Folding::ranges);
	}

	@Override
	public CompletableFuture<SignatureHelp> signatureHelp(SignatureHelpParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public CompletableFuture<List<? extends DocumentHighlight>> documentHighlight(DocumentHighlightParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(List.of());
	}

	@Override
	public CompletableFuture<List<? extends TextEdit>> formatting(DocumentFormattingParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(List.of());
	}

	@Override
	public CompletableFuture<List<? extends TextEdit>> rangeFormatting(DocumentRangeFormattingParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(List.of());
	}

	@Override
	public CompletableFuture<List<? extends TextEdit>> onTypeFormatting(DocumentOnTypeFormattingParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.completedFuture(List.of());
	}

	@Override
	public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
		CompletableFuture<?> refused = refusal();
		if (refused != null) {
			return refused.thenApply(x -> null);
		}
		return CompletableFuture.supplyAsync(() -> commands.execute(params), requests).whenComplete((r, e) -> {
			if (e != null) {
				log(MessageType.Error, "command " + params.getCommand() + " failed: " + e);
			}
		});
	}

	// ---- workspace --------------------------------------------------------------------------

	@Override
	public void didChangeConfiguration(DidChangeConfigurationParams params) {
		if (params.getSettings() instanceof JsonElement json) {
			workspace.setGlobal(ServerSettings.from(json));
		}
		workspace.forgetPyprojects();
		pullConfiguration();
		scheduler.reanalyze(openDocuments());
	}

	@Override
	public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
		workspace.forgetPyprojects();
		scheduler.reanalyze(openDocuments());
	}

	@Override
	public void didChangeWorkspaceFolders(DidChangeWorkspaceFoldersParams params) {
		WorkspaceFoldersChangeEvent e = params.getEvent();
		if (e == null) {
			return;
		}
		for (WorkspaceFolder f : e.getRemoved()) {
			Path p = Lsp.path(f.getUri());
			if (p != null) {
				workspace.remove(p);
			}
		}
		for (WorkspaceFolder f : e.getAdded()) {
			Path p = Lsp.path(f.getUri());
			if (p != null) {
				workspace.add(p);
			}
		}
		pullConfiguration();
	}

	/** Asks the client for the {@code pto} section of each folder, when it can answer. */
	private void pullConfiguration() {
		LanguageClient c = client;
		if (c == null || capabilities.getWorkspace() == null
				|| !Boolean.TRUE.equals(capabilities.getWorkspace().getConfiguration())) {
			return;
		}
		List<Path> folders = workspace.folders();
		List<ConfigurationItem> items = new ArrayList<>();
		ConfigurationItem global = new ConfigurationItem();
		global.setSection("pto");
		items.add(global);
		for (Path f : folders) {
			ConfigurationItem item = new ConfigurationItem();
			item.setSection("pto");
			item.setScopeUri(Lsp.uri(f));
			items.add(item);
		}
		c.configuration(new ConfigurationParams(items)).thenAccept(values -> {
			if (values == null || values.isEmpty()) {
				return;
			}
			if (values.get(0) instanceof JsonElement json && json.isJsonObject()) {
				workspace.setGlobal(ServerSettings.from(json));
			}
			for (int i = 1; i < values.size() && i - 1 < folders.size(); i++) {
				if (values.get(i) instanceof JsonElement json && json.isJsonObject()) {
					workspace.setFolderSettings(folders.get(i - 1), ServerSettings.from(json));
				}
			}
			scheduler.reanalyze(openDocuments());
		}).exceptionally(this::logFailure);
	}

	public boolean initializedByClient() {
		return initialized;
	}

	public ClientCapabilities clientCapabilities() {
		return capabilities;
	}

	/** For features that check cancellation while they compute. */
	public static void checkCanceled(CancelChecker checker) {
		if (checker != null) {
			checker.checkCanceled();
		}
	}
}
