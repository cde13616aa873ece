package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ptotools.codegen.support.Sources;

/**
 * pypto's three full orchestration goldens (tests/ut/codegen/test_orchestration_codegen.py), compared
 * as pypto compares them: the generated code and the golden after strip, with the plain header.
 */
class GoldenTest {

	@ParameterizedTest
	@ValueSource(strings = { "test_basic_structure", "test_vector_example_dag", "test_inplace_tensor" })
	void goldenIsByteEqualAfterStrip(String name) {
		String source = Sources.resource("goldens/" + name + ".py");
		String expected = Sources.resource("goldens/" + name + ".expected.cpp");
		String file = Sources.file(Sources.ok(source), ".cpp");
		assertTrue(file.startsWith("// Orchestration Function: "), file);
		assertEquals(expected.strip(), Sources.code(file).strip());
	}

	@ParameterizedTest
	@ValueSource(strings = { "test_basic_structure", "test_vector_example_dag", "test_inplace_tensor" })
	void goldenIsByteEqualIncludingTheTrailingNewline(String name) {
		String source = Sources.resource("goldens/" + name + ".py");
		String expected = Sources.resource("goldens/" + name + ".expected.cpp");
		assertEquals(expected, Sources.code(Sources.file(Sources.ok(source), ".cpp")));
	}
}
