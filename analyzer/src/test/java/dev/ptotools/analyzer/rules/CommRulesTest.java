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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;

/** The MaterializeCommDomainScopes checks, each as pypto's tests trigger them, and the domains it computes. */
class CommRulesTest {

	/** A chip orchestrator then a HOST orchestrator with the given body (body lines start at line 12). */
	static String program(String hostBody) {
		return IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_orch(self, data: pld.DistributedTensor[[256], pl.FP32]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, counts: pl.Tensor[[4], pl.INT32]):
				""" + hostBody + "        return 0\n";
	}

	static Stream<Arguments> problems() {
		return Stream.of(
				Arguments.of("PTO201", "dead allocation", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						""", 12),
				Arguments.of("PTO202", "window not consumed", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        _ = pld.window(buf, [256], dtype=pl.FP32)
						""", 12),
				Arguments.of("PTO203", "non-unit step device loop", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        for r in pl.range(0, 4, 2):
						            self.chip_orch(data, device=r)
						""", 14),
				Arguments.of("PTO203", "device is not a loop variable", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        d = 0
						        self.chip_orch(data, device=d)
						""", 15),
				Arguments.of("PTO203", "device is an expression", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r + 1)
						""", 15),
				Arguments.of("PTO203", "negative device", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        self.chip_orch(data, device=-1)
						""", 14),
				Arguments.of("PTO204", "duplicate allocation name", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						""", 13),
				Arguments.of("PTO205", "all_to_all_v in a loop", """
						        inp_buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        inp = pld.window(inp_buf, [256], dtype=pl.FP32)
						        data_buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(data_buf, [256], dtype=pl.FP32)
						        sig_buf = pld.alloc_window_buffer(16)
						        signal = pld.window(sig_buf, [4], dtype=pl.INT32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						        for _ in pl.range(2):
						            data = pld.tensor.all_to_all_v(inp, data, signal, counts, counts)
						""", 21),
				Arguments.of("PTO206", "implicit-signal allreduce in a loop", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						        for _ in pl.range(2):
						            data = pld.tensor.allreduce(data)
						""", 17),
				Arguments.of("PTO206", "allreduce nested in an expression", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						        wrapped = (pld.tensor.allreduce(data),)
						""", 16),
				Arguments.of("PTO207", "barrier signal without coverage", """
						        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
						        data = pld.window(buf, [256], dtype=pl.FP32)
						        sig_buf = pld.alloc_window_buffer(16)
						        signal = pld.window(sig_buf, [4], dtype=pl.INT32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						        pld.tensor.barrier(signal)
						""", 18),
				Arguments.of("PTO208", "allocation not bound to a name", """
						        bufs = [pld.alloc_window_buffer(16)]
						""", 12),
				Arguments.of("PTO208", "explicit name=", """
						        buf = pld.alloc_window_buffer(16, name="x")
						        data = pld.window(buf, [4], dtype=pl.INT32)
						        for r in pl.range(pld.world_size()):
						            self.chip_orch(data, device=r)
						""", 12));
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("problems")
	void reportsTheProblemOnItsLine(String rule, String name, String body, int expectedLine) {
		Analysis a = analyze(program(body));
		List<Diagnostic> found = of(a, rule);
		assertTrue(!found.isEmpty(), rule + " expected; got:\n" + describe(a));
		assertEquals(expectedLine, line(a, found.get(0)), describe(a));
		assertEquals(Severity.ERROR, found.get(0).severity());
	}

	@Test
	void worldLoopMakesOneDomainOverAllRanks() {
		Analysis a = analyze(program("""
				        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
				        data = pld.window(buf, [256], dtype=pl.FP32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				"""));
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR), describe(a));
		CommDomains.Host host = a.facts().get(Keys.COMM_DOMAINS).hosts().values().iterator().next();
		assertEquals(1, host.domains().size());
		assertEquals("comm_d0", host.domains().get(0).name());
		assertTrue(host.domains().get(0).devices() instanceof CommDomains.Devices.All);
		assertEquals("buf", host.domains().get(0).slots().get(0).name());
	}

	@Test
	void deviceSubsetsClusterIntoDomainsInAllocationOrder() {
		Analysis a = analyze(program("""
				        buf_a = pld.alloc_window_buffer(1024)
				        a = pld.window(buf_a, [256], dtype=pl.FP32)
				        buf_b = pld.alloc_window_buffer(1024)
				        b = pld.window(buf_b, [256], dtype=pl.FP32)
				        buf_c = pld.alloc_window_buffer(1024)
				        c = pld.window(buf_c, [256], dtype=pl.FP32)
				        self.chip_orch(a, device=0)
				        self.chip_orch(a, device=1)
				        for r in pl.range(2, 4):
				            self.chip_orch(b, device=r)
				        n = 2
				        for r in pl.range(n):
				            self.chip_orch(c, device=r)
				"""));
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR), describe(a));
		CommDomains.Host host = a.facts().get(Keys.COMM_DOMAINS).hosts().values().iterator().next();
		assertEquals(2, host.domains().size(), host.domains().toString());
		assertEquals("[0, 1]", host.domains().get(0).devices().toString());
		assertEquals(List.of("buf_a", "buf_c"), host.domains().get(0).slots().stream().map(CommDomains.Alloc::name).toList());
		assertEquals("[2, 3]", host.domains().get(1).devices().toString());
	}

	@Test
	void signalInheritsTheDataBuffersDomain() {
		Analysis a = analyze(program("""
				        buf = pld.alloc_window_buffer(1024)
				        data = pld.window(buf, [256], dtype=pl.FP32)
				        sig_buf = pld.alloc_window_buffer(16)
				        signal = pld.window(sig_buf, [4], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				        data = pld.tensor.allreduce(data, signal)
				"""));
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR), describe(a));
		CommDomains.Host host = a.facts().get(Keys.COMM_DOMAINS).hosts().values().iterator().next();
		assertEquals(1, host.domains().size());
		assertEquals(2, host.domains().get(0).slots().size());
	}

	@Test
	void allocationsOutsideAHostOrchestratorAreRejected() {
		Analysis a = analyze(IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_orch(self, x: pl.Tensor[[4], pl.FP32]):
				        n = pld.world_size()
				        return x
				""");
		assertEquals(1, of(a, "PTO208").size(), describe(a));
	}
}
