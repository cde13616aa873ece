package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;

/** break/continue lowering in kernels (checked against pypto's 03_after_CtrlFlowTransform dumps). */
class CtrlFlowTransformPassTest {

	private static final String HEADER = """
			import pypto.language as pl

			@pl.program
			class P:
			""";

	@Test
	void continueMovesTheRestOfTheBodyIntoTheOtherBranch() {
		String out = PassRunner.function(HEADER + """
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        acc: pl.Scalar[pl.INDEX] = m
				        for i in pl.range(n):
				            if i == 2:
				                continue
				            acc = acc + i
				        return acc
				""", "CtrlFlowTransform", "k");
		assertTrue(out.contains("""
				    for i in pl.range(n):
				        if i == 2:
				            pass
				        else:
				            acc: pl.Scalar[pl.INDEX] = acc + i
				"""), out);
	}

	@Test
	void breakTurnsTheLoopIntoAWhileOverAFlag() {
		String out = PassRunner.function(HEADER + """
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        acc: pl.Scalar[pl.INDEX] = m
				        for j in pl.range(n):
				            for i in pl.range(0, n, 2):
				                acc = acc + i
				                if acc > 100:
				                    break
				                acc = acc * 2
				        return acc
				""", "CtrlFlowTransform", "k");
		assertTrue(out.contains("""
				        i__idx_v1: pl.Scalar[pl.INDEX] = 0
				        break__tmp_v0: pl.Scalar[pl.BOOL] = False
				        while i__idx_v1 < n and not break__tmp_v0:
				            acc: pl.Scalar[pl.INDEX] = acc + i__idx_v1
				            if acc > 100:
				                break__tmp_v0: pl.Scalar[pl.BOOL] = True
				                pl.yield_()
				            else:
				                acc: pl.Scalar[pl.INDEX] = acc * 2
				                pl.yield_()
				            if not break__tmp_v0:
				                i__idx_v1: pl.Scalar[pl.INDEX] = i__idx_v1 + 2
				"""), out);
	}

	@Test
	void orchestrationKeepsItsBreak() {
		String out = PassRunner.function(HEADER + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def o(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        acc: pl.Scalar[pl.INDEX] = 0
				        for i in pl.range(n):
				            if i > 5:
				                break
				            acc = acc + i
				        return acc
				""", "CtrlFlowTransform", "o");
		assertTrue(out.contains("break"), out);
		assertTrue(out.contains("for i in pl.range(n):"), out);
	}

	@Test
	void aTopLevelBreakInAKernelHitsPyptosBoolConstantFailureInSimplify() {
		CodegenException e = assertThrows(CodegenException.class, () -> PassRunner.after(HEADER + """
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
				        acc: pl.Scalar[pl.INDEX] = 0
				        for i in pl.range(n):
				            if i > 5:
				                break
				            acc = acc + i
				        return acc
				""", "Simplify"));
		assertEquals("Operator 'eq' does not accept bool dtype", e.getMessage());
	}
}
