package dev.ptotools.codegen.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.graph.TaskGraph.Edge;
import dev.ptotools.codegen.graph.TaskGraph.Kind;
import dev.ptotools.codegen.graph.TaskGraph.Reason;
import dev.ptotools.codegen.graph.TaskGraph.Task;
import dev.ptotools.language.PythonFrontEnd;

/** The task graphs the emitters record: tasks as the code submits them, loops, and derived dependencies. */
class TaskGraphTest {

	private static TaskGraphs.Result graphs(String text) {
		Analysis a = Compiler.analyzer(CompileOptions.DEFAULT).analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
		return TaskGraphs.of(a, CompileOptions.DEFAULT, "t.py");
	}

	private static final String CHAIN = """
			import pypto.language as pl

			T = pl.Tensor[[16, 16], pl.FP32]

			@pl.program
			class Chain:
			    @pl.function(type=pl.FunctionType.AIV)
			    def add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        ta = pl.load(a, [0, 0], [16, 16])
			        tb = pl.load(b, [0, 0], [16, 16])
			        return pl.store(pl.add(ta, tb), [0, 0], out)

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			             d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        c = pl.create_tensor([16, 16], dtype=pl.FP32)
			        c = self.add(a, b, c)
			        for i in pl.range(3):
			            a = self.add(c, b, a)
			        d = self.add(a, c, d)
			        return d
			""";

	@Test
	void chipTasksAreTheSubmitsWithTheirLoopsAndTensorDependencies() {
		TaskGraphs.Result r = graphs(CHAIN);
		assertEquals(1, r.pages().size(), r.generation().problems().toString());
		List<TaskGraph> gs = r.pages().get(0).graphs();
		assertEquals(1, gs.size());
		TaskGraph g = gs.get(0);
		assertEquals("orch", g.function());
		assertFalse(g.host());
		assertEquals("orchestration/orch.cpp", g.file());
		assertEquals(List.of("add", "add", "add"), g.tasks().stream().map(Task::name).toList());
		assertTrue(g.tasks().stream().allMatch(t -> t.kind() == Kind.AIV));
		assertEquals(1, g.loops().size());
		assertEquals(List.of(-1, 0, -1), g.tasks().stream().map(Task::loop).toList());
		int line = CHAIN.substring(0, g.tasks().get(1).span().start()).split("\n", -1).length;
		int call = CHAIN.substring(0, CHAIN.indexOf("a = self.add(c, b, a)")).split("\n", -1).length;
		assertEquals(call, line, "the task's span is its call in the loop");
		// #1 reads c (written by #0) and overwrites a (which nothing wrote before it: a is an input);
		// #2 reads a (written by #1) and c (#0).
		assertEquals(List.of(new Edge(0, 1, Reason.READ_AFTER_WRITE, "c"), new Edge(1, 2, Reason.READ_AFTER_WRITE, "ext_a"),
				new Edge(0, 2, Reason.READ_AFTER_WRITE, "c")), g.edges());
	}

	@Test
	void aWriteWaitsForEarlierReadersAndWriters() {
		TaskGraphRecorder rec = new TaskGraphRecorder("f", false, "x.cpp");
		rec.task("w1", Kind.AIV, dev.ptotools.analyzer.ir.Span.NONE, "", List.of(new TaskGraph.Access("t", TaskGraph.Mode.OUT)),
				List.of());
		rec.task("r", Kind.AIV, dev.ptotools.analyzer.ir.Span.NONE, "", List.of(new TaskGraph.Access("v", TaskGraph.Mode.IN)),
				List.of());
		rec.view("v", "t");
		rec.task("w2", Kind.AIC, dev.ptotools.analyzer.ir.Span.NONE, "", List.of(new TaskGraph.Access("t", TaskGraph.Mode.OUT)),
				List.of());
		rec.bindTaskId("tid", 0);
		rec.task("b", Kind.BARRIER, dev.ptotools.analyzer.ir.Span.NONE, "", List.of(), List.of("tid"));
		assertEquals(List.of(new Edge(0, 2, Reason.WRITE_AFTER_WRITE, "t"), new Edge(0, 3, Reason.EXPLICIT, "")),
				rec.build().edges(), "the view was named after the read: the read stays on v");
	}

