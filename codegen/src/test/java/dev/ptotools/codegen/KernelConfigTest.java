package dev.ptotools.codegen;

import static dev.ptotools.codegen.ChipOrchestrationTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.config.KernelConfigWriter;
import dev.ptotools.codegen.config.KernelConfigWriter.Kernel;
import dev.ptotools.codegen.support.Python;

/**
 * The facts of pypto's tests/ut/backend/test_kernel_config_signature.py: kernel_config.py for a
 * kernel "matmul_aic" (id 0, cube) under orchestration "main"; every text must compile as Python.
 */
class KernelConfigTest {

	private static String config(List<String> orchSig, List<Kernel> kernels, Runtime runtime) {
		String text = KernelConfigWriter.write("main", orchSig, kernels, runtime, 0);
		Python.assertCompiles(text);
		return text;
	}

	private static String config(List<String> orchSig, List<Kernel> kernels) {
		return config(orchSig, kernels, Runtime.TENSORMAP_AND_RINGBUFFER);
	}

	private static List<Kernel> matmul(List<String> sig) {
		return List.of(new Kernel(0, "matmul_aic", "aic", sig));
	}

	@Test
	void signatureEmittedForMatmul() {
		String t = config(List.of(), matmul(List.of("IN", "IN", "INOUT")));
		assertTrue(t.contains("from simpler.task_interface import ArgDirection as _D"), t);
		assertTrue(t.contains("\"aicpu_thread_num\": 0"), t);
		assertTrue(t.contains("\"signature\": [_D.IN, _D.IN, _D.INOUT]"), t);
		assertEquals(3, count(t, "_D."), t);
	}

	@Test
	void noImportWithoutSignatures() {
		String t = config(List.of(), matmul(List.of()));
		assertFalse(t.contains("ArgDirection") || t.contains("\"signature\""), t);
	}

	@Test
	void emptySignatureMapIsANoop() {
		String t = config(List.of(), List.of());
		assertFalse(t.contains("ArgDirection") || t.contains("\"signature\""), t);
	}

	@Test
	void signatureEmittedVerbatimTensorOnly() {
		String t = config(List.of(), matmul(List.of("IN", "IN", "INOUT", "OUT")));
		assertTrue(t.contains("\"signature\": [_D.IN, _D.IN, _D.INOUT, _D.OUT]"), t);
		assertFalse(t.contains("_D.SCALAR"), t);
	}

	@Test
	void partialSignaturesAcrossKernels() {
		String t = config(List.of(), List.of(new Kernel(0, "k_with", "aiv", List.of("IN", "OUT")),
				new Kernel(1, "k_without", "aiv", List.of())));
		assertTrue(t.contains("from simpler.task_interface import ArgDirection as _D"), t);
		assertEquals(1, count(t, "\"signature\""), t);
		assertTrue(t.contains("\"signature\": [_D.IN, _D.OUT]"), t);
	}

	@Test
	void orchestrationSignatureEmittedBeforeKernels() {
		String t = config(List.of("IN", "IN", "OUT"), matmul(List.of()));
		assertTrue(t.contains("from simpler.task_interface import ArgDirection as _D"), t);
		int at = t.indexOf("\"signature\": [_D.IN, _D.IN, _D.OUT]");
		assertTrue(at >= 0 && at < t.indexOf("KERNELS"), t);
	}

	@Test
	void noOrchestrationSignatureIsANoop() {
		String t = config(List.of(), matmul(List.of()));
		assertFalse(t.contains("ArgDirection") || t.contains("\"signature\""), t);
	}

	@Test
	void orchestrationAndKernelSignaturesCoexist() {
		String t = config(List.of("IN", "OUT"), matmul(List.of("IN", "IN", "INOUT")));
		int kernels = t.indexOf("KERNELS");
		assertTrue(t.substring(0, kernels).contains("\"signature\": [_D.IN, _D.OUT]"), t);
		assertTrue(t.substring(kernels).contains("\"signature\": [_D.IN, _D.IN, _D.INOUT]"), t);
	}

