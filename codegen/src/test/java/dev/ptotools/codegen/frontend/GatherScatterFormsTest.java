package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;

/**
 * The gather and scatter wrappers as pypto's IR builders split them: the keywords choose the op, tensors
 * given by keyword are operands, mask patterns and dims are attributes. Facts from pypto's
 * python/pypto/ir/op/tensor_ops.py and tile_ops.py, and its compile of tests/st/runtime/ops/test_gather.py
 * and test_scatter.py (the index tensor is a kernel parameter).
 */
class GatherScatterFormsTest {

	private static String kernel(String body) {
		return """
				import pypto.language as pl

				@pl.program
				class G:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, inp: pl.Tensor[[8, 16], pl.FP32], idx: pl.Tensor[[8, 16], pl.INT32],
				             val: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
				        with pl.at(level=pl.Level.CORE_GROUP):
				""" + body.indent(12) + """
				        return out
				""";
	}

	private static String parsed(String body) {
		return IrPrinter.print(PassRunner.parse(kernel(body)).function("main"));
	}

	@Test
	void theIndexFormTakesTheIndexByKeywordAsAnOperand() {
		String ir = parsed("g = pl.tensor.gather(inp, dim=-1, index=idx)\nout = pl.assemble(out, g, [0, 0])\n");
		assertTrue(ir.contains("pl.tensor.gather(inp, idx, dim=-1)"), ir);
		String positional = parsed("g = pl.gather(inp, -1, idx)\nout = pl.assemble(out, g, [0, 0])\n");
		assertTrue(positional.contains("pl.tensor.gather(inp, idx, dim=-1)"), positional);
		String scatter = parsed("s = pl.scatter(inp, dim=-1, index=idx, src=val)\nout = pl.assemble(out, s, [0, 0])\n");
		assertTrue(scatter.contains("pl.tensor.scatter(inp, idx, val, dim=-1)"), scatter);
	}

	@Test
	void theMaskFormsTakeThePatternAsAnIntAttribute() {
		String ir = parsed("g = pl.tensor.gather(inp, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.UINT32)\n");
		assertTrue(ir.contains("pl.tensor.gather_mask(inp, mask_pattern=2, output_dtype=pl.UINT32)"), ir);
		String scatter = parsed("s = pl.tensor.scatter(inp, mask_pattern=pl.tile.MaskPattern.P0101, dst=val)\n");
		assertTrue(scatter.contains("pl.tensor.scatter_mask(inp, val, mask_pattern=1)"), scatter);
	}

	@Test
	void theCompareFormResolvesItsModeAndKeepsTheBuildersAttributeOrder() {
		String ir = parsed("d, c = pl.tensor.gather(inp, kvalue=val, cmp_mode=\"gt\", out_cols=8)\n");
		assertTrue(ir.contains("pl.tensor.gather_compare(inp, val, cmp_mode=4, offset=0, out_cols=8)"), ir);
	}

	@Test
	void formsDoNotMix() {
		CodegenException e = assertThrows(CodegenException.class,
				() -> PassRunner.parse(kernel("g = pl.tensor.gather(inp, dim=-1, index=idx, mask_pattern=1)\n")));
		assertTrue(e.getMessage().contains("mutually exclusive"), e.getMessage());
	}
}
