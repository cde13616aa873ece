package dev.ptotools.codegen.emit;

import java.util.List;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * What pypto's kernel code generator (src/codegen/pto/pto_codegen.cpp) checks of each kernel's signature
 * before it writes the kernel's PTO-ISA. This compiler does not write kernel bodies, but a program pypto
 * fails to compile must not get files here either, so the checks whose failure depends only on the IR
 * the passes produce are repeated, with pypto's message: the signature's (pto_codegen.cpp), and the
 * 2-D valid shape of every stored tile (MakeTileStoreCodegenPTO, src/backend/common/pto_ops_memory.cpp:
 * a 1-D tensor computed in a kernel stays a 1-D tile, which pypto cannot store).
 */
public final class KernelCodegenChecks {

	private KernelCodegenChecks() {
	}

	public static void check(Program program) {
		for (Function f : program.functions()) {
			if (f.type() != FunctionType.InCore && f.type() != FunctionType.AIC && f.type() != FunctionType.AIV) {
				continue;
			}
			int distributed = 0;
			int contexts = 0;
			for (Var p : f.params()) {
				if (p.type() instanceof Type.Tensor t && t.distributed()) {
					distributed++;
				} else if (p.type() instanceof Type.CommCtx) {
					contexts++;
				}
			}
			storesOf2dTiles(f);
			// each DistributedTensor parameter is paired with its own CommCtx parameter, in order
			if (distributed != contexts) {
				throw new CodegenException("Failed to compile function '" + f.name() + "': PTOCodegen: function '" + f.name()
						+ "' has " + distributed + " DistributedTensor params but " + contexts + " CommCtxType params",
						f.span());
			}
		}
	}

	private static void storesOf2dTiles(Function f) {
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				if (c.isOp("tile.store") && !c.args().isEmpty() && c.args().get(0).type() instanceof Type.Tile t) {
					List<Expr> valid = t.validShape() != null && !t.validShape().isEmpty() ? t.validShape() : t.shape();
					if (valid.size() != 2) {
						throw new CodegenException("Failed to compile function '" + f.name()
								+ "': tile.store tile valid_shape must be 2D", c.span() != null ? c.span() : f.span());
					}
				}
				super.call(c);
			}
		}.stmt(f.body());
	}
}
