package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * An argument of a program-function call that is a call of something other than pl. (a Python builtin
 * such as {@code float('inf')}) is pypto's "Unsupported function call" at it, never an internal error of
 * this compiler (it once ended in a NullPointerException looking for {@code pl.no_dep}).
 */
class FunctionCallArgsTest {

	@Test
	void aBuiltinCallAsAnArgumentIsPyptosUnsupportedCall() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Scalar[pl.FP32], a: pl.Tensor[[64, 64], pl.FP32],
				          c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(a, [0, 0], [64, 64])
				        return pl.store(t, [0, 0], c)

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[64, 64], pl.FP32],
				             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        c = self.k(float('inf'), a, c)
				        return c
				""";
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		assertEquals("PTO500: Unsupported function call: float(\"inf\")", errors.get(0).message());
		int line = src.lines().toList().indexOf("        c = self.k(float('inf'), a, c)") + 1;
		assertEquals(line, errors.get(0).line());
		assertEquals(20, errors.get(0).column(), "at float(...)");
	}
}
