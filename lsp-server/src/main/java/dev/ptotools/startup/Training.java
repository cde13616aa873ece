package dev.ptotools.startup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.Main;
import dev.ptotools.lsp.ServeCommand;

/**
 * The work whose classes go into the class data sharing archive ({@link ArchiveBuilder} runs it with
 * {@code -XX:DumpLoadedClassList}): the bundled example programs through {@code check} (every format),
 * {@code loops} and {@code compile}, then a language server session over JSON-RPC as an editor drives it
 * (open, diagnostics, hover, symbols, code actions, semantic tokens, an edit, save, shutdown). What it
 * prints goes to the builder's log. {@code java -cp pto-tools.jar dev.ptotools.startup.Training DIR}.
 */
public final class Training {

	/** The example programs in the jar (docs/examples). */
	static final List<String> EXAMPLES = List.of("allgather_ranks.py", "ineligible_loops.py", "no_window_host.py",
			"single_chip.py");

	private static final long TIMEOUT_SECONDS = 60;

	private Training() {
	}

	public static void main(String[] args) throws Exception {
		Path dir = Path.of(args.length > 0 ? args[0] : Files.createTempDirectory("pto-training").toString());
		Path src = dir.resolve("src");
		Files.createDirectories(src);
		for (String name : EXAMPLES) {
			try (InputStream in = Training.class.getResourceAsStream("training/" + name)) {
				if (in == null) {
					throw new IOException("missing training program " + name);
				}
				Files.write(src.resolve(name), in.readAllBytes());
			}
		}
		String out = dir.resolve("build_output").toString();
		for (String format : List.of("text", "json", "sarif", "github")) {
			Main.commandLine().execute("check", "--format", format, "--fail-on", "never", src.toString());
		}
		Main.commandLine().execute("loops", src.toString());
		Main.commandLine().execute("loops", "--format", "json", src.toString());
		Main.commandLine().execute("compile", "-o", out, src.toString());
		Main.commandLine().execute("compile", "--check", "-o", out, src.toString());
		try {
			session(dir, src.resolve("ineligible_loops.py"));
		} catch (Exception e) {
			// what loaded until then still goes into the archive (a slow machine is no reason for none)
			e.printStackTrace();
		}
		System.exit(0);
	}

	/** A language server session in this process, over pipes, as an editor would drive it. */
	static void session(Path workspace, Path file) throws Exception {
		PipedOutputStream toServer = new PipedOutputStream();
		PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
		PipedInputStream fromServer = new PipedInputStream(1 << 16);
		PipedOutputStream serverOut = new PipedOutputStream(fromServer);
		CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
			try {
				ServeCommand.serve(serverIn, serverOut, code -> {
				});
			} catch (Exception e) {
				throw new IllegalStateException(e);
			}
		});
		Rpc rpc = new Rpc(toServer, fromServer);
		String uri = file.toUri().toString();
		String root = workspace.toUri().toString();
		rpc.request("initialize", "{\"processId\":null,\"rootUri\":\"" + root + "\",\"workspaceFolders\":[{\"uri\":\"" + root
				+ "\",\"name\":\"training\"}],\"capabilities\":{\"workspace\":{\"configuration\":true},\"textDocument\":"
				+ "{\"publishDiagnostics\":{\"relatedInformation\":true,\"versionSupport\":true},\"synchronization\":"
				+ "{\"didSave\":true}}},\"initializationOptions\":{\"settings\":{\"debounceMs\":0}}}");
		rpc.notify("initialized", "{}");
		String text = Files.readString(file);
		JsonObject item = new JsonObject();
		item.addProperty("uri", uri);
		item.addProperty("languageId", "python");
		item.addProperty("version", 1);
		item.addProperty("text", text);
		JsonObject open = new JsonObject();
		open.add("textDocument", item);
		rpc.notify("textDocument/didOpen", open.toString());
		rpc.awaitDiagnostics();
		String doc = "{\"textDocument\":{\"uri\":\"" + uri + "\"}";
		String at = doc + ",\"position\":{\"line\":20,\"character\":16}}";
		rpc.request("textDocument/hover", at);
		rpc.request("textDocument/definition", at);
		rpc.request("textDocument/completion", at);
		rpc.request("textDocument/documentSymbol", doc + "}");
		rpc.request("textDocument/foldingRange", doc + "}");
		rpc.request("textDocument/codeLens", doc + "}");
		rpc.request("textDocument/semanticTokens/full", doc + "}");
		rpc.request("textDocument/codeAction", doc + ",\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":"
				+ text.split("\n", -1).length + ",\"character\":0}},\"context\":{\"diagnostics\":[]}}");
		JsonObject change = new JsonObject();
		change.addProperty("text", text + "\n# edited\n");
		JsonObject changed = JsonParser.parseString("{\"textDocument\":{\"uri\":\"" + uri + "\",\"version\":2},"
				+ "\"contentChanges\":[]}").getAsJsonObject();
		changed.getAsJsonArray("contentChanges").add(change);
		rpc.notify("textDocument/didChange", changed.toString());
		rpc.awaitDiagnostics();
		rpc.notify("textDocument/didSave", doc + "}");
		rpc.request("shutdown", "null");
		rpc.notify("exit", "null");
		toServer.close();
		serving.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
	}

	/** The client end of JSON-RPC with LSP's framing: requests wait for their answer; the server's requests get null. */
	private static final class Rpc {
		private final OutputStream out;
		private final InputStream in;
		private int nextId = 1;

		Rpc(OutputStream out, InputStream in) {
			this.out = out;
			this.in = in;
		}

		void notify(String method, String params) throws IOException {
			send("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + "}");
		}

		JsonObject request(String method, String params) throws IOException {
			int id = nextId++;
			send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
			return read(m -> m.has("id") && !m.has("method") && m.get("id").getAsInt() == id);
		}

		void awaitDiagnostics() throws IOException {
			read(m -> m.has("method") && m.get("method").getAsString().equals("textDocument/publishDiagnostics"));
		}

		private void send(String json) throws IOException {
			byte[] body = json.getBytes(StandardCharsets.UTF_8);
			out.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.write(body);
			out.flush();
		}

		/** Reads messages until one matches (answering the server's requests on the way). */
		private JsonObject read(java.util.function.Predicate<JsonObject> wanted) throws IOException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
			while (System.nanoTime() < deadline) {
				JsonObject m = next();
				if (m.has("method") && m.has("id")) {
					JsonElement id = m.get("id");
					send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":null}");
				}
				if (wanted.test(m)) {
					return m;
				}
			}
			throw new IOException("the server did not answer in time");
		}

		private JsonObject next() throws IOException {
			int length = -1;
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			while (true) {
				int c = in.read();
				if (c < 0) {
					throw new IOException("the server closed its output");
				}
				if (c != '\n') {
					line.write(c);
					continue;
				}
				String header = line.toString(StandardCharsets.US_ASCII).trim();
				line.reset();
				if (header.isEmpty()) {
					break;
				}
				if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) {
					length = Integer.parseInt(header.substring(15).trim());
				}
			}
			byte[] body = in.readNBytes(length);
			return JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
		}
	}
}
