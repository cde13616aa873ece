package dev.ptotools.codegen.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * Tiles that must be in the unified buffer together count together: two 128 KB tiles live at once are
 * over Ascend910B's 184 KB whatever the planner does; the same tiles one after the other, in the two
 * branches of an if, or as a view of one another fit. A tile a loop reads and that lives before it is
 * live all through the loop.
 */
class TileLiveBytesTest {

	private static String kernel(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[128, 256], pl.FP32], b: pl.Tensor[[128, 256], pl.FP32],
				               flag: pl.Scalar[pl.INT32],
				               c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
				%s
				        return c

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[128, 256], pl.FP32], b: pl.Tensor[[128, 256], pl.FP32],
				             flag: pl.Scalar[pl.INT32],
				             c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
				        c = self.kernel(a, b, flag, c)
				        return c
				""".formatted(body.stripTrailing().indent(8).stripTrailing());
	}

	private static List<Problem> errors(String body) {
		Generation g = Sources.generate(kernel(body), Sources.PLAIN);
		return g.problems().stream().filter(Problem::isError).toList();
	}

	@Test
	void twoLargeTilesLiveTogetherAreRejectedWhereTheyMeet() {
		String body = """
				ta = pl.load(a, [0, 0], [128, 256])
				tb = pl.load(b, [0, 0], [128, 256])
				tc = pl.add(ta, tb)
				c = pl.store(tc, [0, 0], c)
				""";
		List<Problem> errors = errors(body);
		assertEquals(1, errors.size(), errors.toString());
		assertEquals("PTO500: Failed to compile function 'kernel': Vec buffer usage (at least 262144 bytes: tiles 'ta', 'tb'"
				+ " live together) exceeds platform limit (188416 bytes)", errors.get(0).message());
		assertEquals(kernel(body).lines().toList().indexOf("        tb = pl.load(b, [0, 0], [128, 256])") + 1,
				errors.get(0).line());
	}

	@Test
	void oneAfterTheOtherTheyFit() {
		assertEquals(List.of(), errors("""
				ta = pl.load(a, [0, 0], [128, 256])
				c = pl.store(ta, [0, 0], c)
				tb = pl.load(b, [0, 0], [128, 256])
				c = pl.store(tb, [0, 0], c)
				"""));
	}

	@Test
	void theTwoBranchesOfAnIfDoNotMeet() {
		assertEquals(List.of(), errors("""
				if flag > 0:
				    ta = pl.load(a, [0, 0], [128, 256])
				    c = pl.store(ta, [0, 0], c)
				else:
				    tb = pl.load(b, [0, 0], [128, 256])
				    c = pl.store(tb, [0, 0], c)
				"""));
	}

	@Test
	void aTileALoopReadsLivesThroughIt() {
		String body = """
				ta = pl.load(a, [0, 0], [128, 256])
				for i in pl.range(0, 2):
				    tb = pl.load(b, [0, 0], [128, 256])
				    tc = pl.add(ta, tb)
				    c = pl.store(tc, [0, 0], c)
				""";
		List<Problem> errors = errors(body);
		assertEquals(1, errors.size(), errors.toString());
		assertEquals("PTO500: Failed to compile function 'kernel': Vec buffer usage (at least 262144 bytes: tiles 'ta', 'tb'"
				+ " live together) exceeds platform limit (188416 bytes)", errors.get(0).message());
		// half as wide, the two fit (64 KB each)
		assertEquals(List.of(), errors(body.replace("[128, 256]", "[64, 256]")));
	}
}
