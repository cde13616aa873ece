package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.emit.orchestration.IrPrograms;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;

/** MaterializeRuntimeScopes on our own programs (the scopes pypto inserts for the same sources). */
class MaterializeRuntimeScopesPassTest {

	private static final String PROGRAM = IrPrograms.HEADER + """
			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.AIV)
			    def k(self, x: pl.Tensor[[16], pl.FP32], o: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
			        return o

			    @pl.function(type=pl.FunctionType.Orchestration DECO)
			    def orch(self, x: pl.Tensor[[16], pl.FP32], o: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
			        for i in pl.range(2):
			            if i == 0:
			                o = self.k(x, o)
			            else:
			                o = self.k(x, o)
			        with pl.manual_scope():
			            for j in pl.range(2):
			                o = self.k(x, o)
			        return o
			""";

	private static Program run(String deco) {
		Program p = IrPrograms.parseOne(PROGRAM.replace(" DECO", deco));
		return new MaterializeRuntimeScopesPass().run(p, new PassContext(Backend.ASCEND_910B));
	}

	@Test
	void bodyLoopAndBranchesGetAutoScopesButNothingInsideAManualScope() {
		Function orch = IrPrograms.orchestration(run(""));
		Stmt.RuntimeScope outer = assertInstanceOf(Stmt.RuntimeScope.class, orch.body());
		assertFalse(outer.manual());
		java.util.List<Stmt.For> loops = OrchPassTestSupport.loops(orch.body());
		Stmt.RuntimeScope loopBody = assertInstanceOf(Stmt.RuntimeScope.class, loops.get(0).body());
		Stmt.If branch = assertInstanceOf(Stmt.If.class, Stmt.flatten(loopBody.body()).get(0));
		assertInstanceOf(Stmt.RuntimeScope.class, branch.then());
		assertInstanceOf(Stmt.RuntimeScope.class, branch.orelse());
		assertFalse(loops.get(1).body() instanceof Stmt.RuntimeScope, "no AUTO scope inside a MANUAL one");
		assertEquals(false, orch.attr("auto_scope"));
	}

	@Test
	void aSecondRunAndAnAutoScopeFalseFunctionAreLeftAlone() {
		Program once = run("");
		assertSame(once, new MaterializeRuntimeScopesPass().run(once, new PassContext(Backend.ASCEND_910B)));
		Function manual = IrPrograms.orchestration(run(", auto_scope=False"));
		assertFalse(manual.body() instanceof Stmt.RuntimeScope);
		assertTrue(OrchPassTestSupport.loops(manual.body()).stream().noneMatch(f -> f.body() instanceof Stmt.RuntimeScope));
	}
}
