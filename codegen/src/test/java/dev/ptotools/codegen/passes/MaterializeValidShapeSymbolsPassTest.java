package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.PassRunner;

/** MaterializeValidShapeSymbols on our program: the kernel signature of pypto's dump 49. */
class MaterializeValidShapeSymbolsPassTest {

	private static final String SRC = """
			import pypto.language as pl

			VALID = pl.dynamic("VALID")

			@pl.program
			class Valid:
			    @pl.function(type=pl.FunctionType.InCore)
			    def kern(self, sij: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
			             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
			        t = pl.load(sij, [0, 0], [16, 128], valid_shape=[16, VALID])
			        out = pl.store(t, [0, 0], out)
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, x: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX],
			             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
			        xv = pl.tensor.set_validshape(x, 16, n)
			        out = self.kern(xv, out)
			        return out
			""";

	@Test
	void anUnboundValidShapeSymbolBecomesALeadingIndexParamAndALeadingCallArgument() {
		Program p = PassRunner.after(SRC, "MaterializeValidShapeSymbols");
		Function k = p.function("kern");
		assertEquals(List.of("VALID", "sij__ssa_v0", "out__ssa_v0"), k.params().stream().map(v -> v.name()).toList());
		assertEquals(new Type.Scalar(dev.ptotools.codegen.types.DType.INDEX), k.params().get(0).type());
		assertEquals(List.of(Direction.In, Direction.In, Direction.Out), k.directions());
		// the call sits inside the runtime scope MaterializeRuntimeScopes wrapped the body in
		List<Expr.Call> calls = new java.util.ArrayList<>();
		new dev.ptotools.codegen.passes.util.PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if ("kern".equals(c.functionName())) {
					calls.add(c);
				}
				super.call(c);
			}
		}.stmt(p.function("main").body());
		assertEquals(1, calls.size());
		Expr.Call call = calls.get(0);
		assertEquals(3, call.args().size());
	}
}
