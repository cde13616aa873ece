package dev.ptotools.analyzer;

import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.pipeline.Analysis;

/**
 * DSL text handed to pl.parse is analyzed as a module of its own, with pl and pld bound as pypto
 * binds them (text_parser.py parse), and its findings land inside the string in the host file.
 */
class EmbeddedModulesTest {

	/** A program whose first rank loop is grouped and whose second is a pl.parallel loop. */
	private static final String PROGRAM = """
			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, x: pl.Tensor[[64], pl.FP32]):
			        return x

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
			        for r in pl.range(pld.world_size()):
			            self.chip(x[r], device=r)
			        for r in pl.parallel(pld.world_size()):
			            self.chip(x[r], device=r)
			        return x
			""";

	private static String indented(String text, String indent) {
		return text.lines().map(l -> l.isEmpty() ? l : indent + l).reduce("", (a, b) -> a + b + "\n");
	}

	/** The host line and column (1-based) a diagnostic starts at. */
	private static String where(Analysis a, Diagnostic d) {
		return a.file().lines().line(d.span().start()) + ":" + a.file().lines().column(d.span().start());
	}

	/** Text pl.parse is expected to refuse (pytest.raises, a try that handles it) is no error of the file. */
	@Test
	void aDeliberateBadExampleIsInformationNotAnError() {
		String bad = "\"\"\"\n@pl.function\ndef f(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n    return x +\n\"\"\"";
		String inRaises = """
				import pypto.language as pl
				import pytest


				def test_syntax_error():
				    with pytest.raises(SyntaxError):
				        pl.parse(%s)
				""".formatted(bad);
		Analysis a = analyze(inRaises);
		List<Diagnostic> syntax = of(a, "PTO000");
		assertEquals(1, syntax.size(), describe(a));
		assertEquals(dev.ptotools.analyzer.diagnostics.Severity.INFO, syntax.get(0).severity());
		assertTrue(syntax.get(0).message().endsWith("(expected: pl.parse is called inside pytest.raises(...))"),
				syntax.get(0).message());
		String inTry = """
				import pypto.language as pl


				def example():
				    code = %s
				    try:
				        pl.parse(code)
				    except SyntaxError as e:
				        print(e)
				""".formatted(bad);
		Analysis t = analyze(inTry);
		assertEquals(dev.ptotools.analyzer.diagnostics.Severity.INFO, of(t, "PTO000").get(0).severity(), describe(t));
		// the same text parsed where nothing expects a failure is an error
		String plain = """
				import pypto.language as pl


				def example():
				    pl.parse(%s)
				""".formatted(bad);
		Analysis p = analyze(plain);
		assertEquals(dev.ptotools.analyzer.diagnostics.Severity.ERROR, of(p, "PTO000").get(0).severity(), describe(p));
		// in the except clause, or in a try without handlers, nothing expects it either
		String handler = """
				import pypto.language as pl


				def example():
				    try:
				        pass
				    except SyntaxError:
				        pl.parse(%s)
				""".formatted(bad);
		Analysis h = analyze(handler);
		assertEquals(dev.ptotools.analyzer.diagnostics.Severity.ERROR, of(h, "PTO000").get(0).severity(), describe(h));
	}

