package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.DistPrograms;

/** The builtin dispatches pypto's LowerHostTensorCollectives makes of our host collectives, and its checks. */
class LowerHostTensorCollectivesPassTest {

	private static String lowered(String allocs, String loop, String rest) {
		String text = DistTestPrograms.host(allocs + """
				        for r in LOOP:
				            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				            y_r = y[r]
				            self.chip(data, y_r, device=r)
				""".replace("LOOP", loop) + rest + "        return y\n");
		Program p = DistPrograms.lower(DistPrograms.parse(text, "P"), "LowerHostTensorCollectives");
		return DistPrograms.print(p, "host");
	}

	private static final String ALLOCS = """
			        data_buf = pld.alloc_window_buffer(N * 4)
			        sig_buf = pld.alloc_window_buffer(4096)
			""";

	@Test
	void aDomainOfEveryRankLoopsOverTheWorldSizeAndTheResultAliasesTheData() {
		String out = lowered(ALLOCS, "pl.range(pld.world_size())", """
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [4], dtype=pl.INT32)
				        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
				""");
		assertTrue(out.contains("""
				    for r_1 in pl.range(pl.const(0, pl.INT64), pld.system.world_size(), pl.const(1, pl.INT64)):
				        pl.builtin.tensor.allreduce(data, sig, op=1, dtype=pl.FP32, core_num=1, attrs={"op": 1, "dtype": pl.FP32, "core_num": 1, "device": r_1, "arg_directions": [pl.adir.inout, pl.adir.inout]})
				    data_1: pld.DistributedTensor[[1, 64], pl.FP32] = data
				"""), out);
	}

	@Test
	void aDomainOfConstantDevicesGetsOneDispatchPerDevice() {
		String out = lowered(ALLOCS, "pl.range(2)", """
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [2], dtype=pl.INT32)
				        pld.tensor.broadcast(data, sig, root=1)
				""");
		assertTrue(out.contains("""
				    pl.builtin.tensor.broadcast(data, sig, root=1, dtype=pl.FP32, attrs={"root": 1, "dtype": pl.FP32, "device": pl.const(0, pl.INT64), "arg_directions": [pl.adir.inout, pl.adir.inout]})
				    pl.builtin.tensor.broadcast(data, sig, root=1, dtype=pl.FP32, attrs={"root": 1, "dtype": pl.FP32, "device": pl.const(1, pl.INT64), "arg_directions": [pl.adir.inout, pl.adir.inout]})
				"""), out);
	}

	@Test
	void aRingAllReduceHasNoCoreCount() {
		String out = lowered(ALLOCS, "pl.range(4)", """
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [7, 4], dtype=pl.INT32)
				        pld.tensor.allreduce(data, sig, mode="ring")
				""");
		assertTrue(out.contains("pl.builtin.tensor.allreduce_ring(data, sig, op=0, dtype=pl.FP32, attrs={\"op\": 0, \"dtype\": "
				+ "pl.FP32, \"device\": pl.const(3, pl.INT64), \"arg_directions\": [pl.adir.inout, pl.adir.inout]})"), out);
	}

	private static String error(String loop, String rest) {
		return assertThrows(CodegenException.class, () -> lowered(ALLOCS, loop, rest)).getMessage();
	}

	@Test
	void checksAsPypto() {
		assertEquals("pld.tensor.broadcast root (3) must be a valid rank in [0, 2) for this explicit device subset",
				error("pl.range(2)", """
						        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
						        sig = pld.window(sig_buf, [2], dtype=pl.INT32)
						        pld.tensor.broadcast(data, sig, root=3)
						"""));
		assertEquals("pld.tensor.allreduce core_num (64) exceeds the backend AIV core count (48)", error("pl.range(4)", """
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [4, 64], dtype=pl.INT32)
				        pld.tensor.allreduce(data, sig, core_num=64)
				"""));
		assertEquals("HOST pld.tensor.allreduce mode=\"ring\" does not support core_num > 1, got core_num=2; use "
				+ "mode=\"mesh\" for a multi-core AllReduce", error("pl.range(4)", """
						        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
						        sig = pld.window(sig_buf, [7, 4], dtype=pl.INT32)
						        pld.tensor.allreduce(data, sig, mode="ring", core_num=2)
						"""));
		assertEquals("LowerHostTensorCollectives: collective signal shape[0] (2) must be at least the participating device "
				+ "count (4)", error("pl.range(4)", """
						        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
						        sig = pld.window(sig_buf, [2], dtype=pl.INT32)
						        pld.tensor.allreduce(data, sig)
						"""));
		assertEquals("pld.tensor.allreduce src and signal must be different window allocations (two pld.window views over "
				+ "the same alloc_window_buffer are a cross-process data race under in-kernel TPUT/notify)",
				assertThrows(CodegenException.class, () -> lowered("        data_buf = pld.alloc_window_buffer(N * 4)\n",
						"pl.range(4)", """
								        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
								        d2 = pld.window(data_buf, [4], dtype=pl.INT32)
								        pld.tensor.allreduce(data, d2)
								""")).getMessage());
	}
}
