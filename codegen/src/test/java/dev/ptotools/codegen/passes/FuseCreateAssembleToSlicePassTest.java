package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.emit.orchestration.IrPrograms;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;

/** FuseCreateAssembleToSlice on our own programs (what pypto's pass makes of the same sources). */
class FuseCreateAssembleToSlicePassTest {

	private static final String PROGRAM = IrPrograms.HEADER + """
			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.AIV)
			    def fill(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
			        for i, (o,) in pl.range(4, init_values=(out,)):
			            t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
			            t2 = self.fill(x, t)
			            o2 = pl.assemble(o, t2, [i * 16, 0])
			            o3 = pl.yield_(o2)
			        u: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
			        u2 = self.fill(x, u)
			        r1 = pl.assemble(o3, u2, [0, 0])
			        r2 = pl.assemble(r1, u2, [16, 0])
			        return r2
			""";

	private static String ops(Function f) {
		StringBuilder b = new StringBuilder();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c && c.isOp()) {
					b.append(a.var().name()).append('=').append(c.name()).append('(')
							.append(c.args().isEmpty() || !(c.args().get(0) instanceof dev.ptotools.codegen.ir.Var v) ? ""
									: v.name())
							.append(") ");
				}
				if (s instanceof Stmt.For f) {
					b.append("for[").append(f.iterArgs().size()).append("] ");
				}
				super.stmt(s);
			}
		}.stmt(f.body());
		return b.toString().trim();
	}

	@Test
	void aCreateAssembledOnceBecomesASliceOfTheTargetAndTheCarryGoes() {
		Program p = IrPrograms.parseOne(PROGRAM);
		Program fused = new FuseCreateAssembleToSlicePass().run(p, new PassContext(Backend.ASCEND_910B));
		// t is assembled once into the carried out: a slice of out, the assemble and the carry disappear;
		// u is assembled twice: left alone
		assertEquals("for[0] t=tensor.slice(out) u=tensor.create() r1=tensor.assemble(out) r2=tensor.assemble(r1)",
				ops(IrPrograms.orchestration(fused)));
		Program entry = IrPrograms.handBuilt(fused);
		String code = dev.ptotools.codegen.emit.orchestration.OrchestrationCodegen
				.generate(entry, IrPrograms.orchestration(entry), dev.ptotools.codegen.CompileOptions.DEFAULT).code();
		assertTrue(code.contains("ChipTensor t = ext_out.view(t_shapes, t_offsets);"), code);
		assertTrue(code.contains("uint32_t t_offsets[2] = {static_cast<uint32_t>((i * 16)), 0};"), code);
	}
}
