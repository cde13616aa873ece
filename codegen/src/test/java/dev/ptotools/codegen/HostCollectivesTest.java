package dev.ptotools.codegen;

import static dev.ptotools.codegen.ChipOrchestrationTest.count;
import static dev.ptotools.codegen.HostOrchTest.CHIP;
import static dev.ptotools.codegen.HostOrchTest.HOST;
import static dev.ptotools.codegen.HostOrchTest.contains;
import static dev.ptotools.codegen.HostOrchTest.error;
import static dev.ptotools.codegen.HostOrchTest.host;
import static dev.ptotools.codegen.HostOrchTest.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ptotools.codegen.support.Sources;

/**
 * The facts of pypto's tests/ut/codegen/distributed/test_host_orch_distributed.py about HOST collectives in
 * host_orch.py: LowerHostTensorCollectives' builtin dispatches (their next-level callable keys, scalars and
 * signals) through the default pipeline, and the programs pypto's default pipeline rejects.
 */
class HostCollectivesTest {

	static String allreduce(String call) {
		String source = allreduceSource(call);
		if (!call.contains("signal")) {
			source = source.replace("        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())\n", "")
					.replace("        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)\n", "");
		}
		return host(source);
	}

	static String allreduceSource(String call) {
		return (CHIP + """
				    def chip_orch(self, data: pld.DistributedTensor[[SIZE], FP]):
				        return data

				""".replace("FP", call.contains("FP16") ? "pl.FP16" : "pl.FP32") + HOST + """
				    def host_orch(self):
				        data_buf = pld.alloc_window_buffer(SIZE * DT.get_byte())
				        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
				        data = pld.window(data_buf, [SIZE], dtype=DT)
				        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				CALL
				        self.chip_orch(data, device=0)
				        return 0
				""".replace("DT", call.contains("FP16") ? "pl.FP16" : "pl.FP32").replace("CALL", call.replace("FP16", "")));
	}

