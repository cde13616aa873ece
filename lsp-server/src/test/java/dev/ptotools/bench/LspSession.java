package dev.ptotools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

/**
 * A language server started and initialized for a benchmark: the client, and how long the server
 * took from process start to its initialize result. The benchmarks that open documents share this,
 * so every server is started the same way.
 */
record LspSession(StdioLspClient client, double coldStartMs) implements AutoCloseable {

	/** Starts {@code server} in {@code workspace}, sends initialize and initialized. */
	static LspSession start(LspLatency.Server server, Path workspace, long timeoutMs) throws Exception {
		long start = System.nanoTime();
		StdioLspClient c = new StdioLspClient(server.command(), workspace, workspace.resolve("server-stderr.log"));
		try {
			StdioLspClient.Timed init = c
					.request("initialize", LspLatency.initializeParams(workspace, server.initializationOptions()))
					.get(timeoutMs, TimeUnit.MILLISECONDS);
			if (init.message().has("error")) {
				throw new IOException(server.label() + ": initialize failed: " + init.message());
			}
			c.notify("initialized", new JsonObject());
			return new LspSession(c, (init.arrivedNanos() - start) / 1e6);
		} catch (Exception e) {
			c.close();
			throw e;
		}
	}

	/** Sends didOpen (version 1) of a Python document. */
	void open(String uri, String text) throws IOException {
		JsonObject item = new JsonObject();
		item.addProperty("uri", uri);
		item.addProperty("languageId", "python");
		item.addProperty("version", 1);
		item.addProperty("text", text);
		JsonObject params = new JsonObject();
		params.add("textDocument", item);
		client.notify("textDocument/didOpen", params);
	}

	/** Sends didChange with the full new text. */
	void change(String uri, int version, String text) throws IOException {
		JsonObject doc = new JsonObject();
		doc.addProperty("uri", uri);
		doc.addProperty("version", version);
		JsonObject change = new JsonObject();
		change.addProperty("text", text);
		JsonArray changes = new JsonArray();
		changes.add(change);
		JsonObject params = new JsonObject();
		params.add("textDocument", doc);
		params.add("contentChanges", changes);
		client.notify("textDocument/didChange", params);
	}

	/** Sends didSave (without the text: the server has it from didChange). */
	void save(String uri) throws IOException {
		JsonObject doc = new JsonObject();
		doc.addProperty("uri", uri);
		JsonObject params = new JsonObject();
		params.add("textDocument", doc);
		client.notify("textDocument/didSave", params);
	}

	long pid() {
		return client.process().pid();
	}

	@Override
	public void close() throws Exception {
		client.close();
	}
}
