package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.support.PassRunner;

/**
 * Reading one element: pl.tensor.read(tensor, ...), pl.tile.read(tile, ...) and pl.read(src, ...), each by
 * its own parameter names (pypto's tests/st/runtime/framework_and_models/test_incore_array.py reads a tile).
 */
class ElementReadTest {

	@Test
	void eachSpellingReadsItsSourceWhateverItsFirstParameterIsCalled() {
		String src = """
				import pypto.language as pl

				@pl.program
				class R:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[16, 16], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 16], pl.INT32]:
				        t: pl.Tile[[16, 16], pl.INT32] = pl.load(a, [0, 0], [16, 16])
				        x = pl.tile.read(t, [0, 0])
				        y = pl.tile.read(tile=t, indices=[1, 0])
				        z = pl.read(t, [2, 0])
				        w = pl.tensor.read(a, [3, 0])
				        u = pl.tile.adds(t, x + y + z + w)
				        out = pl.store(u, [0, 0], out)
				        return out
				""";
		String ir = IrPrinter.print(PassRunner.parse(src).function("kernel"));
		for (String read : new String[] { "pl.tile.read(t, [0, 0])", "pl.tile.read(t, [1, 0])", "pl.tile.read(t, [2, 0])",
				"pl.tensor.read(a, [3, 0])" }) {
			assertTrue(ir.contains(read), read + " in\n" + ir);
		}
	}
}
