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

/** Calls of program functions and of pl./pld. members, and function declarations. */
class CallRulesTest {

	static String program(String chipDecorator, String hostBody) {
		return IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.AIV)
				    def kernel(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
				        return out

				    @pl.function(%s)
				    def chip(self, x: pl.Tensor[[64], pl.FP32]):
				        y = self.kernel(x, x)
				        return y

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
				""".formatted(chipDecorator) + hostBody + "        return x\n";
	}

	static final String ORCH = "type=pl.FunctionType.Orchestration";

	static Stream<Arguments> cases() {
		return Stream.of(
				Arguments.of("PTO401", ORCH, "        self.chp(x[0], device=0)\n", 17, "did you mean 'chip'"),
				Arguments.of("PTO402", ORCH, "        self.chip(x[0], x[1], device=0)\n", 17, "expects 1 argument(s), got 2"),
				Arguments.of("PTO403", ORCH, "        self.chip(x[0], mode=1, device=0)\n", 17, "keyword argument 'mode'"),
				Arguments.of("PTO404", ORCH, "        for r in pl.rnage(pld.world_size()):\n            self.chip(x[r], device=r)\n",
						17, "did you mean 'pl.range'"),
				Arguments.of("PTO404", ORCH, "        n = pld.word_size()\n", 17, "distributed operation 'pld.word_size'"),
				Arguments.of("PTO405", "type=pl.FunctionType.Orchestration, level=pl.Level.HOST", "        pass\n", 10,
						"implies level=CHIP, but explicit level=HOST"),
				Arguments.of("PTO405", "type=pl.FunctionType.Orchestrate", "        pass\n", 10,
						"Unsupported `@pl.function`(type=...) value"),
				Arguments.of("PTO405", "type=pl.FunctionType.Orchestration, level=pl.Level.MOON", "        pass\n", 10,
						"Unknown Level value: MOON"),
				Arguments.of("PTO405", "type=pl.FunctionType.Orchestration, role=\"Orchestrator\"", "        pass\n", 10,
						"Expected pl.Role.<name>"));
	}

	@ParameterizedTest(name = "{0} {4}")
	@MethodSource("cases")
	void callChecks(String rule, String chipDecorator, String body, int expectedLine, String messagePart) {
		Analysis a = analyze(program(chipDecorator, body));
		List<Diagnostic> found = of(a, rule);
		assertEquals(1, found.size(), describe(a));
		assertEquals(expectedLine, line(a, found.get(0)), describe(a));
		assertTrue(found.get(0).message().contains(messagePart), found.get(0).message());
	}

	@ParameterizedTest(name = "clean: {0}")
	@MethodSource("cleanBodies")
	void correctCallsAreQuiet(String body) {
		Analysis a = analyze(program(ORCH, body));
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.rule().startsWith("PTO4")), describe(a));
	}

	static Stream<String> cleanBodies() {
		return Stream.of("        self.chip(x[0], device=0)\n", "        self.chip(x[0], attrs={\"k\": 1})\n",
				"        n = pld.system.world_size()\n", "        w = pld.world_size()\n");
	}

	/** pypto.language exports its optimizations module; its entries are the same as pl.split / pl.cross_core_slot. */
	@org.junit.jupiter.api.Test
	void optimizationsModuleMembersAreKnown() {
		String source = IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16],
				             out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
				        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.optimizations.split(pl.SplitMode.UP_DOWN),
				                                                            pl.optimizations.cross_core_slot(slot_num=4)]):
				            acc = pl.matmul(a, b, out_dtype=pl.FP32)
				            out = pl.assemble(out, acc, [0, 0])
				        return out
				""";
		Analysis a = analyze(source);
		assertTrue(of(a, "PTO404").isEmpty(), describe(a));
		assertTrue(of(a, "PTO403").isEmpty(), describe(a));
		Analysis typo = analyze(source.replace("optimizations.cross_core_slot(", "optimizations.cross_core_slto("));
		assertTrue(describe(typo).contains("did you mean 'pl.optimizations.cross_core_slot'"), describe(typo));
	}

	@org.junit.jupiter.api.Test
	void deviceOnAKernelIsAnUnknownKeyword() {
		Analysis a = analyze(program(ORCH, "        pass\n").replace("y = self.kernel(x, x)", "y = self.kernel(x, x, device=0)"));
		List<Diagnostic> found = of(a, "PTO403");
		assertEquals(1, found.size(), describe(a));
		assertTrue(found.get(0).message().contains("only orchestrators are dispatched to a device"));
	}

	@org.junit.jupiter.api.Test
	void dispatchToALaterFunctionWithDeviceIsRejected() {
		Analysis a = analyze(IMPORTS + """
				@pl.program
				class P:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
				        for r in pl.range(pld.world_size()):
				            self.chip(x[r], device=r)
				        return x

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[64], pl.FP32]):
				        return x
				""");
		List<Diagnostic> found = of(a, "PTO406");
		assertEquals(1, found.size(), describe(a));
		assertEquals(9, line(a, found.get(0)));
	}

	@org.junit.jupiter.api.Test
	void missingAnnotation() {
		Analysis a = analyze(IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x):
				        return x
				""");
		assertEquals(1, of(a, "PTO407").size(), describe(a));
	}
}