	@Test
	void allreduceUsesTheNextLevelCallableKey() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Sum)");
		contains(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]", "orch.submit_next_level",
				"_ta_1_config = CallConfig()", "_ta_1_config.aicpu_thread_num = config.aicpu_thread_num",
				"orch.submit_next_level(callables[\"builtin.tensor.allreduce__sum__fp32\"], _ta_1, _ta_1_config",
				".add_scalar(__comm_d0[", "].domain_size)");
		for (String absent : List.of(".add_scalar((64))", "distributed_collectives", "pld_collectives", "data = data")) {
			assertFalse(code.contains(absent), absent + "\n" + code);
		}
	}

	@ParameterizedTest
	@CsvSource({ "Sum,sum", "Max,max", "Min,min", "Prod,prod" })
	void allreduceSupportsEveryOp(String op, String suffix) {
		contains(allreduce("        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp." + op + ")"),
				"callables[\"builtin.tensor.allreduce__" + suffix + "__fp32\"]");
	}

	/**
	 * The allreduce program with a rank-2 [world_size, lanes] signal: a mesh allreduce launched on core_num
	 * blocks needs a signal lane per block (pypto's CheckStaticSignalCapacity), so core_num > 1 takes one.
	 */
	static String allreduceLanes(String call, int lanes) {
		return host(allreduceSource(call)
				.replace("signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())",
						"signal_buf = pld.alloc_window_buffer(pld.world_size() * " + lanes + " * pl.INT32.get_byte())")
				.replace("signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)",
						"signal = pld.window(signal_buf, [pld.world_size(), " + lanes + "], dtype=pl.INT32)"));
	}

	@Test
	void multicoreAllreducePropagatesTheLaunchCount() {
		String code = allreduceLanes("        data = pld.tensor.allreduce(data, signal, core_num=4)", 4);
		contains(code, ".add_scalar(4)",
				"buffers[\"signal_buf__ssa_v0\"].tensor(shapes=(world_size, 4), dtype=DataType.INT32), TensorArgType.INOUT)");
		assertFalse(code.contains(".block_dim"), code);
	}

	@Test
	void multicoreAllreduceNeedsASignalLanePerBlock() {
		String message = error(allreduceSource("        data = pld.tensor.allreduce(data, signal, core_num=4)"));
		assertTrue(message.endsWith("LowerHostTensorCollectives: rank-1 signal is valid only when one signal lane is required"),
				message);
	}

	@Test
	void allreduceReusesTheVariantAcrossCoreCounts() {
		String code = allreduceLanes("        data = pld.tensor.allreduce(data, signal, core_num=2)\n"
				+ "        data = pld.tensor.allreduce(data, signal, core_num=4)", 4);
		assertEquals(2, count(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]"), code);
		contains(code, ".add_scalar(2)", ".add_scalar(4)");
	}

	@Test
	void allreduceHasAnFp16Variant() {
		contains(allreduce("        data = pld.tensor.allreduce(data, signal)FP16"),
				"callables[\"builtin.tensor.allreduce__sum__fp16\"]");
	}

	/**
	 * pypto's ir.compile fails on every HOST allreduce without a signal: SynthesizeAllReduceSignals sizes the
	 * signal slot (world_size * core_num) * 4, the Simplify after MaterializeDistTensorCtx folds that to a new
	 * expression, and pypto's IRMutator then rebuilds the slot as a fresh WindowBuffer while the signal view
	 * keeps the old one, so DistributedCodegen finds no comm domain for it (an internal check). The compile
	 * stops there, with pypto's message, and writes nothing.
	 */
	@Test
	void implicitAllreduceSignalFailsAsPyptoDoes() {
		Generation g = Sources.generate(source(allreduceSource("        data = pld.tensor.allreduce(data)")
				.replace("        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())\n", "")
				.replace("        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)\n", "")), Sources.PLAIN);
		assertTrue(g.hasErrors() && g.files().isEmpty(), g.files().toString());
		assertTrue(g.problems().get(0).message().contains("WindowBuffer '__allreduce_signal_buf_0' is not a slot of any open "
				+ "CommDomainScopeStmt"), g.problems().toString());
	}

	@Test
	void allreduceVariantIsUsedOnceAsOneCallable() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal)\n        data = pld.tensor.allreduce(data, signal)");
		assertEquals(2, count(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]"), code);
	}

	/** A ring allreduce over the static domain {0, 1}: its signal is [2*(NR-1) + 1, NR] = [3, 2]. */
	@Test
	void ringAllreduceUsesTheRingCallableKey() {
		String code = host(allreduceSource("        data = pld.tensor.allreduce(data, signal, mode=\"ring\")")
				.replace("pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())", "pld.alloc_window_buffer(3 * 2 * 4)")
				.replace("[pld.world_size()], dtype=pl.INT32)", "[3, 2], dtype=pl.INT32)")
				.replace("        for r in pl.range(pld.world_size()):\n            self.chip_orch(data, device=r)\n",
						"        self.chip_orch(data, device=0)\n        self.chip_orch(data, device=1)\n"));
		contains(code, "workers=[0, 1],",
				"orch.submit_next_level(callables[\"builtin.tensor.allreduce_ring__sum__fp32\"], _ta_2, _ta_2_config, worker=0)",
				"orch.submit_next_level(callables[\"builtin.tensor.allreduce_ring__sum__fp32\"], _ta_3, _ta_3_config, worker=1)",
				"_ta_2.add_tensor(__comm_d0[0].buffers[\"signal_buf__ssa_v0\"].tensor(shapes=(3, 2), dtype=DataType.INT32), "
						+ "TensorArgType.INOUT)");
		assertFalse(code.contains("distributed_collectives") || code.contains("_ta_2.add_scalar(1)"), code);
	}

	/** The ring builtin's type deducer wants a rank-2 signal, on a dynamic domain too. */
	@Test
	void ringAllreduceNeedsARankTwoSignal() {
		String message = error(allreduceSource("        data = pld.tensor.allreduce(data, signal, mode=\"ring\")"));
		assertTrue(message.endsWith("builtin.tensor.allreduce_ring signal must be rank-2 [2*(NR-1) + 1, NR], got rank 1"),
				message);
	}

	@Test
	void allToAllVVariantIsSharedAcrossReceiveCounts() {
		String code = host(CHIP + """
				    def chip_orch(self, inp: pld.DistributedTensor[[8, SIZE], pl.FP32], data: pld.DistributedTensor[[8, SIZE], pl.FP32],
				                  sig: pld.DistributedTensor[[4, 1], pl.INT32], counts: pld.DistributedTensor[[4, 1], pl.INT32],
				                  recv: pld.DistributedTensor[[4, 1], pl.INT32]):
				        return data

				""" + CHIP + """
				    def chip_orch2(self, inp: pld.DistributedTensor[[8, SIZE], pl.FP32], data: pld.DistributedTensor[[8, SIZE], pl.FP32],
				                   sig: pld.DistributedTensor[[2, 1], pl.INT32], counts: pld.DistributedTensor[[2, 1], pl.INT32],
				                   recv: pld.DistributedTensor[[2, 1], pl.INT32]):
				        return data

				""" + HOST + """
				    def host_orch(self):
				        inp_buf = pld.alloc_window_buffer(8 * SIZE * 4)
				        data_buf = pld.alloc_window_buffer(8 * SIZE * 4)
				        sig_buf = pld.alloc_window_buffer(4 * 4)
				        counts_buf = pld.alloc_window_buffer(4 * 4)
				        recv_buf = pld.alloc_window_buffer(4 * 4)
				        sig2_buf = pld.alloc_window_buffer(2 * 4)
				        counts2_buf = pld.alloc_window_buffer(2 * 4)
				        recv2_buf = pld.alloc_window_buffer(2 * 4)
				        inp = pld.window(inp_buf, [8, SIZE], dtype=pl.FP32)
				        data = pld.window(data_buf, [8, SIZE], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [4, 1], dtype=pl.INT32)
				        counts = pld.window(counts_buf, [4, 1], dtype=pl.INT32)
				        recv = pld.window(recv_buf, [4, 1], dtype=pl.INT32)
				        sig2 = pld.window(sig2_buf, [2, 1], dtype=pl.INT32)
				        counts2 = pld.window(counts2_buf, [2, 1], dtype=pl.INT32)
				        recv2 = pld.window(recv2_buf, [2, 1], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(inp, data, sig, counts, recv, device=r)
				            self.chip_orch2(inp, data, sig2, counts2, recv2, device=r)
				        data = pld.tensor.all_to_all_v(inp, data, sig, counts, recv)
				        data = pld.tensor.all_to_all_v(inp, data, sig2, counts2, recv2)
				        return 0
				""");
		assertEquals(2, count(code, "callables[\"builtin.tensor.all_to_all_v__fp32\"]"), code);
		assertFalse(code.contains("max_recv"), code);
	}
}
