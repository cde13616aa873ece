package dev.ptotools.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * A small, server-agnostic LSP client over a subprocess's stdio, in raw JSON-RPC (Content-Length
 * framing, Gson), so that every server is driven by exactly the same code. It records when each
 * message arrived ({@link System#nanoTime()} once the whole message is read), answers the requests
 * servers send (configuration with nulls, registrations and progress with null) and queues
 * {@code textDocument/publishDiagnostics} for {@link #awaitDiagnostics}.
 */
public final class StdioLspClient implements AutoCloseable {

	/** One publishDiagnostics as it arrived. */
	public record Published(String uri, Integer version, int count, long arrivedNanos) {
	}

	private static final Gson GSON = new Gson();

	private final Process process;
	private final OutputStream toServer;
	private final Thread reader;
	private final AtomicInteger ids = new AtomicInteger();
	private final Map<Integer, CompletableFuture<Timed>> pending = new ConcurrentHashMap<>();
	private final BlockingQueue<Published> diagnostics = new LinkedBlockingQueue<>();
	private final BlockingQueue<Logged> logMessages = new LinkedBlockingQueue<>();
	private volatile Throwable readFailure;

	/** One window/logMessage as it arrived. */
	public record Logged(String message, long arrivedNanos) {
	}

	/** A response and when it arrived. */
	public record Timed(JsonObject message, long arrivedNanos) {
	}

	public StdioLspClient(List<String> command, Path cwd, Path stderrLog) throws IOException {
		ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
				.redirectError(ProcessBuilder.Redirect.to(stderrLog.toFile()));
		process = pb.start();
		toServer = process.getOutputStream();
		InputStream in = new BufferedInputStream(process.getInputStream(), 1 << 16);
		reader = new Thread(() -> readLoop(in), "lsp-client-reader");
		reader.setDaemon(true);
		reader.start();
	}

	public Process process() {
		return process;
	}

	// ---- sending ----------------------------------------------------------------------------

	private synchronized void send(JsonObject message) throws IOException {
		byte[] body = GSON.toJson(message).getBytes(StandardCharsets.UTF_8);
		toServer.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		toServer.write(body);
		toServer.flush();
	}

	/** Sends a request; the future completes with the response and its arrival time. */
	public CompletableFuture<Timed> request(String method, JsonElement params) throws IOException {
		int id = ids.incrementAndGet();
		CompletableFuture<Timed> f = new CompletableFuture<>();
		pending.put(id, f);
		JsonObject m = new JsonObject();
		m.addProperty("jsonrpc", "2.0");
		m.addProperty("id", id);
		m.addProperty("method", method);
		if (params != null) {
			m.add("params", params);
		}
		send(m);
		return f;
	}

	public void notify(String method, JsonElement params) throws IOException {
		JsonObject m = new JsonObject();
		m.addProperty("jsonrpc", "2.0");
		m.addProperty("method", method);
		if (params != null) {
			m.add("params", params);
		}
		send(m);
	}

	private void respond(JsonElement id, JsonElement result) throws IOException {
		JsonObject m = new JsonObject();
		m.addProperty("jsonrpc", "2.0");
		m.add("id", id);
		m.add("result", result == null ? JsonNull.INSTANCE : result);
		send(m);
	}

	// ---- receiving --------------------------------------------------------------------------

	private void readLoop(InputStream in) {
		try {
			while (true) {
				int length = -1;
				String header;
				while (!(header = readLine(in)).isEmpty()) {
					int colon = header.indexOf(':');
					if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
						length = Integer.parseInt(header.substring(colon + 1).trim());
					}
				}
				if (length < 0) {
					throw new IOException("message without Content-Length");
				}
				byte[] body = in.readNBytes(length);
				if (body.length < length) {
					return; // the server closed its output
				}
				long now = System.nanoTime();
				handle(JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject(), now);
			}
		} catch (IOException e) {
			if (process.isAlive()) {
				readFailure = e;
			}
		} catch (RuntimeException e) {
			readFailure = e;
		} finally {
			pending.values().forEach(f -> f.completeExceptionally(new IOException("the server's output ended")));
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream b = new ByteArrayOutputStream();
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				break;
			}
			if (c != '\r') {
				b.write(c);
			}
		}
		if (c == -1 && b.size() == 0) {
			throw new IOException("end of stream");
		}
		return b.toString(StandardCharsets.US_ASCII);
	}

	private void handle(JsonObject m, long arrived) throws IOException {
		boolean hasId = m.has("id") && !m.get("id").isJsonNull();
		if (m.has("method") && hasId) {
			respond(m.get("id"), answer(m.get("method").getAsString(), m.get("params")));
		} else if (hasId) {
			CompletableFuture<Timed> f = pending.remove(m.get("id").getAsInt());
			if (f != null) {
				f.complete(new Timed(m, arrived));
			}
		} else if (m.has("method") && m.get("method").getAsString().equals("textDocument/publishDiagnostics")) {
			JsonObject p = m.getAsJsonObject("params");
			Integer version = p.has("version") && !p.get("version").isJsonNull() ? p.get("version").getAsInt() : null;
			diagnostics.add(new Published(p.get("uri").getAsString(), version, p.getAsJsonArray("diagnostics").size(),
					arrived));
		} else if (m.has("method") && m.get("method").getAsString().equals("window/logMessage")) {
			logMessages.add(new Logged(m.getAsJsonObject("params").get("message").getAsString(), arrived));
		}
	}

	/** What this client answers to a request from the server: nothing is configured. */
	private static JsonElement answer(String method, JsonElement params) {
		if (method.equals("workspace/configuration") && params != null && params.isJsonObject()) {
			JsonArray out = new JsonArray();
			params.getAsJsonObject().getAsJsonArray("items").forEach(i -> out.add(JsonNull.INSTANCE));
			return out;
		}
		if (method.equals("workspace/workspaceFolders")) {
			return JsonNull.INSTANCE;
		}
		return JsonNull.INSTANCE; // client/registerCapability, window/workDoneProgress/create, ...
	}

	/**
	 * Waits for the first publishDiagnostics of {@code uri} for {@code version} (a server that sends
	 * no version: the first one after the call), dropping older ones.
	 */
	public Published awaitDiagnostics(String uri, int version, long timeoutMs) throws Exception {
		return await(diagnostics, p -> p.uri().equals(uri) && (p.version() == null || p.version() == version), timeoutMs,
				"diagnostics for version " + version + " of " + uri);
	}

	/** Waits for the next window/logMessage that contains {@code text}, dropping others. */
	public Logged awaitLog(String text, long timeoutMs) throws Exception {
		return await(logMessages, l -> l.message().contains(text), timeoutMs, "log message containing '" + text + "'");
	}

	/** The next publishDiagnostics of any document. */
	public Published nextDiagnostics(long timeoutMs) throws Exception {
		return await(diagnostics, p -> true, timeoutMs, "diagnostics");
	}

	/** The first message of a queue that is {@code wanted}, dropping the others before it. */
	private <T> T await(BlockingQueue<T> queue, Predicate<T> wanted, long timeoutMs, String what) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
		while (true) {
			long left = deadline - System.nanoTime();
			T m = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
			if (m == null) {
				throw new TimeoutException("no " + what + " within " + timeoutMs + " ms"
						+ (readFailure != null ? " (reader: " + readFailure + ")" : "")
						+ (process.isAlive() ? "" : " (the server exited with " + process.exitValue() + ")"));
			}
			if (wanted.test(m)) {
				return m;
			}
		}
	}

	/** Drops log messages received so far. */
	public void drainLog() {
		logMessages.clear();
	}

	/** Drops diagnostics received so far. */
	public void drainDiagnostics() {
		diagnostics.clear();
	}

	/** shutdown, exit, and the process gone (killed if it lingers). */
	@Override
	public void close() throws Exception {
		try {
			if (process.isAlive()) {
				request("shutdown", null).get(10, TimeUnit.SECONDS);
				notify("exit", null);
			}
		} catch (Exception e) {
			// already gone or not answering: killed below
		}
		if (!process.waitFor(10, TimeUnit.SECONDS)) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
		}
	}
}
