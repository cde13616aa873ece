package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;
import dev.ptotools.language.PythonFrontEnd;

/**
 * What pypto's front end sees as a module runs: a standalone {@code @pl.function} is parsed where it is
 * decorated; a program a test builds is parsed, and compiled only when the test compiles it;
 * {@code @pl.inline} bodies are expanded at their calls; annotations pypto leaves unresolved are not
 * checked. Each with its accepted neighbour.
 */
class FrontEndEntriesTest {

	private static final String MISMATCH = "    _t: pl.Tile[[128], pl.FP32] = pl.tile.load(x, [0], [64])\n";

	private static List<Problem> errors(String src) {
		Generation g = Sources.generate(src, Sources.PLAIN);
		return g.problems().stream().filter(Problem::isError).toList();
	}

	private static List<Diagnostic> diagnostics(String src) {
		Analysis a = Compiler.analyzer(CompileOptions.DEFAULT).analyze(PythonFrontEnd.get().parse(src),
				AnalyzerConfig.DEFAULT);
		return a.diagnostics();
	}

	private static String standalone(String body) {
		return Sources.HEADER + """
				@pl.function
				def f(x: pl.Tensor[[128], pl.FP32]) -> pl.Tensor[[128], pl.FP32]:
				%s    return x
				""".formatted(body);
	}

	@Test
	void aStandaloneFunctionIsParsedWhereItIsDefined() {
		List<Problem> errors = errors(standalone(MISMATCH));
		assertEquals(1, errors.size(), errors.toString());
		Problem p = errors.get(0);
		assertEquals("PTO500: Type annotation for '_t' has shape dimension 0 = 128 but expression has shape dimension 0 = 64",
				p.message());
		assertEquals(6, p.line());
		assertEquals(5, p.column());
	}

	@Test
	void aValidStandaloneFunctionWritesNothingAndSaysNothing() {
		Generation g = Sources.generate(standalone(MISMATCH.replace("[[128]", "[[64]")), Sources.PLAIN);
		assertEquals(List.of(), g.problems(), "parsed, nothing to report");
		assertEquals(List.of(), g.files(), "pypto writes nothing for a function of its own");
	}

	/** A test that builds a program whose kernel stores a 1-D tile, which pypto's PTO codegen refuses. */
	private static String testBuilding(String afterwards) {
		return Sources.HEADER + """
				class TestStores:
				    def test_store(self):
				        @pl.program
				        class P:
				            @pl.function(type=pl.FunctionType.InCore)
				            def k(self, x: pl.Tensor[[128], pl.FP32],
				                  out: pl.Out[pl.Tensor[[128], pl.FP32]]) -> pl.Tensor[[128], pl.FP32]:
				                t = pl.load(x, [0], [128])
				                out = pl.store(t, [0], out)
				                return out

				%s
				""".formatted(afterwards);
	}

	@Test
	void aProgramATestOnlyBuildsIsParsedNotCompiled() {
		assertEquals(List.of(), errors(testBuilding("        print(P)")));
	}

	@Test
	void aProgramATestCompilesIsCompiled() {
		List<Problem> errors = errors(testBuilding("        ir.compile(P)"));
		assertEquals(1, errors.size(), errors.toString());
		assertTrue(errors.get(0).message().endsWith("tile.store tile valid_shape must be 2D"), errors.toString());
	}

	/** A test module's helper that builds the 1-D store program for its tests; {@code use} calls it. */
	private static String helperBuilding(String use) {
		return Sources.HEADER + """
				def _make():
				    @pl.program
				    class P:
				        @pl.function(type=pl.FunctionType.InCore)
				        def k(self, x: pl.Tensor[[128], pl.FP32],
				              out: pl.Out[pl.Tensor[[128], pl.FP32]]) -> pl.Tensor[[128], pl.FP32]:
				            t = pl.load(x, [0], [128])
				            out = pl.store(t, [0], out)
				            return out

				    return P


				def test_uses():
				%s
				""".formatted(use);
	}

