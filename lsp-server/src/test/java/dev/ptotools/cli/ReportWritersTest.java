package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.report.FileReport;
import dev.ptotools.analyzer.report.Fingerprints;
import dev.ptotools.analyzer.report.GithubReport;
import dev.ptotools.analyzer.report.JsonReport;
import dev.ptotools.analyzer.report.RuleInfo;
import dev.ptotools.analyzer.report.SarifReport;
import dev.ptotools.analyzer.report.TextReport;
import dev.ptotools.analyzer.report.ToolInfo;
import dev.ptotools.analyzer.report.Uris;

/** The report writers as pure functions: escaping, positions, fingerprints, uris, schema validity. */
class ReportWritersTest {

	private static final ToolInfo TOOL = new ToolInfo("pto", "1.2.3", "https://example.org/pto",
			"https://example.org/pto/rules");

	private static final String UNPINNED = """
			import pypto.language as pl
			import pypto.language.distributed as pld

			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, data: pld.DistributedTensor[[16], pl.FP32]):
			        return data

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host_orch(self):
			        buf = pld.alloc_window_buffer(64)
			        data = pld.window(buf, [16], dtype=pl.FP32)
			        for r in pl.range(pld.world_size()):
			            self.chip(data, device=0)
			        for r in pl.range(pld.world_size()):
			            self.chip(data, device=0)
			        return 0
			""";

