package dev.ptotools.lsp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.services.JsonNotification;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * An in-process LSP4J client connected to a real server over piped streams: everything goes through
 * JSON-RPC exactly as with an editor.
 */
public final class LspHarness implements AutoCloseable {

	/** The client side: records what the server sends. */
	public static final class Client implements LanguageClient {
		public final List<PublishDiagnosticsParams> diagnostics = new CopyOnWriteArrayList<>();
		public final List<MessageParams> messages = new CopyOnWriteArrayList<>();
		/** window/showMessage only (also in {@link #messages}). */
		public final List<MessageParams> shown = new CopyOnWriteArrayList<>();
		public final List<ProgressParams> progress = new CopyOnWriteArrayList<>();
		public final List<JsonObject> loopSummaries = new CopyOnWriteArrayList<>();
		/** How many workspace/inlayHint/refresh requests came. */
		public final java.util.concurrent.atomic.AtomicInteger inlayHintRefreshes = new java.util.concurrent.atomic.AtomicInteger();
		public volatile JsonElement configuration;
		/** Per workspace folder (scopeUri) answers to workspace/configuration; others get {@link #configuration}. */
		public final java.util.Map<String, JsonElement> folderConfiguration = new java.util.concurrent.ConcurrentHashMap<>();

		@Override
		public void telemetryEvent(Object object) {
		}

		@Override
		public void publishDiagnostics(PublishDiagnosticsParams d) {
			diagnostics.add(d);
		}

		@Override
		public void showMessage(MessageParams m) {
			messages.add(m);
			shown.add(m);
		}

