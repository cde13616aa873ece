package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.errors;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;

/**
 * Values a program reads from around it that only running the module gives (a builder's parameters, a
 * value the module computes or imports): unknown, not wrong. No error is reported on them; the rank-loop
 * verdict says what they depend on; where the module calls the builder with constants, those are used,
 * as the compiler builds the program with them.
 */
class UnknownValuesTest {

	/**
	 * A program with a window buffer and a rank loop over {@code bound}, at column 0 (indent it to nest it
	 * in a builder, a function or a test method).
	 */
	private static String step(String bound) {
		return """
				@pl.program
				class Step:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_step(self, data: pld.DistributedTensor[[256], pl.FP32]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
				        data = pld.window(buf, [256], dtype=pl.FP32)
				        for r in pl.range(BOUND):
				            self.chip_step(data, device=r)
				        return 0
				""".replace("BOUND", bound);
	}

	/**
	 * pypto's ring allreduce shape: a program built by a function from its parameter, with a window buffer
	 * and a rank loop over the parameter. {@code after} is appended to the module.
	 */
	private static String ring(String after) {
		return IMPORTS + """
				SIZE = 256


				def build(n_ranks, step=1):
				    rounds = 2 * (n_ranks - 1)

				    @pl.program
				    class Ring:
				        @pl.function(type=pl.FunctionType.Orchestration)
				        def chip_step(self, data: pld.DistributedTensor[[SIZE], pl.FP32],
				                      signal: pld.DistributedTensor[[rounds, n_ranks], pl.INT32]):
				            return data

				        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				        def host_orch(self):
				            buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				            sig = pld.alloc_window_buffer(rounds * n_ranks * pl.INT32.get_byte())
				            for r in pl.range(0, n_ranks, step):
				                data = pld.window(buf, [SIZE], dtype=pl.FP32)
				                signal = pld.window(sig, [rounds, n_ranks], dtype=pl.INT32)
				                self.chip_step(data, signal, device=r)
				            return 0

				    return Ring
				""" + after;
	}

	private static Program program(Analysis a) {
		return a.module().programs().get(0);
	}

	@Test
	void aBuilderParameterNoCallBindsIsUnknownNotAnError() {
		Analysis a = analyze(ring(""));
		assertEquals(List.of(), errors(a), describe(a));
		List<Diagnostic> verdict = of(a, "PTO101");
		assertEquals(1, verdict.size(), describe(a));
		assertEquals("rank loop is not grouped: iterates pl.range(0, n_ranks, step): a rank count fixed when the program"
				+ " is built, not the whole world (it depends on 'n_ranks', a parameter of build(); known when build is"
				+ " called with a constant)", verdict.get(0).message());
		Constants c = a.facts().get(Keys.CONSTANTS);
		assertEquals("'rounds', computed from 'n_ranks', a parameter of build(); known when build is called with a"
				+ " constant", c.unknowns(program(a)).get("rounds").describe());
		CommDomains.Host host = a.facts().get(Keys.COMM_DOMAINS).hosts().values().iterator().next();
		assertTrue(host.dispatches().get(0).devices() instanceof CommDomains.Devices.Unknown, host.toString());
	}

	@Test
	void aBuilderCalledWithConstantsIsFoldedWithThem() {
		for (String call : List.of("\n\ndef main():\n    build(4)\n", "\n\nP = build(n_ranks=4)\n")) {
			Analysis a = analyze(ring(call));
			assertEquals(List.of(), errors(a), describe(a));
			Constants c = a.facts().get(Keys.CONSTANTS);
			assertEquals(4L, c.env(program(a)).get("n_ranks"));
			assertEquals(6L, c.env(program(a)).get("rounds"), "the builder's locals fold with its arguments");
			assertEquals("rank loop is not grouped: iterates pl.range(0, n_ranks, step): 4 ranks fixed in the source,"
					+ " not the whole world", of(a, "PTO101").get(0).message());
		}
	}

	@Test
	void aConstantBindingThatPyptoRejectsIsAnError() {
		// build(4, 2): the device loop steps by 2, which pypto's MaterializeCommDomainScopes rejects
		Analysis a = analyze(ring("\n\nP = build(4, 2)\n"));
		List<Diagnostic> invalid = of(a, "PTO203");
		assertEquals(1, invalid.size(), describe(a));
		assertEquals("device=r over a non-unit-step loop is not supported (step=2)", invalid.get(0).message());
	}

	@Test
	void callsThatDisagreeLeaveTheValueUnknown() {
		Analysis a = analyze(ring("\n\nTWO = build(2)\nFOUR = build(4)\n"));
		assertEquals(List.of(), errors(a), describe(a));
		Constants c = a.facts().get(Keys.CONSTANTS);
		assertNull(c.env(program(a)).get("n_ranks"));
		assertEquals("'n_ranks', which differs between the calls of build() (2, 4)",
				c.unknowns(program(a)).get("n_ranks").describe());
		assertEquals(1L, c.env(program(a)).get("step"), "both calls leave step at its default");
		assertTrue(of(a, "PTO101").get(0).message().endsWith("(it depends on 'n_ranks', which differs between the calls"
				+ " of build() (2, 4))"), describe(a));
	}

