package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;

/** The names ConvertToSSA gives, as pypto's ConvertToSSA gives them for the same programs (checked against it). */
class ConvertToSSAPassTest {

	private static final String HEADER = """
			import pypto.language as pl

			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.InCore)
			    def kadd(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        ta = pl.load(a, [0, 0], [16, 16])
			        tb = pl.load(b, [0, 0], [16, 16])
			        t = pl.add(ta, tb)
			        c = pl.store(t, [0, 0], c)
			        return c

			""";

	private static final String T = "pl.Tensor[[16, 16], pl.FP32]";

	private static String ssa(String functions, String name) {
		return PassRunner.function(HEADER + functions, "ConvertToSSA", name);
	}

	@Test
	void paramsAndReassignmentsAreVersionedPerVariable() {
		String out = ssa("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        c = pl.create_tensor([16, 16], dtype=pl.FP32)
				        c = self.kadd(a, a, c)
				        d = self.kadd(c, a, d)
				        return d
				""", "main");
		assertTrue(out.contains("def main(self, a__ssa_v0: " + T + ", d__ssa_v0: pl.Out[" + T + "])"), out);
		assertTrue(out.contains("c__ssa_v0: " + T + " = pl.tensor.create("), out);
		assertTrue(out.contains("c__ssa_v1: " + T + " = self.kadd(a__ssa_v0, a__ssa_v0, c__ssa_v0)"), out);
		assertTrue(out.contains("d__ssa_v1: " + T + " = self.kadd(c__ssa_v1, a__ssa_v0, d__ssa_v0)"), out);
		assertTrue(out.contains("return d__ssa_v1"), out);
	}

	@Test
	void loopCarriedVariablesGetIterAndReturnVarsBeforeTheBody() {
		String out = ssa("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
				        c = pl.create_tensor([16, 16], dtype=pl.FP32)
				        c = self.kadd(a, b, c)
				        for i in pl.range(n):
				            c = self.kadd(c, b, c)
				        d = self.kadd(c, c, d)
				        return d
				""", "main");
		assertTrue(out.contains("for i__idx_v0, (c__iter_v2,) in pl.range(n__ssa_v0, init_values=(c__ssa_v1,)):"), out);
		assertTrue(out.contains("c__ssa_v4: " + T + " = self.kadd(c__iter_v2, b__ssa_v0, c__iter_v2)"), out);
		assertTrue(out.contains("c__rv_v3: " + T + " = pl.yield_(c__ssa_v4)"), out);
		assertTrue(out.contains("d__ssa_v1: " + T + " = self.kadd(c__rv_v3, c__rv_v3, d__ssa_v0)"), out);
	}

	@Test
	void nestedLoopsCarryThroughBothLevelsSortedByName() {
		String out = ssa("""
				    @pl.function
				    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        acc: pl.Scalar[pl.INDEX] = 0
				        b: pl.Scalar[pl.INDEX] = 0
				        for i in pl.range(n):
				            for j in pl.range(n):
				                acc = acc + j
				            b = b + i
				        return acc + b
				""", "f");
		assertEquals("""
				@pl.function
				def f(self, n__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				    acc__ssa_v0: pl.Scalar[pl.INDEX] = 0
				    b__ssa_v0: pl.Scalar[pl.INDEX] = 0
				    for i__idx_v0, (acc__iter_v1, b__iter_v1) in pl.range(n__ssa_v0, init_values=(acc__ssa_v0, b__ssa_v0)):
				        for j__idx_v0, (acc__iter_v3,) in pl.range(n__ssa_v0, init_values=(acc__iter_v1,)):
				            acc__ssa_v5: pl.Scalar[pl.INDEX] = acc__iter_v3 + j__idx_v0
				            acc__rv_v4: pl.Scalar[pl.INDEX] = pl.yield_(acc__ssa_v5)
				        b__ssa_v3: pl.Scalar[pl.INDEX] = b__iter_v1 + i__idx_v0
				        acc__rv_v2, b__rv_v2 = pl.yield_(acc__rv_v4, b__ssa_v3)
				    return acc__rv_v2 + b__rv_v2
				""", out);
	}

