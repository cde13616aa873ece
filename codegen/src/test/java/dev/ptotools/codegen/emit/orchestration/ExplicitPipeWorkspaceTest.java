package dev.ptotools.codegen.emit.orchestration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.Sources;

/**
 * A group of hand-written AIC/AIV kernels that set up their cross-core pipes themselves
 * (pl.aic_initialize_pipe / pl.aiv_initialize_pipe with keyword dir_mask and slot_size): the injected GM
 * pipe workspace is sized from those pipes (slots x rings x slot size, in floats).
 */
class ExplicitPipeWorkspaceTest {

	private static final String PROGRAM = Sources.program("""
			D = 16
			SLOT = D * D * 4

			@pl.program
			class TwoPipes:
			    @pl.function(type=pl.FunctionType.AIV, attrs={"dual_aiv_dispatch": True})
			    def vec(self, a: pl.Tensor[[D, D], pl.FP32], out: pl.Out[pl.Tensor[[D, D], pl.FP32]]):
			        p0 = pl.import_peer_buffer(name="slot_0", peer_func="cube")
			        p1 = pl.import_peer_buffer(name="slot_1", peer_func="cube")
			        pl.aiv_initialize_pipe(pl.const(0, pl.INT32), p0, dir_mask=2, slot_size=SLOT, id=0)
			        pl.aiv_initialize_pipe(pl.const(0, pl.INT32), p1, dir_mask=2, slot_size=SLOT, id=1)
			        t: pl.Tile[[D, D], pl.FP32, pl.Mem.Vec] = pl.load(a, [0, 0], [D, D])
			        pl.tpush_to_aic(t, split=0, id=0)
			        pl.tpush_to_aic(t, split=0, id=1)

			    @pl.function(type=pl.FunctionType.AIC)
			    def cube(self, a: pl.Tensor[[D, D], pl.FP32], out: pl.Out[pl.Tensor[[D, D], pl.FP32]]) -> pl.Tensor[[D, D], pl.FP32]:
			        b0 = pl.reserve_buffer(name="slot_0", size=SLOT * 8, base=pl.AUTO)
			        b1 = pl.reserve_buffer(name="slot_1", size=SLOT * 8, base=pl.AUTO)
			        pl.aic_initialize_pipe(pl.const(0, pl.INT32), b0, dir_mask=2, slot_size=SLOT, id=0)
			        pl.aic_initialize_pipe(pl.const(0, pl.INT32), b1, dir_mask=2, slot_size=SLOT, id=1)
			        x: pl.Tile[[D, D], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0, id=0)
			        y: pl.Tile[[D, D], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0, id=1)
			        r: pl.Tile[[D, D], pl.FP32] = pl.matmul(pl.move(x, target_memory=pl.Mem.Left), pl.move(y, target_memory=pl.Mem.Right))
			        pl.tfree_to_aiv(x, id=0)
			        pl.tfree_to_aiv(y, id=1)
			        return pl.store(r, [0, 0], out)

			    @pl.function(type=pl.FunctionType.Group)
			    def group(self, a: pl.Tensor[[D, D], pl.FP32], out: pl.Out[pl.Tensor[[D, D], pl.FP32]]) -> pl.Tensor[[D, D], pl.FP32]:
			        r = self.cube(a, out)
			        self.vec(a, out)
			        return r

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[D, D], pl.FP32], out: pl.Out[pl.Tensor[[D, D], pl.FP32]]) -> pl.Tensor[[D, D], pl.FP32]:
			        r = self.group(a, out)
			        return r
			""");

	@Test
	void theWorkspaceHoldsEveryPipeTheKernelsInitialize() {
		String cpp = Sources.cpp(PROGRAM);
		// two V2C pipes: 8 slots x 1 ring x 1024 bytes each = 16384 bytes = 4096 floats
		assertTrue(cpp.contains("uint32_t gm_pipe_buffer_0_ci_shapes[1] = {4096};"), cpp);
		assertTrue(cpp.contains("params_t0.add_output(gm_pipe_buffer_0);"), cpp);
	}
}