	@Test
	void inAManualScopeOnlyTheNamedTaskIdsAreDependenciesThroughArraysToo() {
		dev.ptotools.analyzer.ir.Span none = dev.ptotools.analyzer.ir.Span.NONE;
		TaskGraphRecorder rec = new TaskGraphRecorder("f", false, "x.cpp");
		rec.enterManualScope();
		rec.bindTaskId("t0", rec.task("k", Kind.AIV, none, "", List.of(new TaskGraph.Access("out", TaskGraph.Mode.INOUT)),
				List.of()));
		rec.storeTaskId("tids_next", "t0");
		rec.copyTaskIds("tids", "tids_next");
		rec.task("barrier", Kind.BARRIER, none, "", List.of(), List.of("tids[0]", "tids[1]"));
		// writes what task 0 wrote, but auto tracking is off: no edge for it
		rec.task("k", Kind.AIV, none, "", List.of(new TaskGraph.Access("out", TaskGraph.Mode.INOUT)), List.of());
		rec.exitManualScope();
		rec.task("after", Kind.AIV, none, "", List.of(new TaskGraph.Access("out", TaskGraph.Mode.IN)), List.of());
		assertEquals(List.of(new Edge(0, 1, Reason.EXPLICIT, ""), new Edge(2, 3, Reason.READ_AFTER_WRITE, "out")),
				rec.build().edges());
	}

	private static final String RANKS = """
			import pypto.language as pl
			import pypto.language.distributed as pld

			@pl.program
			class Ranks:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip_a(self, x: pl.Tensor[[8, 8], pl.FP32], w: pld.DistributedTensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
			        return w

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip_b(self, w: pld.DistributedTensor[[8, 8], pl.FP32]):
			        return w

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, xs: pl.Tensor[[4, 8, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8, 8], pl.FP32]]) -> pl.Tensor[[4, 8, 8], pl.FP32]:
			        buf = pld.alloc_window_buffer(8 * 8 * pl.FP32.get_byte())
			        w = pld.window(buf, [8, 8], dtype=pl.FP32)
			        for r in pl.range(pld.world_size()):
			            self.chip_a(xs[r], w, device=r)
			        for r in pl.range(pld.world_size()):
			            self.chip_a(xs[r], w, device=r)
			            self.chip_b(w, device=r)
			        return out
			""";

	@Test
	void aGroupedRankLoopIsOneGroupTaskAndTheOthersArePerRank() {
		TaskGraphs.Result r = graphs(RANKS);
		assertEquals(1, r.pages().size(), r.generation().problems().toString());
		TaskGraph host = r.pages().get(0).graphs().get(0);
		assertTrue(host.host());
		assertEquals("orchestration/host_orch.py", host.file());
		assertEquals(List.of(Kind.CHIP_GROUP, Kind.CHIP, Kind.CHIP), host.tasks().stream().map(Task::kind).toList());
		assertEquals(List.of("chip_a", "chip_a", "chip_b"), host.tasks().stream().map(Task::name).toList());
		assertEquals(List.of(0, 1, 1), host.tasks().stream().map(Task::loop).toList());
		assertEquals("r__idx_v0", host.tasks().get(2).rank());
		// the comm domain's ordering token (INOUT per dispatch) orders the three dispatches
		assertEquals(List.of(new Edge(0, 1, Reason.READ_AFTER_WRITE, "__comm_d0_ord"),
				new Edge(1, 2, Reason.READ_AFTER_WRITE, "__comm_d0_ord")), host.edges());
		String html = TaskGraphPage.html(r.pages().get(0));
		assertTrue(html.contains("class=\"loop rank-loop grouped\""), html);
		assertTrue(html.contains("class=\"loop rank-loop staggered\" data-loop=\"1\" data-rule=\"PTO104\""), html);
	}
}
