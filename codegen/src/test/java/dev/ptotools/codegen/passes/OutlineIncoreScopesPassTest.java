package dev.ptotools.codegen.passes;

import static dev.ptotools.codegen.passes.OutlineSources.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.support.PassRunner;

/** OutlineIncoreScopes on our programs; every fact below is what pypto's dump 09 shows for them. */
class OutlineIncoreScopesPassTest {

	private static Program outline(String src) {
		return PassRunner.after(src, "OutlineIncoreScopes");
	}

	private static String print(Program p, String f) {
		return IrPrinter.print(p.function(f));
	}

	@Test
	void opaqueParentBecomesOrchestrationAndScopesGetNamesInOrder() {
		Program p = outline(OutlineSources.OUTLINE);
		assertEquals(List.of("both", "main", "main_incore_0", "main_incore_2", "main_incore_3"),
				p.sortedByName().stream().map(Function::name).toList());
		assertEquals(FunctionType.Orchestration, p.function("main").type());
		assertEquals(FunctionType.InCore, p.function("main_incore_0").type());
	}

	@Test
	void storeIntoLoopIterArgIsAnInParamReturnedAsItself() {
		String k = print(outline(OutlineSources.OUTLINE), "main_incore_0");
		assertTrue(k.contains("def main_incore_0(x__ssa_v0: " + T + ", i__idx_v0: pl.Scalar[pl.INDEX], o__iter_v1: " + T
				+ ") -> " + T + ":"), k);
		assertTrue(k.contains("return o__iter_v1"), k);
		String main = print(outline(OutlineSources.OUTLINE), "main");
		assertTrue(main.contains("o__ssa_v3: " + T + " = self.main_incore_0(x__ssa_v0, i__idx_v0, o__iter_v1)"), main);
	}

	@Test
	void twoStoreTargetsAreOutParamsReturnedInReverseFirstStoreOrder() {
		Program p = outline(OutlineSources.OUTLINE);
		Function both = p.function("both");
		assertEquals(List.of(Direction.In, Direction.Out, Direction.Out), both.directions());
		String k = IrPrinter.print(both);
		assertTrue(k.contains("o__store: " + T + " = pl.tile.store(u__ssa_v0, [0, 0], o__rv_v2)"), k);
		assertTrue(k.contains("p__store: " + T + " = pl.tile.store(u__ssa_v0, [0, 0], p__ssa_v0)"), k);
		assertTrue(k.contains("return p__ssa_v0, o__rv_v2"), k);
		String main = print(p, "main");
		assertTrue(main.contains("= self.both(y__ssa_v0, o__rv_v2, p__ssa_v0)"), main);
		assertTrue(main.contains("p__ssa_v1: " + T + " = ret__tmp_v0[0]"), main);
		assertTrue(main.contains("o__rv_v3: " + T + " = ret__tmp_v0[1]"), main);
	}

	@Test
	void taskIdScopeBecomesASubmitAndDepsGetASyntheticTaskId() {
		Program p = outline(OutlineSources.OUTLINE);
		String main = print(p, "main");
		assertTrue(main.contains("= pl.submit(self.main_incore_2, p__ssa_v1, o__rv_v3)"), main);
		assertTrue(main.contains("o__rv_v4: " + T + " = ret__tmp_v0_1[0]"), main);
		assertTrue(main.contains("tid__ssa_v0: pl.Scalar[pl.TASK_ID] = ret__tmp_v0_1[1]"), main);
		assertTrue(main.contains("= pl.submit(self.main_incore_3, x__ssa_v0, p__ssa_v1, deps=[tid__ssa_v0])"), main);
		assertTrue(main.contains("tid__ssa_v1: pl.Scalar[pl.TASK_ID] = ret__tmp_v0_2[1]"), main);
		assertTrue(!main.contains("task_invalid"), main);
		Expr.Submit last = null;
		for (Stmt s : Stmt.flatten(p.function("main").body())) {
			if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Submit sb) {
				last = sb;
			}
		}
		assertEquals(List.of(0L), last.attr("arg_direction_overrides"));
	}

	@Test
	void localsUsedLaterAreReturnedBeforeStoreTargetsAndAssembleDestinationsAreOut() {
		Program p = outline(OutlineSources.TENSOR);
		Function k0 = p.function("main_incore_0");
		assertEquals(List.of("a__ssa_v0", "b__ssa_v0", "o2__ssa_v0", "o1__ssa_v0"), k0.params().stream().map(v -> v.name()).toList());
		assertEquals(List.of(Direction.In, Direction.In, Direction.Out, Direction.Out), k0.directions());
		assertTrue(IrPrinter.print(k0).contains("return t__ssa_v0, o2__ssa_v0, o1__ssa_v0"));
		String k2 = print(p, "main_incore_2");
		assertTrue(k2.contains("def main_incore_2(o1__ssa_v1: pl.Out[" + T + "], s__ssa_v0: " + T + ")"), k2);
		String main = print(p, "main");
		assertTrue(main.contains("t__ssa_v0: " + T + " = ret__tmp_v0[0]"), main);
		assertTrue(main.contains("o2__ssa_v1: " + T + " = ret__tmp_v0[1]"), main);
		assertTrue(main.contains("o1__ssa_v1: " + T + " = ret__tmp_v0[2]"), main);
		assertTrue(main.contains("s__ssa_v0: " + T + " = self.main_incore_1(t__ssa_v0, a__ssa_v0)"), main);
		assertTrue(main.contains("o1__ssa_v2: " + T + " = self.main_incore_2(o1__ssa_v1, s__ssa_v0)"), main);
	}

	@Test
	void nameHintsCollideLocallyByNumberAndAcrossFunctionsByParentName() {
		Program p = outline("""
				import pypto.language as pl

				@pl.program
				class Names:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def b_main(self, x: pl.Tensor[[64, 64], pl.FP32], o: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
				            t = pl.load(x, [0, 0], [64, 64])
				            pl.store(t, [0, 0], o)
				        return o

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def a_main(self, x: pl.Tensor[[64, 64], pl.FP32], o: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
				            t = pl.load(x, [0, 0], [64, 64])
				            pl.store(t, [0, 0], o)
				        with pl.at(level=pl.Level.CORE_GROUP):
				            t2 = pl.load(x, [0, 0], [64, 64])
				            pl.store(t2, [0, 0], o)
				        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
				            t3 = pl.load(x, [0, 0], [64, 64])
				            pl.store(t3, [0, 0], o)
				        return o
				""");
		assertEquals(List.of("a_main", "a_main_incore_1", "b_main", "b_main_k", "k", "k_0"),
				p.sortedByName().stream().map(Function::name).toList());
		String a = print(p, "a_main");
		assertTrue(a.contains("o__ssa_v1: " + T + " = self.k(x__ssa_v0, o__ssa_v0)"), a);
		assertTrue(a.contains("o__ssa_v2: " + T + " = self.a_main_incore_1(x__ssa_v0, o__ssa_v1)"), a);
		assertTrue(a.contains("o__ssa_v3: " + T + " = self.k_0(x__ssa_v0, o__ssa_v2)"), a);
		assertTrue(print(p, "k_0").contains("def k_0(x__ssa_v0: " + T + ", o__ssa_v0: pl.Out[" + T + "])"));
	}
}
