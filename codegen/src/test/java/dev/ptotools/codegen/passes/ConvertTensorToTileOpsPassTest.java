package dev.ptotools.codegen.passes;

import static dev.ptotools.codegen.passes.OutlineSources.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;

/**
 * ConvertTensorToTileOps, OptimizeOrchTensors and NormalizeReturnOrder on our programs; facts from pypto's
 * dumps 11, 12 and 26.
 */
class ConvertTensorToTileOpsPassTest {

	@Test
	void aReturnedTileGetsAnOutParamAndEveryCallACreate() {
		Program p = PassRunner.after(OutlineSources.TENSOR, "ConvertTensorToTileOps");
		String k0 = IrPrinter.print(p.function("main_incore_0"));
		assertTrue(k0.contains(", o1__ssa_v0: pl.Out[" + T + "], ret0__out: pl.Out[" + T + "])"), k0);
		assertTrue(k0.contains("ret0__store: " + T + " = pl.tile.store(t__tile, [0, 0], ret0__out)"), k0);
		assertTrue(k0.contains("return ret0__store, o2__ssa_v0, o1__ssa_v0"), k0);
		assertTrue(k0.contains("o2__tile: " + T + " = pl.tile.store(u__tile, [0, 0], o2__ssa_v0)"), k0);
		String main = IrPrinter.print(p.function("main"));
		String create = "pl.tensor.create([64, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)";
		assertEquals(2, main.split(java.util.regex.Pattern.quote(create), -1).length - 1, main);
		assertTrue(main.contains("= self.main_incore_0(a__ssa_v0, b__ssa_v0, o2__ssa_v0, o1__ssa_v0, ret0__out)"), main);
		assertTrue(main.contains("s__ssa_v0: " + T + " = self.main_incore_1(t__ssa_v0, a__ssa_v0, ret0__out_1)"), main);
		assertEquals(List.of(Direction.Out, Direction.In), p.function("main_incore_2").directions());
	}

	@Test
	void anOrchestrationParamPassedToAnOutSlotBecomesOut() {
		Program p = PassRunner.after(OutlineSources.TENSOR, "ConvertTensorToTileOps");
		assertEquals(List.of(Direction.In, Direction.In, Direction.Out, Direction.Out), p.function("main").directions());
	}

	@Test
	void returnsFollowOutParamOrderAndProjectionsFollowTheReorder() {
		Program p = PassRunner.after(OutlineSources.TENSOR, "NormalizeReturnOrder");
		assertTrue(IrPrinter.print(p.function("main_incore_0")).contains("return o2__ssa_v0, o1__ssa_v0, ret0__out"));
		assertTrue(IrPrinter.print(p.function("main_incore_1")).contains("return ret0__out"));
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("t__ssa_v0: " + T + " = ret__tmp_v0[2]"), main);
		assertTrue(main.contains("o2__ssa_v1: " + T + " = ret__tmp_v0[0]"), main);
		assertTrue(main.contains("o1__ssa_v1: " + T + " = ret__tmp_v0[1]"), main);
	}

	@Test
	void aLoopCarriedBufferMergesTheOutParamIntoTheCarriedInParam() {
		String src = """
				import pypto.language as pl

				@pl.program
				class Loop:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
				        acc = pl.create_tensor([64, 64], dtype=pl.FP32)
				        with pl.at(level=pl.Level.CORE_GROUP):
				            acc = pl.mul(a, 0.0)
				        for i in pl.range(4):
				            with pl.at(level=pl.Level.CORE_GROUP):
				                acc = pl.add(acc, a)
				        with pl.at(level=pl.Level.CORE_GROUP, name_hint="fin"):
				            out = pl.assemble(out, acc, [0, 0])
				        return out
				""";
		Program p = PassRunner.after(src, "OptimizeOrchTensors");
		assertEquals(List.of(Direction.InOut, Direction.In), p.function("main_incore_1").directions());
		assertEquals(List.of(Direction.In, Direction.Out), p.function("main_incore_0").directions());
		String main = IrPrinter.print(p.function("main"));
		assertTrue(main.contains("acc__ssa_v4: " + T + " = self.main_incore_1(acc__iter_v2, a__ssa_v0)"), main);
		assertTrue(main.contains("acc__ssa_v1: " + T + " = self.main_incore_0(a__ssa_v0, ret0__out)"), main);
		assertEquals(1, main.split("tensor.create\\(\\[64, 64\\], dtype=pl.FP32, layout=pl.TensorLayout.ND\\)", -1).length - 2,
				main);
		assertTrue(IrPrinter.print(p.function("main_incore_1")).contains("pl.tile.store(acc__tile_1, [0, 0], acc__iter_v2)"));
		Program n = PassRunner.after(src, "NormalizeReturnOrder");
		assertTrue(IrPrinter.print(n.function("main_incore_1")).contains("return acc__iter_v2"));
	}

	@Test
	void aKernelCannotReturnALocalTile() {
		String src = """
				import pypto.language as pl

				@pl.program
				class Void:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[64, 64], pl.FP32], o: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
				        with pl.at(level=pl.Level.CORE_GROUP):
				            t = pl.load(x, [0, 0], [64, 64])
				            pl.store(t, [0, 0], o)
				""";
		CodegenException e = assertThrows(CodegenException.class, () -> PassRunner.after(src, "ConvertTensorToTileOps"));
		assertTrue(e.getMessage().contains("should be TensorType"), e.getMessage());
	}
}
