package dev.ptotools.codegen.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * A loop bound that is not a scalar is pypto's TypeChecked error at the loop (it once ended in an
 * internal error of this compiler's simplifier); a scalar bound compiles.
 */
class LoopBoundsTypeCheckTest {

	private static String program(String bound) {
		return Sources.HEADER + """
				import torch


				@pl.jit
				def copy(a: pl.Tensor, c: pl.Out[pl.Tensor]):
				    for i in pl.range(%s):
				        with pl.at(level=pl.Level.CORE_GROUP):
				            t = pl.load(a, [0, 0], [16, 64])
				            c = pl.store(t, [0, 0], c)
				    return c


				def main():
				    copy(torch.zeros((16, 64), dtype=torch.float32), torch.zeros((16, 64), dtype=torch.float32))
				""".formatted(bound);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "[]|TupleType", "a|TensorType" })
	void aBoundThatIsNotAScalarIsRejectedAtTheLoop(String bound, String type) {
		String src = program(bound);
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		assertEquals("PTO500: ForStmt stop must be ScalarType, but got " + type, errors.get(0).message());
		int loop = src.lines().toList().indexOf("    for i in pl.range(" + bound + "):") + 1;
		assertEquals(loop, errors.get(0).line());
	}

	@ParameterizedTest
	@CsvSource({ "2", "'0, 4, 2'" })
	void scalarBoundsCompile(String bound) {
		Generation g = Sources.generate(program(bound), Sources.PLAIN);
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertTrue(!g.files().isEmpty());
	}
}