	@Test
	void aTestHelpersProgramIsRefusedAfterTheFrontEndOnlyWhenATestCompilesIt() {
		assertEquals(List.of(), errors(helperBuilding("    print(_make())")));
		assertEquals(1, errors(helperBuilding("    prog = _make()\n    ir.compile(prog)")).size());
		assertEquals(1, errors(helperBuilding("    ir.compile(_make())")).size());
	}

	@Test
	void aTestHelpersProgramThatCompilesIsWritten() {
		// a system test's helper: the runner its test hands the program to compiles it
		String src = Sources.HEADER + """
				def _make():
				    @pl.program
				    class P:
				        @pl.function(type=pl.FunctionType.InCore)
				        def k(self, x: pl.Tensor[[16, 128], pl.FP32],
				              out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
				            t = pl.load(x, [0, 0], [16, 128])
				            out = pl.store(t, [0, 0], out)
				            return out

				        @pl.function(type=pl.FunctionType.Orchestration)
				        def main(self, x: pl.Tensor[[16, 128], pl.FP32],
				                 out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
				            out = self.k(x, out)
				            return out

				    return P


				def test_runs(runner):
				    runner.run(_make())
				""";
		Generation g = Sources.generate(src, Sources.PLAIN);
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertFalse(g.files().isEmpty(), "written as pypto's runner would compile it");
	}

	@Test
	void aProgramReadingATestsFixtureIsNotJudged() {
		String src = Sources.HEADER + """
				ROWS = 999


				def test_rows(ROWS):
				    @pl.function
				    def f(x: pl.Tensor[[ROWS, 128], pl.FP32]) -> pl.Tensor[[ROWS, 128], pl.FP32]:
				        t: pl.Tile[[64, 128], pl.FP32] = pl.load(x, [0, 0], [ROWS, 128])
				        return x
				""";
		// the fixture shadows the module's ROWS: its value is pytest's, not 999, and nothing is said about it
		assertEquals(List.of(), Sources.generate(src, Sources.PLAIN).problems());
	}

	@Test
	void aFrontEndErrorInATestMethodIsReported() {
		String src = testBuilding("        print(P)").replace("t = pl.load(x, [0], [128])",
				"t: pl.Tile[[64], pl.FP32] = pl.load(x, [0], [128])");
		List<Problem> errors = errors(src);
		assertEquals(1, errors.size(), errors.toString());
		assertTrue(errors.get(0).message().contains("Type annotation for 't' has shape dimension 0 = 64"), errors.toString());
	}

	private static String inline(String call) {
		return Sources.HEADER + """
				@pl.inline
				def add_one(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				    result: pl.Tensor[[64], pl.FP32] = pl.add(x, 1.0)
				    return result


				@pl.program
				class P:
				    @pl.function
				    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = %s
				        return y
				""".formatted(call);
	}

	@Test
	void anInlineFunctionIsExpandedAtItsCall() {
		assertEquals(List.of(), errors(inline("add_one(x)")));
	}

	@Test
	void anInlineCallWithTheWrongArgumentCountIsRejectedAtTheCall() {
		List<Problem> errors = errors(inline("add_one(x, x)"));
		assertEquals(1, errors.size(), errors.toString());
		Problem p = errors.get(0);
		assertEquals("PTO500: Inline function 'add_one' expects 1 argument(s), got 2", p.message());
		assertEquals(14, p.line());
		assertEquals(39, p.column());
		List<Problem> keyword = errors(inline("add_one(x=x)"));
		assertEquals("PTO500: Function 'add_one' does not accept keyword argument 'x'", keyword.get(0).message());
	}

