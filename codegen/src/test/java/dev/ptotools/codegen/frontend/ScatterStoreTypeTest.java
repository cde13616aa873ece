package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.support.PassRunner;
import dev.ptotools.codegen.support.Sources;

/**
 * pl.mscatter writes a tile into its output tensor and is that tensor (pypto's DeduceTileMscatterType
 * returns the output tensor's type unchanged): a kernel returning it needs no output of its own. Facts
 * from pypto's compile of tests/st/runtime/ops/test_mscatter.py.
 */
class ScatterStoreTypeTest {

	private static final String SRC = """
			import pypto.language as pl

			@pl.program
			class M:
			    @pl.function(type=pl.FunctionType.InCore)
			    def kernel(self, src: pl.Tensor[[16, 64], pl.FP16], idx: pl.Tensor[[16, 64], pl.INT32],
			               output: pl.Out[pl.Tensor[[1024], pl.FP16]]) -> pl.Tensor[[1024], pl.FP16]:
			        s: pl.Tile[[16, 64], pl.FP16] = pl.load(src, offsets=[0, 0], shapes=[16, 64])
			        i: pl.Tile[[16, 64], pl.INT32] = pl.load(idx, offsets=[0, 0], shapes=[16, 64])
			        out: pl.Tensor[[1024], pl.FP16] = pl.mscatter(s, i, output)
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orchestrator(self, src: pl.Tensor[[16, 64], pl.FP16], idx: pl.Tensor[[16, 64], pl.INT32],
			                     output: pl.Out[pl.Tensor[[1024], pl.FP16]]) -> pl.Tensor[[1024], pl.FP16]:
			        output = self.kernel(src, idx, output)
			        return output
			""";

	@Test
	void theResultIsTheOutputTensor() {
		String kernel = IrPrinter.print(PassRunner.parse(SRC).function("kernel"));
		assertTrue(kernel.contains("out: pl.Tensor[[1024], pl.FP16] = pl.tile.mscatter(s, i, output)"), kernel);
		String orch = Sources.cpp(SRC);
		assertFalse(orch.contains("alloc_tensors"), "no output of its own\n" + orch);
		assertTrue(orch.contains("params_t0.add_output(ext_output);"), orch);
	}
}
