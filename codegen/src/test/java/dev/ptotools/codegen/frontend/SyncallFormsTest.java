package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.PassRunner;
import dev.ptotools.codegen.support.Sources;

/**
 * pl.system.syncall as pypto's wrapper builds it: the soft form's workspace is an operand, which the
 * barrier reads and writes, so the orchestration passes it as inout (pypto's compile of
 * tests/st/runtime/cross_core/test_syncall.py); pypto's printer writes it back in the keyword form.
 */
class SyncallFormsTest {

	private static String program(String syncall) {
		return """
				import pypto.language as pl

				@pl.program
				class S:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, a: pl.Tensor[[512, 128], pl.FP32], ws: pl.Tensor[[64], pl.INT32],
				          out: pl.Out[pl.Tensor[[512, 128], pl.FP32]]) -> pl.Tensor[[512, 128], pl.FP32]:
				        offset = pl.tile.get_block_idx() * 128
				        t = pl.load(a, [offset, 0], [128, 128])
				        SYNCALL
				        out = pl.store(t, [offset, 0], out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orchestrator(self, a: pl.Tensor[[512, 128], pl.FP32], ws: pl.Tensor[[64], pl.INT32],
				                     out: pl.Out[pl.Tensor[[512, 128], pl.FP32]]) -> pl.Tensor[[512, 128], pl.FP32]:
				        with pl.spmd(4):
				            out = self.k(a, ws, out)
				        return out
				""".replace("SYNCALL", syncall);
	}

	@Test
	void theSoftFormsWorkspaceIsReadAndWritten() {
		String src = program("pl.system.syncall(mode=\"soft\", core_type=\"aiv_only\", gm_workspace=ws, used_cores=4)");
		assertTrue(Sources.cpp(src).contains("params_t0.add_inout(ext_ws);"), Sources.cpp(src));
		String k = IrPrinter.print(PassRunner.parse(src).function("k"));
		assertTrue(k.contains("pl.system.syncall(mode=\"soft\", core_type=\"aiv_only\", gm_workspace=ws, used_cores=4)"), k);
		String zero = IrPrinter.print(PassRunner.parse(program(
				"pl.system.syncall(mode=\"soft\", core_type=\"mix\", gm_workspace=ws, used_cores=0)")).function("k"));
		assertTrue(zero.contains("gm_workspace=ws, used_cores=0)"), zero);
	}

	@Test
	void theHardFormHasNoOperands() {
		String k = IrPrinter.print(PassRunner.parse(program("pl.system.syncall(core_type=\"aiv_only\")")).function("k"));
		assertTrue(k.contains("pl.system.syncall(core_type=\"aiv_only\")"), k);
		CodegenException e = assertThrows(CodegenException.class,
				() -> PassRunner.parse(program("pl.system.syncall(gm_workspace=ws, used_cores=4)")));
		assertTrue(e.getMessage().contains("takes no gm_workspace/used_cores"), e.getMessage());
		CodegenException missing = assertThrows(CodegenException.class,
				() -> PassRunner.parse(program("pl.system.syncall(mode=\"soft\", gm_workspace=ws)")));
		assertTrue(missing.getMessage().contains("requires explicit used_cores"), missing.getMessage());
	}
}
