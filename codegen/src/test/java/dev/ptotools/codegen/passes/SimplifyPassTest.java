package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.PassRunner;

/** What Simplify does to our programs, as pypto's Simplify does it (checked against its dumps). */
class SimplifyPassTest {

	private static final String HEADER = """
			import pypto.language as pl

			@pl.program
			class P:
			""";

	private static String simplified(String functions, String name) {
		return PassRunner.function(HEADER + functions, "Simplify", name);
	}

	@Test
	void foldsCanonicalisesPropagatesAndRemovesShortLoops() {
		String out = simplified("""
				    @pl.function
				    def simp(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INT64]) -> pl.Scalar[pl.INDEX]:
				        c: pl.Scalar[pl.INDEX] = 4 * 32
				        f: pl.Scalar[pl.FP32] = 0.5
				        t: pl.Scalar[pl.INDEX] = 0
				        for i in pl.range(0, n, c):
				            a = (i + 1) * 64
				            b = 64 * i + 0
				            dead = i * 3
				            if n > 0:
				                t = t + a
				            if n >= 0:
				                t = t + b
				            if m > 5:
				                t = t + 1
				            g = pl.min(128, n - i)
				            t = t + g
				        for k in pl.range(1):
				            t = t + k + c
				        for k2 in pl.range(0):
				            t = t + 7
				        return t
				""", "simp");
		assertEquals("""
				@pl.function
				def simp(self, x__ssa_v0: pl.Tensor[[64], pl.FP32], n__ssa_v0: pl.Scalar[pl.INDEX], m__ssa_v0: pl.Scalar[pl.INT64]) -> pl.Scalar[pl.INDEX]:
				    for i__idx_v0, (t__iter_v1,) in pl.range(0, n__ssa_v0, 128, init_values=(0,)):
				        a__ssa_v0: pl.Scalar[pl.INDEX] = i__idx_v0 * 64 + 64
				        b__ssa_v0: pl.Scalar[pl.INDEX] = i__idx_v0 * 64
				        if 0 < n__ssa_v0:
				            t__ssa_v3: pl.Scalar[pl.INDEX] = t__iter_v1 + a__ssa_v0
				            t__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(t__ssa_v3)
				        else:
				            t__phi_v4: pl.Scalar[pl.INDEX] = pl.yield_(t__iter_v1)
				        t__ssa_v5: pl.Scalar[pl.INDEX] = t__phi_v4 + b__ssa_v0
				        if 5 < m__ssa_v0:
				            t__ssa_v7: pl.Scalar[pl.INDEX] = t__ssa_v5 + 1
				            t__phi_v8: pl.Scalar[pl.INDEX] = pl.yield_(t__ssa_v7)
				        else:
				            t__phi_v8: pl.Scalar[pl.INDEX] = pl.yield_(t__ssa_v5)
				        g__ssa_v0: pl.Scalar[pl.INDEX] = pl.min(n__ssa_v0 - i__idx_v0, 128)
				        t__ssa_v9: pl.Scalar[pl.INDEX] = t__phi_v8 + g__ssa_v0
				        t__rv_v2: pl.Scalar[pl.INDEX] = pl.yield_(t__ssa_v9)
				    t__ssa_v12: pl.Scalar[pl.INDEX] = t__rv_v2 + 128
				    t__rv_v14: pl.Scalar[pl.INDEX] = t__ssa_v12
				    return t__rv_v14
				""", out);
	}

	@Test
	void floatConstantsStayAndNestedConstantsAreNotSubstituted() {
		String out = simplified("""
				    @pl.function
				    def f(self, s: pl.Scalar[pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        f: pl.Scalar[pl.FP32] = 0.5
				        g = s * f
				        k: pl.Scalar[pl.INDEX] = 2
				        h = n * k
				        for i in pl.range(n):
				            z: pl.Scalar[pl.INDEX] = 3
				            if i > z:
				                h = h + 1
				        return h
				""", "f");
		assertTrue(out.contains("h__ssa_v0: pl.Scalar[pl.INDEX] = n__ssa_v0 * 2"), out);
		assertTrue(out.contains("z__ssa_v0: pl.Scalar[pl.INDEX] = 3"), out);
		assertTrue(out.contains("if z__ssa_v0 < i__idx_v0:"), out);
		assertFalse(out.contains("g__ssa_v0"), out); // unused, call-free: removed
	}

	@Test
	void decidedBranchesAreSplicedAndTheirPhisReplaced() {
		String out = simplified("""
				    @pl.function
				    def f(self, c: pl.Tensor[[64], pl.FP32], d: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        zero: pl.Scalar[pl.INDEX] = 0
				        if n < zero:
				            e = pl.add(c, d)
				        else:
				            e = pl.mul(c, d)
				        for i in pl.range(n):
				            e = pl.add(e, c)
				        for j in pl.parallel(1):
				            q = pl.add(e, e)
				        return e
				""", "f");
		assertTrue(out.contains("""
				    e__ssa_v1: pl.Tensor[[64], pl.FP32] = pl.tensor.mul(c__ssa_v0, d__ssa_v0)
				    for i__idx_v0, (e__iter_v3,) in pl.range(n__ssa_v0, init_values=(e__ssa_v1,)):
				"""), out);
		assertTrue(out.contains("for j__idx_v0 in pl.parallel(1):"), out); // not a pure loop: kept
	}

	@Test
	void whileInitsAreNotSimplifiedButTheirUsesAre() {
		String out = simplified("""
				    @pl.function
				    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        i: pl.Scalar[pl.INDEX] = 0
				        while i < n:
				            i = i + 1
				        return i
				""", "f");
		// pypto keeps the header's iter arg and rebuilds the one the body reads (same name, free in the dump).
		assertTrue(out.contains("i__ssa_v0: pl.Scalar[pl.INDEX] = 0"), out);
		assertTrue(out.contains("in pl.while_(init_values=(i__ssa_v0,)):"), out);
		assertTrue(out.contains("pl.cond(i__iter_v1_1__FREE_VAR < n__ssa_v0)"), out);
	}

	@Test
	void indexArithmeticIsNormalised() {
		String out = simplified("""
				    @pl.function
				    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        s: pl.Scalar[pl.INDEX] = 0
				        for i in pl.range(4):
				            for j in pl.range(0, n, 16):
				                off = i // 4 + j % 16 + (i * 8) // 4 - 0
				                s = s + off + pl.max(j, 0) + pl.min(i, 7)
				                if not (i < j):
				                    s = s + i % 4
				                if i == 5:
				                    s = s + 100
				        return s
				""", "f");
		assertTrue(out.contains("off__ssa_v0: pl.Scalar[pl.INDEX] = j__idx_v0 % 16 + i__idx_v0 * 2"), out);
		assertTrue(out.contains("s__ssa_v5: pl.Scalar[pl.INDEX] = s__iter_v3 + off__ssa_v0 + j__idx_v0 + i__idx_v0"), out);
		assertTrue(out.contains("if j__idx_v0 <= i__idx_v0:"), out);
		assertTrue(out.contains("s__ssa_v6: pl.Scalar[pl.INDEX] = s__ssa_v5 + i__idx_v0"), out);
		assertFalse(out.contains("100"), out); // i == 5 is never true for i in [0, 4)
	}
}
