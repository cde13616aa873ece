package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.PassRunner;

/**
 * Kernel classification and the passes around it (InferTileMemorySpace, LowerAutoVectorSplit,
 * ExpandMixedKernel, InjectGMPipeBuffer, SplitVectorKernel) on our mixed program; the function lists,
 * types, parameters and attributes are those of pypto's dumps 18-24 for it.
 */
class ExpandMixedKernelPassTest {

	private static final String OUT = "pl.Out[pl.Tensor[[64, 64], pl.FP32]]";

	private static Program after(String pass) {
		return PassRunner.after(OutlineSources.MIXED, pass);
	}

	@Test
	void aMatmulResultUsedByAVectorOpGetsAMoveToVec() {
		String mix = IrPrinter.print(after("InferTileMemorySpace").function("mix"));
		assertTrue(mix.contains("acc2__tile_Vec: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(acc2__tile, target_memory=pl.Mem.Vec)"),
				mix);
		assertTrue(mix.contains("pl.tile.add(acc2__tile_Vec, bias__tile)"), mix);
	}

	@Test
	void autoSplitMixedKernelIsStampedSplitAiv() {
		Program p = after("LowerAutoVectorSplit");
		assertEquals(Map.of("split", "UpDown", "split_aiv", true), p.function("mix").attrs());
		assertEquals(List.of("split", "split_aiv"), List.copyOf(p.function("mix").attrs().keySet()));
		assertTrue(p.function("grp").attrs().isEmpty());
	}

	@Test
	void pureKernelsKeepTheirNamesMixedOnesSplitIntoAicAivAndGroup() {
		Program p = after("ExpandMixedKernel");
		assertEquals(List.of("cube", "grp_aic", "grp_aiv", "main", "main_cluster_0", "mix", "mix_aic", "mix_aiv", "vec"),
				p.sortedByName().stream().map(Function::name).toList());
		assertEquals(FunctionType.AIC, p.function("cube").type());
		assertEquals(FunctionType.AIV, p.function("vec").type());
		assertEquals(FunctionType.Group, p.function("mix").type());
		assertEquals(FunctionType.AIC, p.function("mix_aic").type());
		assertEquals(FunctionType.AIV, p.function("mix_aiv").type());
		assertTrue(p.function("mix_aic").returnTypes().isEmpty());
		assertEquals(1, p.function("mix_aiv").returnTypes().size());
		assertEquals(p.function("mix").directions(), p.function("mix_aiv").directions());
		String group = IrPrinter.print(p.function("mix"));
		assertTrue(group.contains("self.mix_aic(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out2__ssa_v0)"), group);
		assertTrue(group.contains("self.mix_aiv(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out2__ssa_v0)"), group);
		assertTrue(group.contains("return out2__ssa_v0"), group);
	}

	@Test
	void aMixedKernelOnlyAGroupCallsHasNoGroupOfItsOwnAndTheGroupCallsThePair() {
		Program p = after("ExpandMixedKernel");
		assertNull(p.function("grp"));
		String cluster = IrPrinter.print(p.function("main_cluster_0"));
		assertTrue(cluster.contains("self.grp_aic(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out__ssa_v1)"), cluster);
		assertTrue(cluster.contains("out__ssa_v2: pl.Tensor[[64, 64], pl.FP32] = self.grp_aiv(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out__ssa_v1)"),
				cluster);
	}

	@Test
	void noSplitMixedAivDispatchesBothLanesOn910B() {
		Program p = after("ExpandMixedKernel");
		assertEquals(Map.of("dual_aiv_dispatch", true), p.function("grp_aiv").attrs());
		assertTrue(p.function("grp_aic").attrs().isEmpty());
		assertEquals(Map.of("split", "UpDown", "split_aiv", true), p.function("mix_aiv").attrs());
	}

	@Test
	void pipeKernelsAndTheirNonOrchestrationCallersGetTheGmPipeBuffer() {
		Program p = after("InjectGMPipeBuffer");
		for (String f : List.of("grp_aic", "grp_aiv", "main_cluster_0", "mix", "mix_aic", "mix_aiv")) {
			Function fn = p.function(f);
			assertEquals("__gm_pipe_buffer", fn.params().get(fn.params().size() - 1).name(), f);
			assertEquals(Direction.Out, fn.directions().get(fn.directions().size() - 1), f);
		}
		assertEquals(3, p.function("cube").params().size());
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("gm_pipe_buffer_0: pl.Tensor[[1], pl.FP32] = pl.tensor.create([1], dtype=pl.FP32, layout=pl.TensorLayout.ND, manual_dep=True)"),
				main);
		assertTrue(main.contains("= self.mix(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out2__ssa_v0, gm_pipe_buffer_0)"), main);
		assertTrue(main.contains("= self.main_cluster_0(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out__ssa_v1, gm_pipe_buffer_1)"), main);
		String group = IrPrinter.print(p.function("mix"));
		assertTrue(group.contains("self.mix_aic(a__ssa_v0, b__ssa_v0, bias__ssa_v0, out2__ssa_v0, __gm_pipe_buffer)"), group);
		assertTrue(IrPrinter.print(p.function("mix_aiv")).contains(OUT + ", __gm_pipe_buffer: pl.Out[pl.Tensor[[1], pl.FP32]])"));
	}

	@Test
	void splitAivKernelsGetSplitAndDualDispatchRestamped() {
		Program p = after("SplitVectorKernel");
		assertEquals(List.of("split_aiv", "split", "dual_aiv_dispatch"), List.copyOf(p.function("mix_aiv").attrs().keySet()));
		assertEquals(List.of("split_aiv", "split"), List.copyOf(p.function("mix_aic").attrs().keySet()));
		assertEquals(List.of("split", "split_aiv"), List.copyOf(p.function("mix").attrs().keySet()));
		assertEquals(Map.of("dual_aiv_dispatch", true), p.function("grp_aiv").attrs());
	}
}
