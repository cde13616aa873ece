package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.PassRunner;

/** Where FlattenCallExpr hoists nested calls and how it numbers the temporaries (checked against pypto). */
class FlattenCallExprPassTest {

	private static final String HEADER = """
			import pypto.language as pl

			@pl.program
			class P:
			""";

	private static final String T = "pl.Tensor[[64], pl.FP32]";

	private static String flat(String functions, String name) {
		return PassRunner.function(HEADER + functions, "FlattenCallExpr", name);
	}

	@Test
	void innerCallsAreHoistedFirstAndNumberedPerFunction() {
		String out = flat("""
				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        y = pl.add(pl.mul(x, x), pl.sub(x, pl.add(x, x)))
				        for i in pl.range(n):
				            y = pl.add(y, pl.mul(y, x))
				        return pl.add(y, pl.mul(x, x))
				""", "f");
		assertEquals("""
				@pl.function
				def f(self, x__ssa_v0: %1$s, n__ssa_v0: pl.Scalar[pl.INDEX]) -> %1$s:
				    t__tmp_v0: %1$s = pl.tensor.mul(x__ssa_v0, x__ssa_v0)
				    t__tmp_v1: %1$s = pl.tensor.add(x__ssa_v0, x__ssa_v0)
				    t__tmp_v2: %1$s = pl.tensor.sub(x__ssa_v0, t__tmp_v1)
				    y__ssa_v0: %1$s = pl.tensor.add(t__tmp_v0, t__tmp_v2)
				    for i__idx_v0, (y__iter_v1,) in pl.range(n__ssa_v0, init_values=(y__ssa_v0,)):
				        t__tmp_v3: %1$s = pl.tensor.mul(y__iter_v1, x__ssa_v0)
				        y__ssa_v3: %1$s = pl.tensor.add(y__iter_v1, t__tmp_v3)
				        y__rv_v2: %1$s = pl.yield_(y__ssa_v3)
				    t__tmp_v4: %1$s = pl.tensor.mul(x__ssa_v0, x__ssa_v0)
				    t__tmp_v5: %1$s = pl.tensor.add(y__rv_v2, t__tmp_v4)
				    return t__tmp_v5
				""".formatted(T), out);
	}

	@Test
	void returnedCallsLoopBoundsAndYieldsBecomeTemporaries() {
		String two = flat("""
				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
				        return pl.add(x, x), pl.mul(x, x)
				""", "f");
		assertTrue(two.contains("return t__tmp_v0, t__tmp_v1"), two);
		String bound = flat("""
				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        for i in pl.range(pl.tensor.dim(x, 0)):
				            x = pl.add(x, x)
				        s = pl.slice(x, [16], [pl.tensor.dim(x, 0) - 16])
				        return s
				""", "f");
		assertTrue(bound.contains("t__tmp_v0: pl.Scalar[pl.INDEX] = pl.tensor.dim(x__ssa_v0, 0)"), bound);
		assertTrue(bound.contains("in pl.range(t__tmp_v0, init_values=(x__ssa_v0,)):"), bound);
		assertTrue(bound.contains("t__tmp_v1: pl.Scalar[pl.INDEX] = pl.tensor.dim(x__rv_v2, 0)"), bound);
		String yielded = flat("""
				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        for i, (acc,) in pl.range(n, init_values=(x,)):
				            acc2 = pl.yield_(pl.add(acc, pl.mul(acc, x)))
				        return acc2
				""", "f");
		assertTrue(yielded.contains("""
				        t__tmp_v0: %1$s = pl.tensor.mul(acc, x__ssa_v0)
				        t__tmp_v1: %1$s = pl.tensor.add(acc, t__tmp_v0)
				        acc2: %1$s = pl.yield_(t__tmp_v1)
				""".formatted(T)), yielded);
	}

	@Test
	void temporariesStayInsideTheScopeThatUsesThem() {
		String out = flat("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
				        with pl.at(level=pl.Level.CORE_GROUP):
				            y = pl.add(a, pl.mul(a, a))
				            out = pl.assemble(out, pl.add(y, a), [0, 0])
				        return out
				""", "main");
		assertTrue(out.contains("""
				    with pl.at(level=pl.Level.CORE_GROUP):
				        t__tmp_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.mul(a__ssa_v0, a__ssa_v0)
				        y__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.add(a__ssa_v0, t__tmp_v0)
				        t__tmp_v1: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.add(y__ssa_v0, a__ssa_v0)
				        out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.assemble(out__ssa_v0, t__tmp_v1, [0, 0])
				    return out__ssa_v1
				"""), out);
	}
}
