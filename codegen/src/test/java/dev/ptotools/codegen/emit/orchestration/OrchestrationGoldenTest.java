package dev.ptotools.codegen.emit.orchestration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.RuntimeHeader;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.Sources;

/**
 * pypto's three whole-file orchestration goldens (hand-built programs: AIV kernels declared directly,
 * only the codegen-entry passes run) through the new IR path, byte for byte with pypto's header.
 */
class OrchestrationGoldenTest {

	static final CompileOptions PTO = CompileOptions.DEFAULT.withHeader(RuntimeHeader.PTO_ORCHESTRATION_API);

	static OrchestrationResult handBuilt(String source) {
		Program p = IrPrograms.handBuilt(IrPrograms.parseOne(source));
		return OrchestrationCodegen.generate(p, IrPrograms.orchestration(p), PTO);
	}

	@ParameterizedTest
	@ValueSource(strings = { "test_basic_structure", "test_vector_example_dag", "test_inplace_tensor" })
	void goldenIsByteEqual(String name) {
		String source = Sources.resource("goldens/" + name + ".py");
		String expected = Sources.resource("goldens/" + name + ".expected.cpp");
		assertEquals(expected, handBuilt(source).code());
	}

	@Test
	void vectorDagMetadata() {
		OrchestrationResult r = handBuilt(Sources.resource("goldens/test_vector_example_dag.py"));
		assertEquals(Map.of("kernel_add", 0, "kernel_add_scalar", 1, "kernel_mul", 2), r.funcNameToId());
		assertEquals(List.of("IN", "IN", "OUT"), r.funcNameToSignature().get("kernel_add"));
		assertEquals(List.of("IN", "OUT"), r.funcNameToSignature().get("kernel_add_scalar"));
		assertEquals(CoreType.VECTOR, r.funcNameToCoreType().get("kernel_mul"));
		assertEquals(List.of("IN", "IN", "OUT"), r.orchestrationSignature());
	}
}
