package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.emit.orchestration.IrPrograms;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;

/** ClassifyIterArgCarry on our own programs (the attrs pypto stamps for the same sources). */
class ClassifyIterArgCarryPassTest {

	@Test
	void inPlaceCarriesAreTrivialFreshValuesAreRebind() {
		Program p = IrPrograms.handBuilt(IrPrograms.parseOne(IrPrograms.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.AIV)
				    def fill(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        acc: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        for i, (a, n) in pl.range(4, init_values=(acc, 0)):
				            r = self.fill(x, a)
				            n2 = n + 1
				            a2, n3 = pl.yield_(r, n2)
				        for j, (b,) in pl.range(2, init_values=(a2,)):
				            f: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				            f2 = self.fill(b, f)
				            b2 = pl.yield_(f2)
				        out = self.fill(b2, out)
				        return out
				"""));
		List<Stmt.For> loops = OrchPassTestSupport.loops(IrPrograms.orchestration(p).body());
		// the kernel writes the carried buffer in place: trivial; the counter is recomputed: rebind
		assertEquals(Map.of("iter_arg_rebind_0", false, "iter_arg_rebind_1", true), loops.get(0).attrs());
		// a tensor created in the body is yielded: rebind
		assertEquals(Map.of("iter_arg_rebind_0", true), loops.get(1).attrs());
	}
}
