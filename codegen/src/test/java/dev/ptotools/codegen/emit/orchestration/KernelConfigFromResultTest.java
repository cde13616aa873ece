package dev.ptotools.codegen.emit.orchestration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.config.KernelConfigWriter;
import dev.ptotools.codegen.ir.Program;

/** kernel_config.py written from the new emitter's result, as pypto writes it for the same program. */
class KernelConfigFromResultTest {

	@Test
	void kernelsInIdOrderWithSignaturesSdmaAndAnExternalKernel() {
		Program p = OrchestrationCodegenTest.program("""
				    @pl.function(type=pl.FunctionType.AIC)
				    def mm_aic(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.AIV)
				    def mm_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Group)
				    def mm(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        self.mm_aic(a, b, out)
				        self.mm_aiv(a, b, out)
				        return out

				    @pl.function(type=pl.FunctionType.AIV)
				    def vec(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        t = self.mm(a, b, t)
				        out = self.vec(t, out)
				        return out
				""");
		OrchestrationResult r = OrchestrationCodegenTest.generate(p, OrchestrationGoldenTest.PTO);
		String text = KernelConfigWriter.write("orch", r, Runtime.TENSORMAP_AND_RINGBUFFER, 0, new KernelConfigWriter.Extras(
				true, Map.of("vec", "/abs/ext/vec.cpp"), Map.of("vec", List.of("/inc/a", "/inc/b"))));
		assertEquals("""
				# Kernel and Orchestration Configuration

				from pathlib import Path

				from simpler.task_interface import ArgDirection as _D

				_ROOT_DIR = Path(__file__).parent

				# Runtime configuration for tensormap_and_ringbuffer.
				# AICPU thread count 0 selects the runtime's architecture default (a2a3: 4; a5: 5).
				RUNTIME_CONFIG = {
				\t"runtime": "tensormap_and_ringbuffer",
				\t"aicpu_thread_num": 0,
				\t"enable_sdma": True,
				}

				ORCHESTRATION = {
				\t"source": str(_ROOT_DIR / "orchestration" / "orch.cpp"),
				\t"function_name": "aicpu_orchestration_entry",
				\t"signature": [_D.IN, _D.IN, _D.OUT],
				}

				KERNELS = [
				\t{"func_id": 0, "name": "mm_aic", "source": str(_ROOT_DIR / "kernels" / "aic" / "mm_aic.cpp"), "core_type": "aic", "signature": [_D.IN, _D.IN, _D.OUT]},
				\t{"func_id": 1, "name": "mm_aiv", "source": str(_ROOT_DIR / "kernels" / "aiv" / "mm_aiv.cpp"), "core_type": "aiv", "signature": [_D.IN, _D.IN, _D.OUT]},
				\t{"func_id": 2, "name": "vec", "source": '/abs/ext/vec.cpp', "core_type": "aiv", "external": True, "extra_include_dirs": ['/inc/a', '/inc/b'], "signature": [_D.IN, _D.OUT]},
				]
				""", text);
	}
}