	@Test
	void anExternalFunctionMayNotShareAProgramFunctionsName() {
		String src = Sources.HEADER + """
				@pl.function
				def helper(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				    return x


				@pl.program
				class P:
				    @pl.function
				    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        return x

				    @pl.function
				    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = helper(x)
				        return y
				""";
		List<Problem> errors = errors(src);
		assertEquals(1, errors.size(), errors.toString());
		assertEquals("PTO500: External function 'helper' conflicts with program function 'helper'", errors.get(0).message());
		assertEquals(17, errors.get(0).line());
		assertEquals(List.of(), errors(src.replace("= helper(x)", "= self.helper(x)")).stream()
				.filter(p -> p.message().contains("conflicts")).toList());
	}

	@Test
	void aTupleAnnotationOnAnAssignmentIsNotCheckedButOnAParameterIsRefused() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, a: pl.Tensor[[64], pl.FP32], b: pl.Out[pl.Tensor[[64], pl.FP32]],
				          c: pl.Out[pl.Tensor[[64], pl.FP32]]) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
				        return b, c

				    @pl.function
				    def main(self, a: pl.Tensor[[64], pl.FP32], b: pl.Out[pl.Tensor[[64], pl.FP32]],
				             c: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        r: tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]] = self.k(a, b, c)
				        return a
				""";
		assertFalse(errors(src).stream().anyMatch(p -> p.message().contains("annotation")), errors(src).toString());
		List<Problem> param = errors(src.replace("def main(self, a: pl.Tensor[[64], pl.FP32]",
				"def main(self, a: tuple[pl.Tensor[[64], pl.FP32]]"));
		assertEquals("PTO500: Parameter type cannot be a tuple", param.get(0).message(), param.toString());
	}

	@Test
	void functionAttrsPrintAsAFuncAttrPrologueAsPyptoPrintsThem() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore, auto_scope=False)
				    def k(self, x: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
				        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
				        pl.func_attr({"note": "kept"})
				        out[0:16, :] = x[0:16, :]
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
				        out = self.k(x, out)
				        return out
				""";
		Generation g = Sources.generate(src, Sources.PLAIN.withDumpPasses(true));
		assertEquals(List.of(), g.problems());
		String frontend = Sources.file(g, "passes_dump/00_frontend.py");
		assertTrue(frontend.contains("""
				    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker, auto_scope=False)
				    def k(x: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
				        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "note": "kept"})
				"""), frontend);
	}

	@Test
	void aProgramATestOnlyParsesMeetsNoLaterStageCheck() {
		String program = """
				@pl.program
				class P:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        buf = pld.alloc_window_buffer(8)
				        return buf
				""";
		List<String> atModuleLevel = diagnostics(Sources.HEADER + program).stream().map(Diagnostic::rule).toList();
		assertTrue(atModuleLevel.contains("PTO201"), "compiled, the dead allocation is an error: " + atModuleLevel);
		String inATest = Sources.HEADER + "def test_parse():\n" + program.indent(4);
		List<String> parsed = diagnostics(inATest).stream().map(Diagnostic::rule).toList();
		assertFalse(parsed.contains("PTO201"), "the test only parses the program: " + parsed);
		List<String> compiled = diagnostics(inATest + "    ir.compile(P)\n").stream().map(Diagnostic::rule).toList();
		assertTrue(compiled.contains("PTO201"), "the test compiles it: " + compiled);
	}

	@Test
	void aFrontEndRejectionWinsOverTheAnalyzersLaterStageErrors() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        buf = pld.alloc_window_buffer(8, dtype=pl.FP32)
				        return buf
				""";
		List<String> rules = diagnostics(src).stream().map(Diagnostic::rule).toList();
		assertTrue(rules.contains("PTO500"), rules.toString());
		assertFalse(rules.contains("PTO201"), "the dead-allocation check runs in a pass pypto never reaches: " + rules);
		List<String> valid = diagnostics(src.replace(", dtype=pl.FP32", "")).stream().map(Diagnostic::rule).toList();
		assertTrue(valid.contains("PTO201") && !valid.contains("PTO500"), valid.toString());
	}
}
