package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;

/**
 * pl.static_print and pl.static_assert statements run while pypto parses and emit no IR
 * (ast_parser.py parse_evaluation_statement), so a rank loop that holds one beside its dispatch is
 * judged without it; any other call still counts.
 */
class CompileTimeCallsTest {

	static Stream<Arguments> loops() {
		return Stream.of(
				Arguments.of("static_print beside the dispatch", "", """
						        for r in pl.range(pld.world_size()):
						            row = rows[r]
						            pl.static_print("row of rank", row)
						            self.chip(row, device=r)
						""", "PTO100"),
				Arguments.of("static_assert beside the dispatch", "", """
						        for r in pl.range(pld.world_size()):
						            pl.static_assert(N % 16 == 0, "rows are whole blocks")
						            self.chip(rows[r], device=r)
						""", "PTO100"),
				Arguments.of("static_print imported by name", "from pypto.language import static_print\n", """
						        for r in pl.range(pld.world_size()):
						            static_print(rows[r])
						            self.chip(rows[r], device=r)
						""", "PTO100"),
				// neighbours that keep their verdict
				Arguments.of("a call that emits IR", "", """
						        for r in pl.range(pld.world_size()):
						            scratch = pl.create_tensor([N], dtype=pl.FP32)
						            self.chip(rows[r], device=r)
						""", "PTO106"),
				Arguments.of("static_print under an if is still control flow", "", """
						        for r in pl.range(pld.world_size()):
						            self.chip(rows[r], device=r)
						            if N > 16:
						                pl.static_print(r)
						""", "PTO110"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("loops")
	void compileTimeCallsEmitNothing(String what, String imports, String body, String rule) {
		Analysis a = analyze("import pypto.language as pl\nimport pypto.language.distributed as pld\n" + imports + """

				N = 64


				@pl.program
				class Rows:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[N], pl.FP32]):
				        return x

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, rows: pl.Tensor[[8, N], pl.FP32]):
				""" + body + "        return rows\n");
		assertEquals(1, a.rankLoops().size(), describe(a));
		RankLoop loop = a.rankLoops().get(0);
		assertEquals(rule, loop.grouped() ? "PTO100" : loop.failed().rule(), describe(a));
	}
}