	private static FileReport analyzed(String path, String text) {
		return FileReport.of(path, Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT));
	}

	private static FileReport synthetic(String path, String text, String message, int start, int end) {
		Diagnostic d = new Diagnostic("PTO105", Severity.WARNING, message, new Span(start, end), List.of(),
				List.of(new Fix("Replace", List.of(new Fix.Edit(new Span(start, end), "x\ny")), true)));
		return FileReport.of(path, text, List.of(d));
	}

	@Test
	void githubEscaping() {
		assertEquals("a%25b%0D%0Ac", GithubReport.escapeData("a%b\r\nc"));
		assertEquals("keeps: and, as they are", GithubReport.escapeData("keeps: and, as they are"));
		assertEquals("a%3Ab%2Cc%25d%0A", GithubReport.escapeProperty("a:b,c%d\n"));
		String out = GithubReport.write(List.of(synthetic("dir/a,b:c.py", "x = 1\ny = 2\n", "50% done\nnext: line, two", 6, 11)));
		assertEquals("::warning file=dir/a%2Cb%3Ac.py,line=2,col=1,endLine=2,endColumn=6,title=PTO105::50%25 done%0Anext: line, two\n",
				out);
		assertEquals("notice", GithubReport.command(Severity.INFO));
		assertEquals("notice", GithubReport.command(Severity.HINT));
		assertEquals("error", GithubReport.command(Severity.ERROR));
	}

	@Test
	void relativeUris() {
		assertEquals("src/a.py", Uris.of("src/a.py"));
		assertEquals("my%20dir/%C3%BC%20x.py", Uris.of("my dir/ü x.py"));
		assertEquals("a%3Ab/c:d.py", Uris.of("a:b/c:d.py"), "a first segment with ':' would read as a scheme");
		assertEquals("100%25/%23hash%3F.py", Uris.of("100%/#hash?.py"));
		assertEquals("file:///tmp/a%20b.py", Uris.of("/tmp/a b.py"));
	}

	@Test
	void fingerprintsSurviveLineShifts() {
		FileReport before = analyzed("m.py", UNPINNED);
		FileReport after = analyzed("m.py", "# new header\n\n" + UNPINNED.replace("buf = ", "extra = 1\n        buf = "));
		List<String> a = Fingerprints.of(before);
		List<String> b = Fingerprints.of(after);
		assertEquals(2, a.size(), before.diagnostics().toString());
		assertEquals(a, b);
		assertNotEquals(a.get(0), a.get(1), "two findings on identical lines differ by occurrence");
		assertTrue(a.get(0).endsWith(":1") && a.get(1).endsWith(":2"));
		assertNotEquals(a, Fingerprints.of(analyzed("other.py", UNPINNED)), "the file is part of it");
		assertNotEquals(a.get(0), Fingerprints.of(analyzed("m.py", UNPINNED.replace("device=0", "device=1"))).get(0));
	}

	@Test
	void jsonPositionsAreOneBased() {
		String text = "ab\ncd\u00e9f\n";
		JsonArray a = JsonParser.parseString(JsonReport.write(List.of(synthetic("f.py", text, "m", 5, 7)), RuleInfo.catalog()))
				.getAsJsonArray();
		JsonObject o = a.get(0).getAsJsonObject();
		assertEquals(2, o.get("line").getAsInt());
		assertEquals(3, o.get("column").getAsInt());
		assertEquals(2, o.get("endLine").getAsInt());
		assertEquals(5, o.get("endColumn").getAsInt());
		assertEquals("dispatch-not-pinned", o.get("name").getAsString());
		JsonObject edit = o.getAsJsonArray("fixes").get(0).getAsJsonObject().getAsJsonArray("edits").get(0).getAsJsonObject();
		assertEquals("x\ny", edit.get("replacement").getAsString());
		assertEquals(3, edit.get("column").getAsInt());
	}

	@Test
	void sarifFromTheWriterValidates() {
		FileReport f = analyzed("src/my dir/m.py", UNPINNED);
		FileReport internal = FileReport.of("src/x.py", "x = 1\n", List.of(new Diagnostic(Analyzer.INTERNAL_ERROR,
				Severity.ERROR, "internal error in pass lower: boom", Span.NONE, List.of(), List.of())));
		String sarif = SarifReport.write(List.of(f, internal), RuleInfo.catalog(), TOOL,
				List.of(new dev.ptotools.analyzer.report.Notice("src/secret.py", "cannot read: permission denied")));
		JsonNode log = Sarif.assertValid(sarif);
		JsonNode run = log.get("runs").get(0);
		assertEquals(3, run.get("results").size());
		assertEquals("https://example.org/pto/rules/PTO105.md", run.get("tool").get("driver").get("rules")
				.get(run.get("results").get(0).get("ruleIndex").asInt()).get("helpUri").asText());
		assertEquals("src/my%20dir/m.py", run.get("results").get(0).get("locations").get(0).get("physicalLocation")
				.get("artifactLocation").get("uri").asText());
		assertEquals(false, run.get("invocations").get(0).get("executionSuccessful").asBoolean());
		JsonNode internalResult = run.get("results").get(2);
		assertEquals("PTO900", internalResult.get("ruleId").asText());
		assertEquals(1, internalResult.get("locations").get(0).get("physicalLocation").get("region").get("startLine").asInt());
		assertEquals("note", SarifReport.level(Severity.INFO));
	}

	@Test
	void docsUrl() {
		assertEquals("https://docs.example/rules/", Cli.tool("https://docs.example/rules").docsUri());
		// no configured home: no made-up links (the pages travel inline in the log)
		assertEquals(null, Cli.tool("not a url").docsUri());
		assertEquals(null, Cli.tool(null).informationUri());
		String sarif = SarifReport.write(List.of(analyzed("m.py", UNPINNED)), RuleInfo.catalog(), Cli.tool(null), List.of());
		JsonNode driver = Sarif.assertValid(sarif).get("runs").get(0).get("tool").get("driver");
		assertTrue(!driver.has("informationUri") && !driver.get("rules").get(0).has("helpUri"), driver.toString());
		assertTrue(Cli.rulesWithPages().stream().allMatch(r -> r.helpMarkdown() != null && r.helpMarkdown().contains(r.id())),
				"every rule, PTO900 included, has its page in the jar's resources");
	}

	@Test
	void textHasCaretsAndSummary() {
		String text = "import pypto.language as pl\n\tx = 1\n";
		String out = TextReport.write(List.of(synthetic("t.py", text, "a message", 29, 30)), 3, false);
		assertEquals("t.py:2:2: PTO105 a message\n  2 | \tx = 1\n    | \t^\n    = fix (preferred): Replace\n"
				+ "Found 1 finding (1 warning) in 1 of 3 files.\n", out);
		String coloured = TextReport.write(List.of(synthetic("t.py", text, "a message", 29, 30)), 3, true);
		assertTrue(coloured.contains("\u001b[33m^"), coloured);
		assertEquals("No findings in 1 file.\n", TextReport.write(List.of(), 1, false));
	}

	/** Source lines are shown safe: control characters as visible symbols, a long line around the finding only. */
	@Test
	void textShowsControlCharactersAndLongLinesSafely() {
		String text = "import pypto.language as pl\nx = 1\0\0\u001b[31m\n";
		String out = TextReport.write(List.of(synthetic("t.py", text, "a message", 33, 34)), 1, false);
		assertTrue(out.contains("  2 | x = 1\u2400\u2400\u241b[31m\n    |      ^\n"), out);
		assertTrue(out.chars().noneMatch(c -> c < 0x20 && c != '\n'), "no control character reaches the terminal: " + out);
		String longLine = "import pypto.language as pl\nx = [" + "1, ".repeat(100_000) + "zz]\n";
		int at = longLine.indexOf("zz");
		String shown = TextReport.write(List.of(synthetic("t.py", longLine, "a message", at, at + 2)), 1, false);
		List<String> lines = shown.lines().toList();
		assertTrue(lines.get(1).length() < 200 && lines.get(1).matches("  2 \\| … ?1, 1, .*") && lines.get(1).endsWith("zz]"),
				lines.get(1));
		int caret = lines.get(2).indexOf('^');
		assertEquals("zz", lines.get(1).substring(caret, caret + 2), shown);
	}
}
