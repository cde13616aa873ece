package dev.ptotools.analyzer.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.CallDirections.Arg;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;

/** pypto's DeriveCallDirections rules, as the pass derives them over the source IR. */
class CallDirectionsPassTest {

	private static final String KERNELS = """
			import pypto.language as pl

			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.AIV)
			    def w(self, x: pl.Tensor[[16], pl.FP32], buf: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
			        return pl.store(pl.load(x, [0], [16]), [0], buf)

			    @pl.function(type=pl.FunctionType.AIV)
			    def rw(self, x: pl.Tensor[[16], pl.FP32], buf: pl.InOut[pl.Tensor[[16], pl.FP32]], s: pl.Scalar[pl.INT32]) -> pl.Tensor[[16], pl.FP32]:
			        return pl.store(pl.load(x, [0], [16]), [0], buf)

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orch(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]], io: pl.InOut[pl.Tensor[[16], pl.FP32]]):
			""";

	/** The directions of every call in orch, in source order. */
	private static List<List<Arg>> directions(String body) {
		Analysis a = Analyzer.standard().analyze(KERNELS + body, AnalyzerConfig.DEFAULT);
		CallDirections dirs = a.facts().get(Keys.CALL_DIRECTIONS);
		CallResolution calls = a.facts().get(Keys.CALLS);
		Function orch = a.module().programs().get(0).function("orch");
		List<List<Arg>> out = new ArrayList<>();
		for (Expr.Call c : Walk.allCalls(orch.body())) {
			if (calls.target(c) != null) {
				out.add(dirs.of(c));
			}
		}
		return out;
	}

	@Test
	void firstWriterOfALocalIsOutputExisting() {
		assertEquals(List.of(List.of(Arg.INPUT, Arg.OUTPUT_EXISTING)), directions("""
				        b = pl.create_tensor([16], dtype=pl.FP32)
				        b = self.w(x, b)
				"""));
	}

	@Test
	void aPriorWriterPromotesToInout() {
		assertEquals(List.of(List.of(Arg.INPUT, Arg.OUTPUT_EXISTING), List.of(Arg.INPUT, Arg.IN_OUT)), directions("""
				        b = pl.create_tensor([16], dtype=pl.FP32)
				        b = self.w(x, b)
				        b = self.w(x, b)
				"""));
	}

	@Test
	void aSequentialLoopPromotesAndAParallelOneDoesNot() {
		assertEquals(List.of(List.of(Arg.INPUT, Arg.IN_OUT), List.of(Arg.INPUT, Arg.OUTPUT_EXISTING)), directions("""
				        b = pl.create_tensor([16], dtype=pl.FP32)
				        for i in pl.range(4):
				            b = self.w(x, b)
				        c = pl.create_tensor([16], dtype=pl.FP32)
				        for j in pl.parallel(4):
				            c = self.w(x, c)
				"""));
	}

	@Test
	void anEnclosingInoutParameterPromotes() {
		assertEquals(List.of(List.of(Arg.INPUT, Arg.IN_OUT), List.of(Arg.INPUT, Arg.OUTPUT_EXISTING)), directions("""
				        io = self.w(x, io)
				        out = self.w(x, out)
				"""));
	}

	@Test
	void inoutStaysInoutScalarsAreScalarsAndNoDepOverrides() {
		assertEquals(List.of(List.of(Arg.INPUT, Arg.IN_OUT, Arg.SCALAR), List.of(Arg.INPUT, Arg.NO_DEP)), directions("""
				        out = self.rw(x, out, 3)
				        b = pl.create_tensor([16], dtype=pl.FP32)
				        b = self.w(x, pl.no_dep(b))
				"""));
	}
}
