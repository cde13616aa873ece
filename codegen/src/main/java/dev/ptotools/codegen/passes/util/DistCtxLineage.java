package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * What MaterializeDistTensorCtx needs to follow a distributed tensor to the communication context it
 * belongs to: which builtin ops return a tensor that is (a view of) one of their arguments (pypto's op
 * registry: {@code set_output_reuses_input(i)}, and in-place-safe ops whose output memory inherits the
 * input's), which parameter each return value of a function is (return_lineage's
 * ExplicitReturnedParamIndices), and the yield that ends a branch.
 */
public final class DistCtxLineage {

	private DistCtxLineage() {
	}

	/** Ops whose result is written into argument i and returned (pypto's GetOutputReusesInputArg). */
	private static final Map<String, Integer> WRITEBACK = Map.ofEntries(Map.entry("tensor.assemble", 0),
			Map.entry("tensor.set_validshape", 0), Map.entry("tile.batch_matmul_acc", 0),
			Map.entry("tile.fillpad_inplace", 0), Map.entry("tile.matmul_acc", 0), Map.entry("tile.gemv_acc", 0),
			Map.entry("tile.matmul_mx_acc", 0), Map.entry("tile.tget_scale_addr", 0), Map.entry("tile.store", 2),
			Map.entry("tile.mscatter", 2), Map.entry("tile.gather_row", 0), Map.entry("tile.scatter", 0),
			Map.entry("tile.scatter_mask", 0), Map.entry("tile.scatter_update", 0));

	/**
	 * Zero-copy views of their first argument (pypto's IsBufferAliasingViewOp: output memory inherits the
	 * input's and the op is in-place safe, which excludes tile.transpose).
	 */
	private static final Set<String> VIEWS = Set.of("tensor.reshape", "tensor.reinterpret_view", "tensor.view",
			"tensor.set_validshape", "tensor.slice", "tile.slice", "tile.reshape", "tile.reinterpret_view",
			"tile.transpose_view", "tile.assemble", "tile.set_validshape", "tile.tget_scale_addr");

	/** pypto's CtxInheritingArgIndex: the argument whose context a builtin call's result keeps, or -1. */
	public static int inheritingArg(Expr.Call c) {
		if (!c.isOp()) {
			return -1;
		}
		Integer wb = WRITEBACK.get(c.name());
		if (wb != null && wb < c.args().size()) {
			return wb;
		}
		return VIEWS.contains(c.name()) && !c.args().isEmpty() ? 0 : -1;
	}

	/**
	 * pypto's ExplicitReturnedParamIndices: for each value of the function's first return statement, the
	 * index of the parameter it is (null when it is not a parameter); empty without a return.
	 */
	public static List<Integer> returnedParamIndices(Function f) {
		Stmt.Return ret = firstReturn(f.body());
		List<Integer> out = new ArrayList<>();
		if (ret == null) {
			return out;
		}
		for (Expr v : ret.values()) {
			int i = v instanceof Var var ? f.paramIndex(var) : -1;
			out.add(i < 0 ? null : i);
		}
		return out;
	}

	private static Stmt.Return firstReturn(Stmt body) {
		if (body instanceof Stmt.Seq q && !q.stmts().isEmpty() && q.stmts().get(q.stmts().size() - 1) instanceof Stmt.Return r) {
			return r;
		}
		Stmt.Return[] found = { null };
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (found[0] != null) {
					return;
				}
				if (s instanceof Stmt.Return r) {
					found[0] = r;
					return;
				}
				super.stmt(s);
			}
		}.stmt(body);
		return found[0];
	}

	/** pypto's FindBranchYield: the yield ending a branch, through statement lists and scopes. */
	public static Stmt.Yield branchYield(Stmt body) {
		if (body == null) {
			return null;
		}
		if (body instanceof Stmt.Yield y) {
			return y;
		}
		if (body instanceof Stmt.Seq q) {
			for (int i = q.stmts().size() - 1; i >= 0; i--) {
				Stmt.Yield y = branchYield(q.stmts().get(i));
				if (y != null) {
					return y;
				}
			}
		}
		if (body instanceof Stmt.Scope sc) {
			return branchYield(sc.body());
		}
		return null;
	}

	/** pypto's auto_name::GetBaseName: the name before its first "__". */
	public static String baseName(String name) {
		int i = name.indexOf("__");
		return i < 0 ? name : name.substring(0, i);
	}
}
