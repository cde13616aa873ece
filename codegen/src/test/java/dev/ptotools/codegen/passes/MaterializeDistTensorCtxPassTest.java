package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.DistPrograms;

/** The CommCtx parameters and arguments pypto's MaterializeDistTensorCtx adds for our programs. */
class MaterializeDistTensorCtxPassTest {

	static final String PROGRAM = """
			import pypto.language as pl
			import pypto.language.distributed as pld

			N = 64


			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k(self, a: pl.Tensor[[1, N], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]]) -> pld.DistributedTensor[[1, N], pl.FP32]:
			        t = pl.load(a, [0, 0], [1, N])
			        data = pl.store(t, [0, 0], data)
			        return data

			    @pl.function(type=pl.FunctionType.InCore)
			    def k2(self, data: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(data, [0, 0], [1, N])
			        out = pl.store(t, [0, 0], out)
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, a: pl.Tensor[[1, N], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], sig: pld.DistributedTensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        d2 = self.k(a, data)
			        out = self.k2(d2, sig, out)
			        return out

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[4, 1, N], pl.FP32], y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			        data_buf = pld.alloc_window_buffer(N * 4)
			        sig_buf = pld.alloc_window_buffer(16)
			        for r in pl.range(pld.world_size()):
			            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
			            sig = pld.window(sig_buf, [4], dtype=pl.INT32)
			            x_r = x[r]
			            y_r = y[r]
			            z = self.chip(x_r, data, sig, y_r, device=r)
			        for r in pl.range(pld.world_size()):
			            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
			            x_r = x[r]
			            y_r = y[r]
			            z = self.chip(x_r, data, sig, y_r, device=r)
			        return y
			""";

	@Test
	void functionsWithDistributedParametersGetATrailingCtxParameterEach() {
		Program p = DistPrograms.lower(PROGRAM, "P");
		String chip = DistPrograms.print(p, "chip");
		assertTrue(chip.contains("out: pl.Out[pl.Tensor[[1, 64], pl.FP32]], data_ctx: pld.CommCtxType, sig_ctx: pld.CommCtxType)"), chip);
		assertTrue(chip.contains("d2: pld.DistributedTensor[[1, 64], pl.FP32] = self.k(a, data, data_ctx)"), chip);
		// d2 is what k returns of its data parameter: the caller's data_ctx
		assertTrue(chip.contains("self.k2(d2, sig, out, data_ctx, sig_ctx)"), chip);
		assertTrue(DistPrograms.print(p, "k").contains("data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], data_ctx: pld.CommCtxType)"));
	}

	@Test
	void theHostQueriesEachViewsContextRightBeforeTheDispatchWithUniqueNames() {
		String host = DistPrograms.print(DistPrograms.lower(PROGRAM, "P"), "host");
		assertTrue(host.contains("""
				        data_ctx: pld.CommCtxType = pld.system.get_comm_ctx(data)
				        sig_ctx: pld.CommCtxType = pld.system.get_comm_ctx(sig)
				        z: pl.Tensor[[1, 64], pl.FP32] = self.chip(x_r, data, sig, y_r, data_ctx, sig_ctx, device=r)
				"""), host);
		assertTrue(host.contains("""
				        data_ctx_1: pld.CommCtxType = pld.system.get_comm_ctx(data)
				        sig_ctx_1: pld.CommCtxType = pld.system.get_comm_ctx(sig)
				"""), host);
	}

	@Test
	void outsideTheHostAContextQueryIsTheContextItResolvesTo() {
		String text = PROGRAM.replace("        d2 = self.k(a, data)\n", "        d2 = self.k(a, data)\n        c = pld.system.get_comm_ctx(d2)\n");
		String chip = DistPrograms.print(DistPrograms.lower(text, "P"), "chip");
		assertTrue(chip.contains("    c: pld.CommCtxType = data_ctx\n"), chip);
	}
}
