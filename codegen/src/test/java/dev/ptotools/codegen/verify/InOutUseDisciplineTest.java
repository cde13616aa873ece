package dev.ptotools.codegen.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * pypto's InOutUseValid: an Out argument read after the call without being bound to the call's result
 * is rejected at the variable (pypto's Var carries its definition's span: here the parameter), naming
 * the call; bound again, it compiles. Straight-line and through a loop's back edge.
 */
class InOutUseDisciplineTest {

	private static String program(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32],
				               c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(a, [0, 0], [64, 64])
				        out = pl.store(t, [0, 0], c)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				%s
				        return c
				""".formatted(body.indent(8).stripTrailing());
	}

	private static final String STRAIGHT = "self.kernel(a, c)";
	private static final String LOOP = "for i in pl.range(2):\n    self.kernel(a, c)";

	@ParameterizedTest
	@ValueSource(strings = { STRAIGHT, LOOP })
	void readingThePreCallVariableIsRejectedAtIt(String body) {
		String src = program(body);
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		List<String> lines = src.lines().toList();
		int callLine = 0;
		int defLine = 0;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains("self.kernel(a, c)")) {
				callLine = i + 1;
			}
			if (lines.get(i).contains("def orch(")) {
				defLine = i + 1;
			}
		}
		int callColumn = lines.get(callLine - 1).indexOf("self.kernel") + 1;
		assertEquals("PTO500: variable 'c' was passed as InOut/Out at " + callLine + ":" + callColumn
				+ "; read the post-call return value instead of the pre-call variable", errors.get(0).message());
		assertEquals(defLine, errors.get(0).line());
		assertEquals(lines.get(defLine - 1).indexOf("c: pl.Out") + 1, errors.get(0).column(), "at the parameter c");
		assertEquals(List.of(), g.files());
	}

	@ParameterizedTest
	@ValueSource(strings = { STRAIGHT, LOOP })
	void boundToTheCallsResultItCompiles(String body) {
		Generation g = Sources.generate(program(body.replace("self.kernel", "c = self.kernel")), Sources.PLAIN);
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertTrue(!g.files().isEmpty());
	}
}