	@Test
	void explicitInitValuesKeepTheirNamesAndBranchesMergeInPhis() {
		String out = ssa("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
				        for i, (acc,) in pl.range(n, init_values=(d,)):
				            acc2 = self.kadd(a, acc, acc)
				            if i == 0:
				                acc2 = self.kadd(acc2, a, acc2)
				            acc_out = pl.yield_(acc2)
				        return acc_out
				""", "main");
		assertTrue(out.contains("for i__idx_v0, (acc,) in pl.range(n__ssa_v0, init_values=(d__ssa_v0,)):"), out);
		assertTrue(out.contains("acc2__ssa_v0: " + T + " = self.kadd(a__ssa_v0, acc, acc)"), out);
		assertTrue(out.contains("acc2__ssa_v1: " + T + " = self.kadd(acc2__ssa_v0, a__ssa_v0, acc2__ssa_v0)"), out);
		assertTrue(out.contains("acc2__phi_v2: " + T + " = pl.yield_(acc2__ssa_v1)"), out);
		assertTrue(out.contains("acc2__phi_v2: " + T + " = pl.yield_(acc2__ssa_v0)"), out);
		assertTrue(out.contains("acc_out: " + T + " = pl.yield_(acc2__phi_v2)"), out);
		assertTrue(out.contains("return acc_out"), out);
	}

	@Test
	void branchesAssigningANewVariableInBothArmsShareOneVar() {
		String out = ssa("""
				    @pl.function
				    def f(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        if n > 3:
				            y = pl.add(a, b)
				        else:
				            y = pl.mul(a, b)
				        x = pl.add(a, a)
				        if n >= 3:
				            x = pl.mul(b, b)
				        if n < 3:
				            r = pl.yield_(pl.add(x, y))
				        else:
				            r = pl.yield_(pl.mul(x, y))
				        return r
				""", "f");
		assertTrue(out.contains("y__ssa_v0: pl.Tensor[[64], pl.FP32] = pl.tensor.add(a__ssa_v0, b__ssa_v0)"), out);
		assertTrue(out.contains("y__ssa_v1: pl.Tensor[[64], pl.FP32] = pl.tensor.mul(a__ssa_v0, b__ssa_v0)"), out);
		assertTrue(out.contains("y__phi_v2: pl.Tensor[[64], pl.FP32] = pl.yield_(y__ssa_v1)"), out);
		assertTrue(out.contains("""
				        x__phi_v2: pl.Tensor[[64], pl.FP32] = pl.yield_(x__ssa_v1)
				    else:
				        x__phi_v2: pl.Tensor[[64], pl.FP32] = pl.yield_(x__ssa_v0)
				"""), out);
		assertTrue(out.contains("r__rv_v0: pl.Tensor[[64], pl.FP32] = pl.yield_(pl.tensor.add(x__phi_v2, y__phi_v2))"), out);
		assertTrue(out.contains("return r__rv_v0"), out);
	}

	@Test
	void naturalWhileCarriesItsCounter() {
		String out = ssa("""
				    @pl.function
				    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        i: pl.Scalar[pl.INDEX] = 0
				        while i < n:
				            i = i + 1
				        return i
				""", "f");
		assertTrue(out.contains("""
				    for (i__iter_v1,) in pl.while_(init_values=(i__ssa_v0,)):
				        pl.cond(i__iter_v1 < n__ssa_v0)
				        i__ssa_v3: pl.Scalar[pl.INDEX] = i__iter_v1 + 1
				        i__rv_v2: pl.Scalar[pl.INDEX] = pl.yield_(i__ssa_v3)
				    return i__rv_v2
				"""), out);
	}

	@Test
	void eachTupleUnpackHasItsOwnTemporary() {
		String out = ssa("""
				    @pl.function
				    def pair(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
				        u = pl.add(x, x)
				        v = pl.mul(x, x)
				        return u, v

				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        a, b = self.pair(x)
				        c, d = self.pair(a)
				        return pl.add(pl.mul(b, c), d)
				""", "f");
		// Two Vars named _tuple_tmp__ssa_v0; the printer tells the second apart as pypto's does.
		assertTrue(out.contains("_tuple_tmp__ssa_v0: pl.Tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]] = self.pair(x__ssa_v0)"), out);
		assertTrue(out.contains("_tuple_tmp__ssa_v0_1: pl.Tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]] = self.pair(a__ssa_v0)"), out);
		assertTrue(out.contains("d__ssa_v0: pl.Tensor[[64], pl.FP32] = _tuple_tmp__ssa_v0_1[1]"), out);
	}

	@Test
	void scopesDoNotRestoreVersionsAndLoopLocalsStayLocal() {
		String out = ssa("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
				        with pl.at(level=pl.Level.CORE_GROUP):
				            y = pl.add(a, a)
				            for i in pl.range(n):
				                z = pl.add(y, a)
				            out = pl.assemble(out, y, [0, 0])
				        return out
				""", "main");
		assertTrue(out.contains("for i__idx_v0 in pl.range(n__ssa_v0):"), out);
		assertTrue(out.contains("z__ssa_v0: " + T + " = pl.tensor.add(y__ssa_v0, a__ssa_v0)"), out);
		assertTrue(out.contains("return out__ssa_v1"), out);
	}

	@Test
	void aVariableEscapingALoopWithNothingToSeedItIsRejected() {
		CodegenException e = assertThrows(CodegenException.class, () -> ssa("""
				    @pl.function
				    def f(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
				        for r in pl.range(n):
				            y = pl.add(x, x)
				        return y
				""", "f"));
		assertEquals("Variable 'y' used outside its defining scope", e.getMessage());
	}
}
