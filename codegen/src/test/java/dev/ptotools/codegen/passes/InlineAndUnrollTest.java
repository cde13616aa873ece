package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;

/** InlineFunctions and UnrollLoops, and what ConvertToSSA then makes of their output (checked against pypto). */
class InlineAndUnrollTest {

	private static final String PROGRAM = """
			import pypto.language as pl

			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.Inline)
			    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
			        y = pl.mul(x, x)
			        z = pl.add(y, x)
			        return z

			    @pl.function(type=pl.FunctionType.Inline)
			    def pair(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
			        u = pl.mul(x, x)
			        v = pl.add(x, x)
			        return u, v

			    @pl.function
			    def main(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
			        a2 = self.helper(a)
			        b2 = self.helper(b)
			        p, q = self.pair(a2)
			        for i in pl.unroll(3):
			            b2 = pl.add(b2, p)
			            for j in pl.range(2):
			                q = pl.add(q, b2)
			        return pl.add(pl.mul(a2, b2), q)
			""";

	private static final String T = "pl.Tensor[[64], pl.FP32]";

	@Test
	void inlineCallsAreSplicedWithRenamedLocalsAndTheHelpersDropped() {
		Program p = PassRunner.after(PROGRAM, "InlineFunctions");
		assertNull(p.function("helper"));
		assertNull(p.function("pair"));
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("""
				    y_inline1: %1$s = pl.tensor.mul(a, a)
				    z_inline0: %1$s = pl.tensor.add(y_inline1, a)
				    a2: %1$s = z_inline0
				    y_inline3: %1$s = pl.tensor.mul(b, b)
				    z_inline2: %1$s = pl.tensor.add(y_inline3, b)
				    b2: %1$s = z_inline2
				    u_inline5: %1$s = pl.tensor.mul(a2, a2)
				    v_inline4: %1$s = pl.tensor.add(a2, a2)
				    p: %1$s = u_inline5
				    q: %1$s = v_inline4
				""".formatted(T)), main);
	}

	@Test
	void unrolledCopiesShareTheirVarsSoSsaVersionsThemInTurn() {
		String main = PassRunner.function(PROGRAM, "ConvertToSSA", "main");
		assertTrue(main.contains("b2__ssa_v1: " + T + " = pl.tensor.add(b2__ssa_v0, p__ssa_v0)"), main);
		assertTrue(main.contains("for j__idx_v0, (q__iter_v1,) in pl.range(2, init_values=(q__ssa_v0,)):"), main);
		assertTrue(main.contains("b2__ssa_v2: " + T + " = pl.tensor.add(b2__ssa_v1, p__ssa_v0)"), main);
		assertTrue(main.contains("for j__idx_v1, (q__iter_v4,) in pl.range(2, init_values=(q__rv_v2,)):"), main);
		assertTrue(main.contains("for j__idx_v2, (q__iter_v7,) in pl.range(2, init_values=(q__rv_v5,)):"), main);
		assertTrue(main.contains("return pl.tensor.add(pl.tensor.mul(a2__ssa_v0, b2__ssa_v3), q__rv_v8)"), main);
	}

	@Test
	void unrollIsLimitedTo1024Iterations() {
		CodegenException e = assertThrows(CodegenException.class, () -> PassRunner.after("""
				import pypto.language as pl

				@pl.program
				class P:
				    @pl.function
				    def main(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        for i in pl.unroll(2000):
				            a = pl.add(a, a)
				        return a
				""", "UnrollLoops"));
		assertEquals("Unroll loop trip count 2000 exceeds maximum allowed (1024). Reduce the loop range or use pl.range() "
				+ "instead", e.getMessage());
	}

	private static String nestedUnroll(int outer, int inner) {
		return """
				import pypto.language as pl

				@pl.program
				class P:
				    @pl.function
				    def main(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        for i in pl.unroll(%d):
				            for j in pl.unroll(%d):
				                a = pl.add(a, a)
				        return a
				""".formatted(outer, inner);
	}

	@Test
	void nestedUnrollsPastTheStatementBudgetAreThisCompilersLimitAtTheOuterLoop() {
		// Each loop is within pypto's 1024 trips; together they are a million copies.
		CodegenException e = assertThrows(CodegenException.class, () -> PassRunner.after(nestedUnroll(1024, 1024),
				"UnrollLoops"));
		assertTrue(e.isUnsupported(), "valid pypto: our limit, not a rejection");
		assertEquals(nestedUnroll(1024, 1024).indexOf("for i in"), e.span().start());
		assertEquals("pl.unroll expands this function to more than 100,000 statements (this loop alone: 1,049,601); "
				+ "this compiler unrolls no more than that", e.getMessage());
	}

	@Test
	void nestedUnrollsWithinTheBudgetAreUnrolled() {
		Program p = PassRunner.after(nestedUnroll(64, 16), "UnrollLoops");
		String main = IrPrinter.print(p.function("main"));
		assertEquals(64 * 16, main.split("pl.tensor.add", -1).length - 1, main);
	}
}
