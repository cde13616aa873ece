package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * Which parameter each returned value of a function is (pypto's
 * return_lineage::ExplicitReturnedParamIndices): read off the function's first return statement by
 * identity, so it is exact once NormalizeReturnOrder made kernels return their parameters.
 */
public final class ReturnedParams {

	private ReturnedParams() {
	}

	/**
	 * Per returned value, the index of the parameter it is, or null; empty when the function has no
	 * return with values.
	 */
	public static List<Integer> indices(Function f) {
		if (f == null || f.body() == null) {
			return List.of();
		}
		Stmt.Return ret = firstReturn(f.body());
		if (ret == null || ret.values().isEmpty()) {
			return List.of();
		}
		List<Integer> out = new ArrayList<>();
		for (Expr v : ret.values()) {
			int idx = v instanceof Var var ? f.paramIndex(var) : -1;
			out.add(idx >= 0 ? idx : null);
		}
		return Collections.unmodifiableList(out);
	}

	/** The parameter index of the first returned value, or null. */
	public static Integer firstIndex(Function f) {
		List<Integer> idx = indices(f);
		return idx.isEmpty() ? null : idx.get(0);
	}

	/** The topmost return: the last statement of the body's Seq, else the first one found in order. */
	public static Stmt.Return firstReturn(Stmt body) {
		if (body instanceof Stmt.Seq q && !q.stmts().isEmpty() && q.stmts().get(q.stmts().size() - 1) instanceof Stmt.Return r) {
			return r;
		}
		Stmt.Return[] found = new Stmt.Return[1];
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Return r) {
					if (found[0] == null) {
						found[0] = r;
					}
					return;
				}
				super.stmt(s);
			}
		}.stmt(body);
		return found[0];
	}
}
