package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonObject;

/** Frames and sequences no good client sends: answered per the specification, server alive where it should be. */
class ProtocolAbuseTest {

	private static final String INIT = "{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}";
	private static final String DOC = "{\"textDocument\":{\"uri\":\"file:///tmp/a.py\",\"languageId\":\"python\",\"version\":1,"
			+ "\"text\":\"import pypto.language as pl\\nx = (\\n\"}}";

	@Test
	void requestsBeforeInitializeAreRefused() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "textDocument/hover",
					"{\"textDocument\":{\"uri\":\"file:///tmp/a.py\"},\"position\":{\"line\":0,\"character\":0}}");
			JsonObject r = c.response(1);
			assertEquals(-32002, r.getAsJsonObject("error").get("code").getAsInt(), r.toString());
			c.request(2, "initialize", INIT);
			assertTrue(c.response(2).has("result"));
		}
	}

	@Test
	void unknownMethodsAndMalformedFramesLeaveTheServerServing() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			c.notify("initialized", "{}");
			c.request(2, "pto/noSuchMethod", "{}");
			assertEquals(-32601, c.response(2).getAsJsonObject("error").get("code").getAsInt());
			c.notify("$/noSuchNotification", "{}");
			c.notify("textDocument/didChange", "{\"textDocument\":{\"uri\":\"file:///never/opened.py\",\"version\":2},"
					+ "\"contentChanges\":[{\"text\":\"x\"}]}");
			c.send("{this is not json");
			c.send("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"textDocument/hover\",\"params\":\"wrong shape\"}");
			c.send("[1, 2, 3]");
			c.request(3, "workspace/symbol", "{\"query\":\"\"}");
			assertTrue(c.response(3).has("result"), "still serving after malformed frames");
		}
	}

	/** Missing or unusable params are the client's error (InvalidParams), not the server's (InternalError). */
	@Test
	void missingOrBadParamsAreInvalidParams() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			c.notify("initialized", "{}");
			c.notify("textDocument/didOpen", DOC);
			c.notify("textDocument/didOpen", "null");
			int id = 10;
			for (String method : new String[] { "textDocument/hover", "textDocument/definition", "textDocument/codeAction",
					"textDocument/codeLens", "textDocument/completion", "workspace/executeCommand", "workspace/symbol",
					"textDocument/semanticTokens/full", "textDocument/documentSymbol" }) {
				c.request(id, method, "null");
				JsonObject r = c.response(id);
				assertEquals(-32602, r.getAsJsonObject("error").get("code").getAsInt(), method + ": " + r);
				id++;
			}
			// a required field missing: hover without a position
			c.request(id, "textDocument/hover", "{\"textDocument\":{\"uri\":\"file:///tmp/a.py\"}}");
			assertEquals(-32602, c.response(id).getAsJsonObject("error").get("code").getAsInt());
			id++;
			for (String args : new String[] { "[\"file:///tmp/a.py\", -5]", "[\"file:///tmp/a.py\", \"x\"]",
					"[\"file:///tmp/a.py\"]", "[]", "[5, 1]", "[\"file:///tmp/a.py\", 1.5]" }) {
				for (String command : new String[] { "pto.explainLoop", "pto.showGeneratedCode" }) {
					c.request(id, "workspace/executeCommand", "{\"command\":\"" + command + "\",\"arguments\":" + args + "}");
					JsonObject r = c.response(id);
					assertEquals(-32602, r.getAsJsonObject("error").get("code").getAsInt(), command + " " + args + ": " + r);
					id++;
				}
			}
			c.request(id, "workspace/executeCommand", "{\"command\":\"pto.noSuchCommand\"}");
			assertEquals(-32602, c.response(id).getAsJsonObject("error").get("code").getAsInt());
			id++;
			c.request(id, "textDocument/hover",
					"{\"textDocument\":{\"uri\":\"file:///tmp/a.py\"},\"position\":{\"line\":0,\"character\":0}}");
			assertTrue(c.response(id).has("result"), "still serving");
		}
	}

	@Test
	void aWrongContentLengthIsSurvived() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			String body = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";
			c.sendRaw("Content-Length: " + (body.length() - 10) + "\r\n\r\n" + body);
			c.sendRaw("Content-Length: abc\r\n\r\n");
			c.sendRaw("\r\n\r\n");
			// The stream may need a frame or two to find its feet again: keep asking.
			boolean answered = false;
			for (int id = 10; id < 20 && !answered; id++) {
				c.request(id, "workspace/symbol", "{\"query\":\"\"}");
				try {
					answered = c.response(id).has("result");
				} catch (AssertionError e) {
					answered = false;
				}
			}
			assertTrue(answered, "the server answers again after a wrong Content-Length");
		}
	}

	@Test
	void cancelStormsDoNotStopRealAnswers() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			c.notify("initialized", "{}");
			c.notify("textDocument/didOpen", DOC);
			for (int i = 0; i < 2000; i++) {
				c.notify("$/cancelRequest", "{\"id\":" + (i % 50) + "}");
			}
			c.request(100, "textDocument/documentSymbol", "{\"textDocument\":{\"uri\":\"file:///tmp/a.py\"}}");
			assertTrue(c.response(100).has("result"));
		}
	}

	@Test
	void exitWithoutShutdownExitsWithOne() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			c.notify("exit", "null");
			assertEquals(1, c.exitCode.get(10, TimeUnit.SECONDS));
		}
	}

	@Test
	void shutdownThenExitExitsWithZeroAndRequestsAfterShutdownAreRefused() throws Exception {
		try (RawConnection c = new RawConnection()) {
			c.request(1, "initialize", INIT);
			c.response(1);
			c.request(2, "shutdown", "null");
			c.response(2);
			c.request(3, "textDocument/hover",
					"{\"textDocument\":{\"uri\":\"file:///tmp/a.py\"},\"position\":{\"line\":0,\"character\":0}}");
			JsonObject r = c.response(3);
			assertEquals(-32600, r.getAsJsonObject("error").get("code").getAsInt(), r.toString());
			c.notify("exit", "null");
			assertEquals(0, c.exitCode.get(10, TimeUnit.SECONDS));
		}
	}
}
