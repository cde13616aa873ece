package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.Sources;

/**
 * A HOST collective that lands every rank's chunk in a window is that window: the result of
 * pld.tensor.allgather (and all_to_all, all_to_all_v) has the target's type, as pypto's type deducers
 * return it ("window-as-result"). A later dispatch of the result passes the whole [world_size, SIZE]
 * window, not the one-row staging window (pypto's compile of
 * tests/st/distributed/test_l3_host_tensor_allgather.py).
 */
class WindowResultTest {

	private static final String SRC = """
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64
NR = pl.dynamic("world_size")


@pl.program
class Gather:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, x: pl.Tensor[[1, SIZE], pl.FP32],
             stage: pld.DistributedTensor[[1, SIZE], pl.FP32]) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        t = pl.load(x, [0, 0], [1, SIZE])
        stage = pl.store(t, [0, 0], stage)
        return stage

    @pl.function(type=pl.FunctionType.Orchestration)
    def fill_orch(self, x: pl.Tensor[[1, SIZE], pl.FP32],
                  stage: pld.DistributedTensor[[1, SIZE], pl.FP32]) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        return self.fill(x, stage)

    @pl.function(type=pl.FunctionType.InCore)
    def first_row(self, data: pld.DistributedTensor[[NR, SIZE], pl.FP32],
                  out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(data, [0, 0], [1, SIZE])
        out = pl.store(row, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def first_row_orch(self, data: pld.DistributedTensor[[NR, SIZE], pl.FP32],
                       out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]) -> pl.Tensor[[1, SIZE], pl.FP32]:
        return self.first_row(data, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, inputs: pl.Tensor[[NR, 1, SIZE], pl.FP32],
             outputs: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]]) -> pl.Tensor[[NR, 1, SIZE], pl.FP32]:
        stage_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        data_buf = pld.alloc_window_buffer(pld.world_size() * SIZE * pl.FP32.get_byte())
        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            stage = pld.window(stage_buf, [1, SIZE], dtype=pl.FP32)
            self.fill_orch(inputs[r], stage, device=r)
        stage = pld.window(stage_buf, [1, SIZE], dtype=pl.FP32)
        data = pld.window(data_buf, [pld.world_size(), SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
        data = pld.tensor.allgather(stage, data, signal)
        for r in pl.range(pld.world_size()):
            self.first_row_orch(data, outputs[r], device=r)
        return outputs
""";

	@Test
	void anAllgathersResultIsItsTargetWindow() {
		String host = Sources.file(Sources.ok(SRC), "Gather/orchestration/host_orch.py");
		String consume = host.substring(host.indexOf("_ta_2 = TaskArgs()"));
		assertTrue(consume.contains("buffers[\"data_buf__ssa_v0\"].tensor(shapes=(world_size, 64), dtype=DataType.FLOAT32),"
				+ " TensorArgType.INPUT)"), consume);
	}
}
