package dev.ptotools.codegen.passes.util;

import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's FoldParamDimReads (outline_incore_scopes_pass.cpp): before an Opaque function becomes the
 * Orchestration function, each {@code m = tensor.dim(t, <const axis>)} whose extent is a dim symbol of a
 * parameter's shape is deleted and {@code m} replaced by the symbol — what the DSL parser already does
 * in an Orchestration body. One forward walk folds chains because later types get the symbol too.
 */
public final class DimReadFolding {

	private DimReadFolding() {
	}

	public static Stmt foldParamDimReads(List<Var> params, Stmt body) {
		Set<Var> symbols = VarCollectors.identitySet();
		for (Var p : params) {
			if (p.type() instanceof Type.Tensor t) {
				for (Expr d : t.shape()) {
					if (d instanceof Var v) {
						symbols.add(v);
					}
				}
			}
		}
		if (symbols.isEmpty()) {
			return body;
		}
		boolean[] folded = { false };
		Stmt out = new RemapMutator() {
			@Override
			public Stmt assign(Stmt.Assign a) {
				Stmt r = super.assign(a);
				if (r instanceof Stmt.Assign n && n.value() instanceof Expr.Call c && c.isOp("tensor.dim") && c.args().size() == 2
						&& c.args().get(1) instanceof Expr.ConstInt axis && c.args().get(0).type() instanceof Type.Tensor t) {
					long k = axis.value() < 0 ? axis.value() + t.rank() : axis.value();
					if (k >= 0 && k < t.rank() && t.shape().get((int) k) instanceof Var sym && symbols.contains(sym)) {
						remap.put(a.var(), sym);
						folded[0] = true;
						return new Stmt.Seq(List.of(), a.span());
					}
				}
				return r;
			}
		}.stmt(body);
		return folded[0] ? out : body;
	}
}
