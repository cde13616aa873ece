package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/** predicate= on pl.spmd_submit and on the pl.spmd scope: accepted, written as the runtime's predicate, checked as pypto checks it. */
class DispatchPredicateTest {

	private static String program(String dispatch) {
		return Sources.program("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def produce(self, x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t: pl.Tile[[16, 16], pl.FP32] = pl.tile.full([16, 16], dtype=pl.FP32, value=1.0)
				        return pl.store(t, [0, 0], x)

				    @pl.function(type=pl.FunctionType.InCore)
				    def clobber(self, x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t: pl.Tile[[16, 16], pl.FP32] = pl.tile.full([16, 16], dtype=pl.FP32, value=9.0)
				        return pl.store(t, [0, 0], x)

				    @pl.function(type=pl.FunctionType.InCore)
				    def count(self, g: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 16], pl.INT32]:
				        t: pl.Tile[[16, 16], pl.INT32] = pl.tile.full([16, 16], dtype=pl.INT32, value=1)
				        return pl.store(t, [0, 0], g)

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Out[pl.Tensor[[16, 16], pl.FP32]], gate: pl.Tensor[[16, 16], pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
				%s
				        return x
				""".formatted(dispatch.indent(8).stripTrailing()));
	}

	private static final String PREDICATE_LINES = """
			CoreTaskPredicate params_t1_pred;
			params_t1_pred.operand.tensor = &ext_gate;
			params_t1_pred.operand.ndims = 2;
			params_t1_pred.operand.indices[0] = 0;
			params_t1_pred.operand.indices[1] = 3;
			params_t1_pred.op = PredicateOp::%s;
			params_t1_pred.target = 0;
			params_t1.set_predicate(params_t1_pred);
			""";

	private static void assertPredicate(String cpp, String op) {
		String flat = cpp.lines().map(String::strip).reduce("", (a, b) -> a + b + "\n");
		assertTrue(flat.contains(PREDICATE_LINES.formatted(op)), cpp);
	}

	@Test
	void aSubmitPredicateBecomesTheTasksRuntimePredicate() {
		String cpp = Sources.cpp(program("""
				with pl.manual_scope():
				    x, p_tid = pl.spmd_submit(self.produce, x, core_num=1)
				    x, c_tid = pl.spmd_submit(self.clobber, x, core_num=1, deps=[p_tid], predicate=(gate[0, 3] > 0))
				"""));
		assertPredicate(cpp, "GT");
	}

	@Test
	void theLiteralFirstFlipsTheComparison() {
		String cpp = Sources.cpp(program("""
				with pl.manual_scope():
				    x, p_tid = pl.spmd_submit(self.produce, x, core_num=1)
				    x, c_tid = pl.spmd_submit(self.clobber, x, core_num=1, deps=[p_tid], predicate=(0 > gate[0, 3]))
				"""));
		assertPredicate(cpp, "LT");
	}

	@Test
	void aScopePredicateRidesOnItsSubmit() {
		String cpp = Sources.cpp(program("""
				with pl.spmd(1) as p_tid:
				    x = self.produce(x)
				with pl.spmd(1, deps=[p_tid], predicate=(gate[0, 3] != 0)) as c_tid:
				    x = self.clobber(x)
				"""));
		assertPredicate(cpp, "NE");
	}

	private static Problem rejected(String dispatch) {
		Generation g = Sources.generate(program(dispatch), Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		return errors.get(0);
	}

	@Test
	void aPredicateThatIsNotOneComparisonIsRejectedAtIt() {
		Problem p = rejected("""
				with pl.manual_scope():
				    x, p_tid = pl.spmd_submit(self.produce, x, core_num=1)
				    x, c_tid = pl.spmd_submit(self.clobber, x, core_num=1, deps=[p_tid], predicate=(gate[0, 3] + 1))
				""");
		assertTrue(p.message().contains("'clobber' predicate must be a single comparison (==, !=, >, <, >=, <=); got Add"),
				p.message());
		assertEquals(25, p.line());
	}

	@Test
	void aComparisonOfTwoElementsIsRejected() {
		Problem p = rejected("""
				with pl.manual_scope():
				    x, p_tid = pl.spmd_submit(self.produce, x, core_num=1)
				    x, c_tid = pl.spmd_submit(self.clobber, x, core_num=1, deps=[p_tid], predicate=(gate[0, 3] > gate[0, 1]))
				""");
		assertTrue(p.message().contains("'clobber' predicate must compare one tensor element (e.g. t[i]) against an integer "
				+ "literal"), p.message());
	}

	@Test
	void thePredicatesProducerMustBeADependency() {
		Problem p = rejected("""
				with pl.manual_scope():
				    gate2, g_tid = pl.spmd_submit(self.count, gate, core_num=1)
				    x, c_tid = pl.spmd_submit(self.clobber, x, core_num=1, predicate=(gate2[0, 3] > 0))
				""");
		assertTrue(p.message().contains("'clobber' predicate reads 'gate2', which is produced by the task bound to 'g_tid', "
				+ "but 'g_tid' is not in deps="), p.message());
	}
}
