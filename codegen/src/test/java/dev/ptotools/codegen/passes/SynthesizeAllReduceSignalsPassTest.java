package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.DistPrograms;

/** The signal bindings pypto's SynthesizeAllReduceSignals inserts for our programs, and its errors. */
class SynthesizeAllReduceSignalsPassTest {

	private static String synthesized(String rest) {
		Program p = DistPrograms.lower(DistPrograms.parse(DistTestPrograms.dispatched(
				"        data_buf = pld.alloc_window_buffer(N * 4)\n", rest), "P"), "SynthesizeAllReduceSignals");
		return DistPrograms.print(p, "host");
	}

	@Test
	void aSignalLessAllReduceGetsAWorldSizedSignalWindowBoundRightBeforeIt() {
		String out = synthesized("""
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        data = pld.tensor.allreduce(data, core_num=2)
				""");
		assertTrue(out.contains("""
				    __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
				    __allreduce_signal_buf_0: pld.WindowBufferType = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(2, pl.INT64) * pl.const(4, pl.INT64), name="__allreduce_signal_buf_0")
				    __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 2], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, pl.const(2, pl.INT64)], dtype=pl.INT32)
				    data: pld.DistributedTensor[[1, 64], pl.FP32] = pld.tensor.allreduce(data, __allreduce_signal_0, core_num=2)
				"""), out);
	}

	@Test
	void idsCountUpAndSkipNamesTheProgramUses() {
		String out = synthesized("""
				        __allreduce_signal_1 = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        pld.tensor.allreduce(data)
				        pld.tensor.allreduce(data)
				""");
		assertTrue(out.contains("__allreduce_signal_buf_0: pld.WindowBufferType"), out);
		assertTrue(out.contains("__allreduce_signal_buf_2: pld.WindowBufferType"), out);
		assertTrue(!out.contains("__allreduce_signal_buf_1"), out);
	}

	@Test
	void anExplicitSignalIsKept() {
		String out = synthesized("""
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        sig = pld.window(data_buf, [4], dtype=pl.INT32)
				        pld.tensor.allreduce(data, sig)
				""");
		assertTrue(!out.contains("__allreduce_signal"), out);
	}

	@Test
	void aSignalLessAllReduceInALoopIsAnError() {
		CodegenException e = assertThrows(CodegenException.class, () -> synthesized("""
				        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				        for i in pl.range(2):
				            pld.tensor.allreduce(data)
				"""));
		assertEquals("pld.tensor.allreduce without an explicit signal is not supported inside a for/while loop on the HOST "
				+ "rail: the synthesized signal binding cannot be allocated per dynamic iteration. Pass an explicit signal "
				+ "buffer — it is self-clearing and reusable across iterations — or hoist the call out of the loop.",
				e.getMessage());
	}
}