		@Override
		public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams p) {
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public void logMessage(MessageParams m) {
			messages.add(m);
		}

		@Override
		public CompletableFuture<Void> refreshInlayHints() {
			inlayHintRefreshes.incrementAndGet();
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public CompletableFuture<List<Object>> configuration(ConfigurationParams params) {
			List<Object> out = new ArrayList<>();
			for (ConfigurationItem item : params.getItems()) {
				JsonElement folder = item.getScopeUri() == null ? null : folderConfiguration.get(item.getScopeUri());
				out.add(folder != null ? folder : configuration);
			}
			return CompletableFuture.completedFuture(out);
		}

		@Override
		public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams params) {
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public void notifyProgress(ProgressParams params) {
			progress.add(params);
		}

		@JsonNotification("pto/loopSummary")
		public void loopSummary(JsonObject summary) {
			loopSummaries.add(summary);
		}
	}

	public final Client client = new Client();
	public final LanguageServer server;
	/** The server object behind {@link #server}, for what the protocol does not show. */
	private final CompletableFuture<PtoLanguageServer> implementation = new CompletableFuture<>();
	public final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
	private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
		Thread t = new Thread(r, "lsp-harness");
		t.setDaemon(true);
		return t;
	});
	/** Bytes the client writes to the server; closing it ends the server's input. */
	public final OutputStream toServer;

	public LspHarness() throws IOException {
		Pipe toServerPipe = new Pipe();
		Pipe toClientPipe = new Pipe();
		toServer = toServerPipe.out;
		threads.submit(() -> {
			ServeCommand.serve(toServerPipe.in, toClientPipe.out, exitCode::complete, implementation::complete);
			return null;
		});
		Launcher<LanguageServer> launcher = new LSPLauncher.Builder<LanguageServer>().setLocalService(client)
				.setRemoteInterface(LanguageServer.class).setInput(toClientPipe.in).setOutput(toServerPipe.out)
				.setExecutorService(threads).create();
		launcher.startListening();
		server = launcher.getRemoteProxy();
	}

	/** The server object (its scheduler, say), which the protocol does not show. */
	public PtoLanguageServer implementation() throws Exception {
		return implementation.get(30, TimeUnit.SECONDS);
	}

	public InitializeResult initialize(Path root, JsonElement initializationOptions) throws Exception {
		return initialize(root == null ? List.of() : List.of(root), initializationOptions);
	}

	public InitializeResult initialize(List<Path> roots, JsonElement initializationOptions) throws Exception {
		InitializeParams p = new InitializeParams();
		List<WorkspaceFolder> folders = new ArrayList<>();
		for (Path root : roots) {
			folders.add(new WorkspaceFolder(root.toUri().toString(), root.getFileName().toString()));
		}
		if (!folders.isEmpty()) {
			p.setWorkspaceFolders(folders);
		}
		ClientCapabilities caps = new ClientCapabilities();
		WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
		ws.setConfiguration(true);
		ws.setWorkspaceFolders(true);
		ws.setInlayHint(new InlayHintWorkspaceCapabilities(true));
		caps.setWorkspace(ws);
		WindowClientCapabilities window = new WindowClientCapabilities();
		window.setWorkDoneProgress(true);
		caps.setWindow(window);
		p.setCapabilities(caps);
		p.setInitializationOptions(initializationOptions);
		InitializeResult r = server.initialize(p).get(30, TimeUnit.SECONDS);
		server.initialized(new InitializedParams());
		return r;
	}

	public void open(String uri, String text) {
		server.getTextDocumentService()
				.didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "python", 1, text)));
	}

	public void change(String uri, int version, String text) {
		server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
				new VersionedTextDocumentIdentifier(uri, version), List.of(new TextDocumentContentChangeEvent(text))));
	}

	/** Waits for a diagnostics publication for a uri that matches. */
	public PublishDiagnosticsParams awaitDiagnostics(String uri, Predicate<PublishDiagnosticsParams> matching)
			throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
		while (System.nanoTime() < deadline) {
			for (PublishDiagnosticsParams d : client.diagnostics) {
				if (d.getUri().equals(uri) && matching.test(d)) {
					return d;
				}
			}
			Thread.sleep(10);
		}
		throw new TimeoutException("no matching diagnostics for " + uri + "; got " + client.diagnostics);
	}

	/** The texts of the window/showMessage messages so far that match, once there are at least {@code count}. */
	public List<String> awaitShown(Predicate<MessageParams> matching, int count) throws Exception {
		long deadline = System.currentTimeMillis() + 120_000;
		while (true) {
			List<String> found = client.shown.stream().filter(matching).map(MessageParams::getMessage).toList();
			if (found.size() >= count) {
				return found;
			}
			if (System.currentTimeMillis() > deadline) {
				throw new AssertionError("expected " + count + " matching messages, got " + found);
			}
			Thread.sleep(20);
		}
	}

	public PublishDiagnosticsParams awaitVersion(String uri, int version) throws Exception {
		return awaitDiagnostics(uri, d -> d.getVersion() != null && d.getVersion() == version);
	}

	public static Position at(String text, String marker, int delta) {
		int offset = text.indexOf(marker) + delta;
		if (offset < delta) {
			throw new IllegalArgumentException("marker not found: " + marker);
		}
		int line = 0;
		int lineStart = 0;
		for (int i = 0; i < offset; i++) {
			if (text.charAt(i) == '\n') {
				line++;
				lineStart = i + 1;
			}
		}
		return new Position(line, offset - lineStart);
	}

	/** Applies LSP text edits to a text (from last to first). */
	public static String apply(String text, List<TextEdit> edits) {
		List<TextEdit> sorted = new ArrayList<>(edits);
		sorted.sort((a, b) -> Lsp.compare(b.getRange().getStart(), a.getRange().getStart()));
		StringBuilder b = new StringBuilder(text);
		dev.ptotools.language.source.LineMap lines = dev.ptotools.language.source.LineMap.of(text);
		for (TextEdit e : sorted) {
			int start = Lsp.offset(lines, text, e.getRange().getStart());
			int end = Lsp.offset(lines, text, e.getRange().getEnd());
			b.replace(start, end, e.getNewText());
		}
		return b.toString();
	}

	@Override
	public void close() throws Exception {
		if (!exitCode.isDone()) {
			try {
				server.shutdown().get(10, TimeUnit.SECONDS);
				server.exit();
			} catch (Exception e) {
				// already gone
			}
		}
		// An editor closes the pipe when the server exits; so does the harness, ending the reader.
		toServer.close();
		threads.shutdownNow();
	}
}