	@Test
	void aDedentedStringIsAModuleAndItsFindingsLandInTheString() {
		String host = """
				import textwrap

				import pypto.language as pl


				def test_program():
				    program = pl.parse(
				        textwrap.dedent(
				            \"\"\"
				""" + indented(PROGRAM, "            ") + """
				            \"\"\"
				        )
				    )
				""";
		Analysis a = analyze(host);
		assertEquals(1, a.embedded().size(), describe(a));
		assertEquals(2, a.embedded().get(0).analysis().rankLoops().size());
		Diagnostic grouped = of(a, "PTO100").get(0);
		Diagnostic parallel = of(a, "PTO109").get(0);
		int loop1 = host.indexOf("for r in pl.range");
		assertEquals(loop1, grouped.span().start(), describe(a));
		assertEquals("for r in pl.range(pld.world_size()):",
				host.substring(grouped.span().start(), grouped.span().end()));
		assertEquals("pl.parallel", host.substring(parallel.span().start(), parallel.span().end()));
		assertEquals("20:30", where(a, parallel)); // line 20 of the host, after 12 + 8 spaces and "for r in "
		// the related location (the loop header) is mapped too
		assertTrue(parallel.related().stream().anyMatch(r -> host.substring(r.span().start(), r.span().end())
				.equals("for r in pl.parallel(pld.world_size()):")), parallel.related().toString());
		// a fix that is one edit inside a line is kept, mapped, and applies to the host
		Fix toRange = parallel.fixes().stream().filter(f -> f.title().equals("Replace pl.parallel by pl.range"))
				.findFirst().orElseThrow();
		String fixed = toRange.applyTo(host);
		assertEquals(2, of(analyze(fixed), "PTO100").size(), describe(analyze(fixed)));
		// the suppression fixes are the host's, once each
		assertEquals(1, parallel.fixes().stream().filter(f -> f.title().equals("Suppress PTO109 on this line")).count());
	}

	@Test
	void aLiteralANameAndParseProgramAreFollowed() {
		String direct = "import pypto.language as pl\n\nP = pl.parse(\"\"\"\n" + PROGRAM + "\"\"\")\n";
		assertEquals(1, of(analyze(direct), "PTO109").size(), describe(analyze(direct)));
		String named = "import pypto.language as pl\n\n\ndef build():\n    code = \"\"\"\n" + PROGRAM
				+ "\"\"\"\n    return pl.parse_program(code)\n";
		assertEquals(1, of(analyze(named), "PTO109").size(), describe(analyze(named)));
		// escapes: the program on one line of the host, its lines written as \n
		String oneLine = "import pypto.language as pl\n\nP = pl.parse(code=\"" + PROGRAM.replace("\n", "\\n") + "\")\n";
		Analysis a = analyze(oneLine);
		Diagnostic d = of(a, "PTO109").get(0);
		assertEquals("pl.parallel", oneLine.substring(d.span().start(), d.span().end()), describe(a));
	}

	@Test
	void suppressionsInsideTheStringAreHonoured() {
		String host = "import pypto.language as pl\n\nP = pl.parse(\"\"\"\n"
				+ PROGRAM.replace("for r in pl.parallel(pld.world_size()):",
						"for r in pl.parallel(pld.world_size()):  # pto: ignore[PTO109]")
				+ "\"\"\")\n";
		Analysis a = analyze(host);
		assertTrue(of(a, "PTO109").isEmpty(), describe(a));
		assertEquals(1, of(a, "PTO100").size(), describe(a));
	}

	@Test
	void textThatIsNotKnownIsLeftAlone() {
		for (String host : List.of(
				// an f-string, a name assigned twice, a value computed at run time, a file path
				"import pypto.language as pl\nN = 1\nP = pl.parse(f\"\"\"\n" + PROGRAM.replace("{", "{{") + "\"\"\")\n",
				"import pypto.language as pl\ncode = '''\n" + PROGRAM + "'''\ncode = code + ''\nP = pl.parse(code)\n",
				"import pypto.language as pl\nP = pl.parse(make_text())\n",
				"import pypto.language as pl\nP = pl.loads('program.py')\n",
				// pl.parse of something that is not pypto's
				"import pypto.language as pl\nimport json\nP = json.parse('''\n" + PROGRAM + "''')\n")) {
			Analysis a = analyze(host);
			assertTrue(a.embedded().isEmpty(), host);
			assertTrue(a.diagnostics().isEmpty(), describe(a));
		}
	}

	@Test
	void aBrokenStringIsASyntaxErrorInsideIt() {
		String host = "import pypto.language as pl\n\nP = pl.parse(\"\"\"\n@pl.program\nclass P(:\n    pass\n\"\"\")\n";
		Analysis a = analyze(host);
		Diagnostic d = of(a, "PTO000").get(0);
		assertEquals(5, a.file().lines().line(d.span().start()), describe(a));
	}
}
