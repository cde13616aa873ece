package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.PassRunner;

/** OutlineClusterScopes and OutlineHierarchyScopes on our programs; facts from pypto's dumps 08 and 10. */
class OutlineClusterScopesPassTest {

	private static final String T = "pl.Tensor[[512, 128], pl.FP32]";

	@Test
	void spmdLoopBecomesASpmdWrapperWithTheKernelsDirectionsAndTheCoreCountOnItsCall() {
		Program p = PassRunner.after(OutlineSources.SPMD, "OutlineClusterScopes");
		assertEquals(FunctionType.Spmd, p.function("main_spmd_0").type());
		assertEquals(null, p.function("main_spmd_0").level());
		assertTrue(p.function("main_spmd_0").attrs().isEmpty());
		assertEquals(List.of(Direction.In, Direction.Out), p.function("main_spmd_0").directions());
		String spmd = IrPrinter.print(p.function("main_spmd_0"));
		assertTrue(spmd.contains("out__ssa_v2: " + T + " = self.main_incore_0(a__ssa_v0, out__ssa_v0)"), spmd);
		assertTrue(spmd.contains("return out__ssa_v0"), spmd);
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("out__ssa_v2: " + T + " = self.main_spmd_0(a__ssa_v0, out__ssa_v0, attrs={\"core_num\": 4})"), main);
	}

	@Test
	void clusterBecomesAGroupCallingTheOutlinedKernel() {
		Program p = PassRunner.after(OutlineSources.MIXED, "OutlineClusterScopes");
		assertEquals(FunctionType.Group, p.function("main_cluster_0").type());
		assertEquals(Level.CORE_GROUP, p.function("main_cluster_0").level());
		assertEquals(List.of(Direction.In, Direction.In, Direction.In, Direction.Out), p.function("main_cluster_0").directions());
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("out__ssa_v2: pl.Tensor[[64, 64], pl.FP32] = self.main_cluster_0(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out__ssa_v1)"),
				main);
	}

	@Test
	void hierarchyScopesBecomeOpaqueFunctionsWithLevelAndRoleNamedAfterTheirParent() {
		Program p = PassRunner.after("""
				import pypto.language as pl

				@pl.program
				class Hier:
				    @pl.function
				    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
				            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
				            with pl.at(level=pl.Level.CHIP):
				                z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)
				        return z
				""", "OutlineHierarchyScopes");
		assertEquals(FunctionType.Opaque, p.function("main_host_orch_0").type());
		assertEquals(Level.HOST, p.function("main_host_orch_0").level());
		assertEquals(Role.Orchestrator, p.function("main_host_orch_0").role());
		assertEquals(Level.CHIP, p.function("main_host_orch_0_chip_0").level());
		assertEquals(null, p.function("main_host_orch_0_chip_0").role());
		assertTrue(IrPrinter.print(p.function("main")).contains("z__ssa_v0: pl.Tensor[[64], pl.FP32] = self.main_host_orch_0(x__ssa_v0)"));
		assertTrue(IrPrinter.print(p.function("main_host_orch_0"))
				.contains("z__ssa_v0: pl.Tensor[[64], pl.FP32] = self.main_host_orch_0_chip_0(y__ssa_v0)"));
	}
}