	@Test
	void orchestrationSignatureInout() {
		String t = config(List.of("INOUT", "IN", "OUT"), matmul(List.of()));
		assertTrue(t.contains("\"signature\": [_D.INOUT, _D.IN, _D.OUT]"), t);
		assertFalse(t.contains("_D.SCALAR"), t);
	}

	@Test
	void defaultRuntimeIsTensormapAndRingbuffer() {
		String t = config(List.of(), matmul(List.of()));
		assertTrue(t.contains("\"runtime\": \"tensormap_and_ringbuffer\""), t);
		assertTrue(t.contains("# Runtime configuration for tensormap_and_ringbuffer."), t);
	}

	@Test
	void hostBuildGraphRuntimeIsEmitted() {
		String t = config(List.of(), matmul(List.of()), Runtime.HOST_BUILD_GRAPH);
		assertTrue(t.contains("\"runtime\": \"host_build_graph\""), t);
		assertTrue(t.contains("# Runtime configuration for host_build_graph."), t);
		assertFalse(t.contains("tensormap_and_ringbuffer"), t);
	}

	@Test
	void runtimeDoesNotDisturbOtherKeys() {
		String t = config(List.of(), List.of(new Kernel(0, "matmul_aic", "aic", List.of("IN", "OUT"))),
				Runtime.HOST_BUILD_GRAPH);
		assertTrue(t.contains("\"aicpu_thread_num\": 0") && t.contains("\"signature\": [_D.IN, _D.OUT]"), t);
	}

	@Test
	void wireNamesRoundTrip() {
		for (Runtime r : Runtime.values()) {
			assertEquals(r, Runtime.fromName(r.wireName()));
		}
		assertEquals("tensormap_and_ringbuffer", Runtime.TENSORMAP_AND_RINGBUFFER.wireName());
		assertEquals("host_build_graph", Runtime.HOST_BUILD_GRAPH.wireName());
	}

	@Test
	void unknownWireNameIsRejected() {
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Runtime.fromName("ringbuffer"));
		assertEquals("Unknown runtime 'ringbuffer'", e.getMessage());
	}

	@Test
	void exactTextOfOneKernel() {
		String t = KernelConfigWriter.write("orch_basic", List.of("IN", "IN", "OUT"),
				List.of(new Kernel(0, "kernel_add", "aiv", List.of("IN", "IN", "OUT"))), Runtime.TENSORMAP_AND_RINGBUFFER, 0);
		assertEquals("# Kernel and Orchestration Configuration\n\nfrom pathlib import Path\n\n"
				+ "from simpler.task_interface import ArgDirection as _D\n\n_ROOT_DIR = Path(__file__).parent\n\n"
				+ "# Runtime configuration for tensormap_and_ringbuffer.\n"
				+ "# AICPU thread count 0 selects the runtime's architecture default (a2a3: 4; a5: 5).\n"
				+ "RUNTIME_CONFIG = {\n\t\"runtime\": \"tensormap_and_ringbuffer\",\n\t\"aicpu_thread_num\": 0,\n}\n\n"
				+ "ORCHESTRATION = {\n\t\"source\": str(_ROOT_DIR / \"orchestration\" / \"orch_basic.cpp\"),\n"
				+ "\t\"function_name\": \"aicpu_orchestration_entry\",\n\t\"signature\": [_D.IN, _D.IN, _D.OUT],\n}\n\n"
				+ "KERNELS = [\n\t{\"func_id\": 0, \"name\": \"kernel_add\", \"source\": str(_ROOT_DIR / \"kernels\" / \"aiv\" / "
				+ "\"kernel_add.cpp\"), \"core_type\": \"aiv\", \"signature\": [_D.IN, _D.IN, _D.OUT]},\n]\n", t);
	}
}
