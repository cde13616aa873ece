package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.line;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;

/** What pypto's distributed codegen rejects in HOST orchestrators; and what it accepts. */
class HostRulesTest {

	/** A kernel, a CHIP orchestrator and a HOST orchestrator with the given body (from line 16). */
	static String program(String hostBody) {
		return IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, x: pl.Tensor[[64], pl.FP32]):
				        return x

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[64], pl.FP32], d: pld.DistributedTensor[[64], pl.FP32]):
				        return x

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[8, 64], pl.FP32], flag: pl.Scalar[pl.INT32]):
				""" + hostBody + "        return x\n";
	}

	static Stream<Arguments> cases() {
		return Stream.of(
				Arguments.of("PTO301", true, """
						        buf = pld.alloc_window_buffer(256)
						        d = pld.window(buf, [64], dtype=pl.FP32)
						        for r in pl.range(pld.world_size()):
						            self.chip(x[r], d, device=r)
						        self.chip(x[0], d)
						""", 20),
				Arguments.of("PTO302", true, """
						        for r in pl.range(pld.world_size()):
						            t = pl.create_tensor([64], dtype=pl.FP32)
						""", 17),
				Arguments.of("PTO302", true, """
						        if flag > 0:
						            t = pl.create_tensor([64], dtype=pl.FP32)
						""", 17),
				Arguments.of("PTO302", false, """
						        t = pl.create_tensor([64], dtype=pl.FP32)
						""", 0),
				Arguments.of("PTO303", true, """
						        y = pl.reshape(x, [512])
						""", 16),
				Arguments.of("PTO303", false, """
						        y = x[0]
						        z = pl.assemble(x, y, [0, 0])
						""", 0),
				// an inline CHIP orchestrator scope is outlined to a CHIP function before pypto's HOST codegen
				// (tests/st/distributed/test_l3_distributed.py writes its programs this way)
				Arguments.of("PTO303", false, """
						        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
						            with pl.at(level=pl.Level.CORE_GROUP):
						                y = pl.mul(x, x)
						""", 0),
				// ... but the HOST code around such a scope is still checked
				Arguments.of("PTO303", true, """
						        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
						            y = pl.mul(x, x)
						        z = pl.reshape(x, [512])
						""", 18),
				Arguments.of("PTO304", true, """
						        self.kernel(x[0])
						""", 16),
				Arguments.of("PTO304", false, """
						        self.chip(x[0], x[1])
						""", 0));
	}

	@ParameterizedTest(name = "{0} expected={1}")
	@MethodSource("cases")
	void hostCodegenChecks(String rule, boolean expected, String body, int expectedLine) {
		Analysis a = analyze(program(body));
		List<Diagnostic> found = of(a, rule);
		if (!expected) {
			assertTrue(found.isEmpty(), describe(a));
			return;
		}
		assertEquals(1, found.size(), describe(a));
		assertEquals(expectedLine, line(a, found.get(0)), describe(a));
	}
}