	@Test
	void aDslParameterOfTheSameNameIsTheFunctionsOwnAndStillWrong() {
		String src = IMPORTS + "def build(n_ranks):\n"
				+ step("n_ranks").replace("def host_orch(self):", "def host_orch(self, n_ranks: pl.Scalar[pl.INT64]):").indent(4)
				+ "\n    return Step\n";
		Analysis a = analyze(src);
		assertEquals("device=r loop bound must be ConstInt or pld.system.world_size()", of(a, "PTO203").get(0).message());
		assertEquals("rank loop is not grouped: iterates pl.range(n_ranks), which is not known to be the world size",
				of(a, "PTO101").get(0).message());
	}

	@Test
	void aDeviceFromTheBuildersParameterIsAConstantOrUnknown() {
		String builder = IMPORTS + """
				def build(src):
				    @pl.program
				    class Send:
				        @pl.function(type=pl.FunctionType.Orchestration)
				        def chip_step(self, data: pld.DistributedTensor[[256], pl.FP32]):
				            return data

				        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				        def host_orch(self):
				            buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
				            data = pld.window(buf, [256], dtype=pl.FP32)
				            self.chip_step(data, device=src)
				            return 0

				    return Send
				""";
		Analysis unknown = analyze(builder);
		assertEquals(List.of(), errors(unknown), describe(unknown));
		Analysis bound = analyze(builder + "\n\nP = build(1)\n");
		assertEquals(List.of(), errors(bound), describe(bound));
		CommDomains.Host host = bound.facts().get(Keys.COMM_DOMAINS).hosts().values().iterator().next();
		assertEquals("[1]", host.dispatches().get(0).devices().toString());
		Analysis negative = analyze(builder + "\n\nP = build(-1)\n");
		assertEquals("device= must be a non-negative rank index, got -1", of(negative, "PTO203").get(0).message());
	}

	@Test
	void valuesTheModuleComputesOrImportsAreUnknown() {
		String body = step("N_RANKS");
		Analysis computed = analyze(IMPORTS + "import os\n\nN_RANKS = int(os.environ[\"N_RANKS\"])\n\n\n" + body);
		assertEquals(List.of(), errors(computed), describe(computed));
		assertTrue(of(computed, "PTO101").get(0).message().endsWith("(it depends on 'N_RANKS', a value computed when the"
				+ " module runs)"), describe(computed));
		Analysis imported = analyze(IMPORTS + "from cluster_config import N_RANKS\n\n\n" + body);
		assertEquals(List.of(), errors(imported), describe(imported));
		assertTrue(of(imported, "PTO101").get(0).message().endsWith("(it depends on 'N_RANKS', imported from"
				+ " cluster_config)"), describe(imported));
	}

	@Test
	void anUnrollBoundFromTheBuilderIsNotRejected() {
		String src = IMPORTS + """
				def build(n):
				    @pl.program
				    class Unrolled:
				        @pl.function(type=pl.FunctionType.Orchestration)
				        def orch(self, a: pl.Tensor[[4], pl.FP32]):
				            for i in pl.unroll(n):
				                pass
				            return a

				    return Unrolled
				""";
		Analysis a = analyze(src);
		assertEquals(List.of(), of(a, "PTO409"), describe(a));
		Analysis local = analyze(src.replace("def orch(self, a: pl.Tensor[[4], pl.FP32]):",
				"def orch(self, a: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INT64]):"));
		assertEquals("pl.unroll() requires compile-time constant integer bounds", of(local, "PTO409").get(0).message());
	}

	@Test
	void aBuilderNestedInAFunctionTheModuleCallsIsBoundThroughIt() {
		String src = IMPORTS + "def outer(n_ranks):\n    def build():\n" + step("n_ranks").indent(8)
				+ "\n        return Step\n\n    return build()\n\n\nP = outer(2)\n";
		Analysis a = analyze(src);
		assertEquals(2L, a.facts().get(Keys.CONSTANTS).env(program(a)).get("n_ranks"));
		assertEquals("rank loop is not grouped: iterates pl.range(n_ranks): 2 ranks fixed in the source, not the whole"
				+ " world", of(a, "PTO101").get(0).message());
	}

	@Test
	void aProgramInATestMethodReadsTheMethodsParameters() {
		// pytest's parametrized method: self and n_ranks are the method's, unknown to the analyzer
		String src = IMPORTS + "class TestRing:\n    def test_ring(self, n_ranks):\n" + step("n_ranks").indent(8);
		Analysis a = analyze(src);
		assertEquals(List.of(), errors(a), describe(a));
		assertTrue(of(a, "PTO101").get(0).message().endsWith("(it depends on 'n_ranks', a parameter of test_ring(); known"
				+ " when test_ring is called with a constant)"), describe(a));
	}
}
