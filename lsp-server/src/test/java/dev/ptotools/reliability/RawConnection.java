package dev.ptotools.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.lsp.Pipe;
import dev.ptotools.lsp.ServeCommand;

/** A server fed raw bytes: for frames no well-behaved client would send. */
final class RawConnection implements AutoCloseable {

	final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
	private final Pipe toServer = new Pipe();
	private final Pipe toClient = new Pipe();
	private final LinkedBlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
	private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
		Thread t = new Thread(r, "raw-lsp");
		t.setDaemon(true);
		return t;
	});

	RawConnection() {
		threads.submit(() -> {
			ServeCommand.serve(toServer.in, toClient.out, exitCode::complete);
			return null;
		});
		threads.submit(this::readFrames);
	}

	void sendRaw(String bytes) throws IOException {
		toServer.out.write(bytes.getBytes(StandardCharsets.UTF_8));
	}

	void send(String json) throws IOException {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		sendRaw("Content-Length: " + body.length + "\r\n\r\n");
		toServer.out.write(body);
	}

	void request(int id, String method, String params) throws IOException {
		send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	void notify(String method, String params) throws IOException {
		send("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	/** The response to a request id (skipping notifications and other responses). */
	JsonObject response(int id) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			JsonObject m = received.poll(100, TimeUnit.MILLISECONDS);
			if (m != null && m.has("id") && !m.get("id").isJsonNull() && m.get("id").getAsString().equals(String.valueOf(id))
					&& !m.has("method")) {
				return m;
			}
		}
		throw new AssertionError("no response to request " + id);
	}

	/** Any message with an error (responses to frames that had no usable id), within a time. */
	JsonObject anyError(long millis) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		while (System.nanoTime() < deadline) {
			JsonObject m = received.poll(50, TimeUnit.MILLISECONDS);
			if (m != null && m.has("error")) {
				return m;
			}
		}
		return null;
	}

	private Void readFrames() throws IOException {
		InputStream in = toClient.in;
		while (true) {
			int length = -1;
			String line;
			while (!(line = readLine(in)).isEmpty()) {
				if (line.toLowerCase().startsWith("content-length:")) {
					length = Integer.parseInt(line.substring(15).strip());
				}
			}
			if (length < 0) {
				return null;
			}
			byte[] body = in.readNBytes(length);
			received.add(JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject());
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream b = new ByteArrayOutputStream();
		int c;
		while ((c = in.read()) >= 0 && c != '\n') {
			if (c != '\r') {
				b.write(c);
			}
		}
		if (c < 0 && b.size() == 0) {
			return "";
		}
		return b.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() throws IOException {
		toServer.out.close();
		threads.shutdownNow();
	}
}
