package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.lsp.LspHarness;

/**
 * Hostile files: each gives a diagnostic (or parses cleanly), in the front end and
 * in the server, and the server keeps serving other files. A document over the size ceiling gets
 * one diagnostic instead of an analysis.
 */
class HostileFilesTest {

	static final String IMPORT = "import pypto.language as pl\n";

	@TempDir
	static Path workspace;
	static LspHarness lsp;
	static int n;

	@BeforeAll
	static void start() throws Exception {
		lsp = new LspHarness();
		lsp.initialize(workspace, null);
	}

	@AfterAll
	static void stop() throws Exception {
		lsp.close();
	}

	static Stream<Arguments> files() {
		StringBuilder blocks = new StringBuilder(IMPORT);
		for (int i = 0; i < 5000; i++) {
			blocks.append(" ".repeat(i)).append("if x:\n");
		}
		blocks.append(" ".repeat(5000)).append("pass\n");
		return Stream.of(
				Arguments.of("NUL bytes", IMPORT + "x = 1\0\0\ny = 2\n"),
				Arguments.of("5,000-deep brackets", IMPORT + "x = " + "(".repeat(5000) + "1" + ")".repeat(5000) + "\n"),
				Arguments.of("5,000-deep unclosed brackets", IMPORT + "x = " + "[".repeat(5000) + "\n"),
				Arguments.of("5,000-deep blocks", blocks.toString()),
				Arguments.of("a 1 MB line", IMPORT + "x = [" + "1, ".repeat(330_000) + "]\n"),
				Arguments.of("only a BOM", "\uFEFF"),
				Arguments.of("mixed CRLF, LF and CR", IMPORT.replace("\n", "\r\n") + "def f():\r    x = 1\n    return x\r\n"),
				Arguments.of("tabs and spaces", IMPORT + "if x:\n\tif y:\n        pass\n\t  z = 1\n"),
				Arguments.of("control characters", IMPORT + "x = \u0001\u0002\u001b[31m\n"),
				Arguments.of("lone surrogates", IMPORT + "s = '\uD800'\nt = \uDC00\n"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("files")
	@Timeout(value = 10, unit = TimeUnit.MINUTES) // a guard against a hang only, far beyond any load
	void answered(String name, String text) throws Exception {
		ParsedFile parsed = PythonFrontEnd.get().parse(text);
		assertTrue(parsed.ast() != null);
		String uri = workspace.resolve("hostile-" + (n++) + ".py").toUri().toString();
		lsp.open(uri, text);
		lsp.awaitVersion(uri, 1);
		assertServes();
	}

	@Test
	void invalidUtf8FromDiskIsADiagnostic() {
		byte[] bytes = (IMPORT + "s = '\u00ff\u00fe'\n").getBytes(StandardCharsets.ISO_8859_1);
		ParsedFile parsed = PythonFrontEnd.get().parse(bytes);
		assertTrue(parsed.problems().get(0).message().startsWith("Non-UTF-8 code"), parsed.problems().toString());
	}

	@Test
	void aTenMegabyteDocumentHitsTheCeilingNotTheServer() throws Exception {
		String huge = IMPORT + "x = 1\n".repeat(10 * 1024 * 1024 / 6);
		String uri = workspace.resolve("huge.py").toUri().toString();
		lsp.open(uri, huge);
		PublishDiagnosticsParams p = lsp.awaitVersion(uri, 1);
		assertTrue(p.getDiagnostics().size() == 1 && p.getDiagnostics().get(0).getMessage().contains("too large"),
				p.getDiagnostics().toString());
		assertServes();
	}

	/**
	 * Ten megabytes of statements parse whole and clean (the speed of it is a figure of bench/run.sh,
	 * "parse, 10 MB module", not an assertion: a wall-clock limit fails on a busy machine).
	 */
	@Test
	@Timeout(value = 15, unit = TimeUnit.MINUTES) // a guard against a hang only, far beyond any load
	void theFrontEndParsesTenMegabytes() {
		int lines = 10 * 1024 * 1024 / 6;
		ParsedFile parsed = PythonFrontEnd.get().parse("x = 1\n".repeat(lines));
		assertFalse(parsed.hasProblems(), parsed.problems().toString());
		assertEquals(lines, parsed.ast().getBody().size());
	}

	/** Another, ordinary file still gets its diagnostics. */
	static void assertServes() throws Exception {
		String uri = workspace.resolve("ordinary-" + (n++) + ".py").toUri().toString();
		lsp.open(uri, IMPORT + "x = (\n");
		PublishDiagnosticsParams p = lsp.awaitVersion(uri, 1);
		assertTrue(p.getDiagnostics().stream().anyMatch(d -> d.getCode().getLeft().equals("PTO000")),
				"the server still answers: " + Map.of("got", p.getDiagnostics()));
	}
}
