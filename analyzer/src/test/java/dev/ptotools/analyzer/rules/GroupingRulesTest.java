package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.hostProgram;
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
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;

/**
 * The grouped-dispatch verdict, condition by condition: each not-grouped rule fires on the loop that
 * breaks its condition (first failed condition wins) and on nothing else; eligible loops get PTO100.
 * Body lines start at line 21 of {@link dev.ptotools.analyzer.support.Fixtures#hostProgram}.
 */
class GroupingRulesTest {

	static Stream<Arguments> notGrouped() {
		return Stream.of(
				// rule, host body, line of the finding
				Arguments.of("PTO101", """
						        for r in pl.range(4):
						            self.chip(inputs[r], data, device=r)
						""", 21),
				Arguments.of("PTO101", """
						        for r in pl.range(1, pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						""", 21),
				Arguments.of("PTO101", """
						        for r in pl.range(0, pld.world_size(), 2):
						            self.chip(inputs[r], data, device=r)
						""", 21),
				Arguments.of("PTO102", """
						        for r in pl.range(pld.world_size()):
						            x_r = inputs[r]
						""", 21),
				Arguments.of("PTO103", """
						        for r in pl.range(pld.world_size()):
						            if flag > 0:
						                self.chip(inputs[r], data, device=r)
						""", 23),
				Arguments.of("PTO103", """
						        for r in pl.range(pld.world_size()):
						            for k in pl.range(2):
						                self.chip(inputs[r], data, device=r)
						""", 23),
				Arguments.of("PTO104", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						            self.other(inputs[r], data, device=r)
						""", 22),
				Arguments.of("PTO105", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=0)
						""", 22),
				Arguments.of("PTO105", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data)
						""", 22),
				Arguments.of("PTO106", """
						        for r in pl.range(pld.world_size()):
						            scratch = pl.create_tensor([N], dtype=pl.FP32)
						            self.chip(inputs[r], data, device=r)
						""", 22),
				Arguments.of("PTO106", """
						        for r in pl.range(pld.world_size()):
						            k = r + 1
						            self.chip(inputs[r], data, device=r)
						""", 22),
				Arguments.of("PTO106", """
						        for r in pl.range(pld.world_size()):
						            out, tid = pl.submit(self.chip, inputs[r], data)
						            self.chip(inputs[r], data, device=r)
						""", 22),
				Arguments.of("PTO107", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[(r + 1) % pld.world_size()], data, device=r)
						""", 22),
				Arguments.of("PTO108", """
						        for r, (acc,) in pl.range(pld.world_size(), init_values=(0,)):
						            self.chip(inputs[r], data, device=r)
						            acc2 = pl.yield_(acc)
						""", 21),
				Arguments.of("PTO109", """
						        for r in pl.parallel(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						""", 21),
				Arguments.of("PTO109", """
						        for r in pl.unroll(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						""", 21),
				Arguments.of("PTO110", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						            if flag > 0:
						                pass
						""", 23),
				Arguments.of("PTO110", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						            break
						""", 23));
	}

	@ParameterizedTest(name = "{0} line {2}")
	@MethodSource("notGrouped")
	void notGroupedLoopGetsItsRule(String rule, String body, int expectedLine) {
		Analysis a = analyze(hostProgram(body));
		List<Diagnostic> found = of(a, rule);
		assertEquals(1, found.size(), describe(a));
		assertEquals(expectedLine, line(a, found.get(0)), describe(a));
		assertEquals(Severity.WARNING, found.get(0).severity());
		assertTrue(found.get(0).message().startsWith("rank loop is not grouped: "), found.get(0).message());
		// exactly one verdict, and it names this rule; no other grouping rule speaks
		assertEquals(1, a.rankLoops().size());
		assertEquals(rule, a.rankLoops().get(0).failed().rule());
		for (Diagnostic d : a.diagnostics()) {
			if (d.rule().startsWith("PTO1") && !d.rule().equals(rule)) {
				throw new AssertionError("unexpected " + d.rule() + ": " + describe(a));
			}
		}
	}

	static Stream<Arguments> grouped() {
		return Stream.of(
				Arguments.of("world size directly", """
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("system.world_size", """
						        for r in pl.range(pld.system.world_size()):
						            self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("name bound earlier", """
						        n = pld.world_size()
						        for r in pl.range(n):
						            self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("alias of a name bound earlier", """
						        n = pld.world_size()
						        m = n
						        for r in pl.range(0, m, 1):
						            self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("views before the dispatch, including a window view", """
						        for r in pl.range(pld.world_size()):
						            x_r = inputs[r]
						            y_r = pl.slice(inputs, [1, N], [r, 0])
						            w = pld.window(buf, [N], dtype=pl.FP32)
						            self.chip(x_r, w, device=r)
						"""),
				Arguments.of("dispatch as an assignment", """
						        for r in pl.range(pld.world_size()):
						            y = self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("inside a step loop and an if", """
						        for step in pl.range(10):
						            if flag > 0:
						                for r in pl.range(pld.world_size()):
						                    self.chip(inputs[r], data, device=r)
						"""),
				Arguments.of("a docstring and pass", """
						        for r in pl.range(pld.world_size()):
						            "publish every rank"
						            pass
						            self.chip(inputs[r], data, device=r)
						"""));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("grouped")
	void eligibleLoopIsGrouped(String name, String body) {
		Analysis a = analyze(hostProgram(body));
		List<Diagnostic> info = of(a, "PTO100");
		assertEquals(1, info.size(), describe(a));
		assertEquals(Severity.INFO, info.get(0).severity());
		RankLoop loop = a.rankLoops().stream().filter(RankLoop::grouped).findFirst().orElseThrow();
		assertTrue(loop.checks().stream().allMatch(RankLoop.Check::holds));
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO), describe(a));
	}

	/** A neighbour computed in the loop: the message says what makes the loop grouped (not only hoisting). */
	@Test
	void aScalarComputedInTheLoopIsToldToGoIntoTheDispatch() {
		Analysis a = analyze(hostProgram("""
				        for r in pl.range(pld.world_size()):
				            peer = (r + 1) % pld.world_size()
				            self.chip(inputs[peer], data, device=r)
				"""));
		List<Diagnostic> d = of(a, "PTO106");
		assertEquals(1, d.size(), describe(a));
		assertEquals("rank loop is not grouped: 'peer = (r + 1) % pld.world_size()' calls pld.world_size, which is"
				+ " not a view; a grouped loop holds only views and its dispatch: write the expression into the"
				+ " dispatch's arguments with pld.world_size() before the loop"
				+ " (self.chip(inputs[(r + 1) % world_size], data, device=r))", d.get(0).message());
		// read elsewhere too: no such advice, and no fix that would change what the other read sees
		Analysis used = analyze(hostProgram("""
				        for r in pl.range(pld.world_size()):
				            peer = (r + 1) % pld.world_size()
				            self.chip(inputs[peer], data, device=r)
				        self.other(inputs[peer], data, device=0)
				"""));
		Diagnostic u = of(used, "PTO106").get(0);
		assertTrue(!u.message().contains("write the expression"), u.message());
		assertTrue(u.fixes().stream().noneMatch(f -> f.title().startsWith("Write")), u.fixes().toString());
	}

	@Test
	void loopsThatAreNotRankLoopsGetNoVerdict() {
		Analysis a = analyze(hostProgram("""
				        for i in pl.range(4):
				            x_i = inputs[i]
				        for step in pl.range(3):
				            for r in pl.range(pld.world_size()):
				                self.chip(inputs[r], data, device=r)
				"""));
		assertEquals(1, a.rankLoops().size(), describe(a));
		assertTrue(a.rankLoops().get(0).grouped());
	}

	@Test
	void allocationFreeHostOrchestratorIsMarked() {
		Analysis a = analyze(dev.ptotools.analyzer.support.Fixtures.IMPORTS + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[64], pl.FP32]):
				        return x

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
				        for r in pl.range(pld.world_size()):
				            self.chip(x[r], device=r)
				        return x
				""");
		assertEquals(1, of(a, "PTO100").size(), describe(a));
	}

	@Test
	void jitStyleProgramsAreJudgedToo() {
		Analysis a = analyze(dev.ptotools.analyzer.support.Fixtures.IMPORTS + """
				@pl.jit.incore
				def add_rank(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    return y

				@pl.jit
				def per_rank(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    return add_rank(x, y)

				@pl.jit.host
				def hello(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=0)
				    return y
				""");
		assertEquals(2, a.rankLoops().size(), describe(a));
		assertTrue(a.rankLoops().get(0).grouped());
		assertEquals("PTO105", a.rankLoops().get(1).failed().rule());
	}

	@Test
	void everyConditionIsExplained() {
		Analysis a = analyze(hostProgram("""
				        for r in pl.parallel(4):
				            scratch = pl.create_tensor([N], dtype=pl.FP32)
				            self.chip(inputs[r], data, device=r)
				"""));
		RankLoop loop = a.rankLoops().get(0);
		assertEquals(10, loop.checks().size());
		// the first failed condition decides; the later failures are still recorded for the hover
		assertEquals("PTO101", loop.failed().rule());
		long failing = loop.checks().stream().filter(c -> !c.holds()).count();
		assertEquals(3, failing, loop.checks().toString()); // full world, views, sequential
	}
}
