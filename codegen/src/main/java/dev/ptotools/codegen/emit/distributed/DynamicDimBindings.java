package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The {@code pl.dynamic} symbols of a HOST orchestrator's tensor parameters, bound at the top of its body
 * from the runtime shapes (pypto's EmitHostOrchDynamicDimBindings): {@code NR = tensors["x__ssa_v0"].shape[0]},
 * or the inverse of {@code sym + c}, {@code sym - c}, {@code c - sym}, {@code sym * c} or {@code sym // c}.
 */
final class DynamicDimBindings {

	private DynamicDimBindings() {
	}

	private record Source(Var var, String param, int dim, Expr expr) {
	}

	static void emit(DistributedCodegen cg, Function f) {
		Map<Var, Source> best = new LinkedHashMap<>();
		for (Var p : f.params()) {
			if (!(p.type() instanceof Type.Tensor t)) {
				continue;
			}
			String param = DistributedCodegen.sanitize(p.name());
			for (int i = 0; i < t.shape().size(); i++) {
				Expr dim = t.shape().get(i);
				List<Var> vars = new ArrayList<>();
				collectVars(dim, vars);
				for (Var v : vars) {
					Source prev = best.get(v);
					if (prev == null) {
						best.put(v, new Source(v, param, i, dim));
						continue;
					}
					boolean prevOk = !invert(prev.expr(), prev.var(), "S").isEmpty();
					boolean curOk = !invert(dim, v, "S").isEmpty();
					if (!prevOk && curOk) {
						best.put(v, new Source(v, param, i, dim));
					}
				}
			}
		}
		for (Source s : best.values()) {
			String access = "tensors[\"" + s.param() + "\"].shape[" + s.dim() + "]";
			String value = invert(s.expr(), s.var(), access);
			if (value.isEmpty()) {
				throw new CodegenException("Cannot recover dynamic dimension '" + s.var().name() + "' for host-orchestration "
						+ "codegen: it only appears inside non-invertible tensor-shape expressions. Host-slice dynamic dims "
						+ "must be recoverable from a runtime tensor shape via 'var' or a single-var affine form (var +/-/*// "
						+ "const_int); at least one tensor parameter must expose the variable in one of these forms.",
						s.var().span());
			}
			cg.out.line(DistributedCodegen.sanitize(s.var().name()) + " = " + value);
		}
	}

	/** pypto's CollectVarsFromShapeExpr: the variables of a shape expression, first-seen order. */
	private static void collectVars(Expr e, List<Var> out) {
		if (e == null) {
			return;
		}
		if (e instanceof Var v && !(e instanceof IterArg)) {
			if (!out.contains(v)) {
				out.add(v);
			}
		} else if (e instanceof Expr.Binary b) {
			collectVars(b.left(), out);
			collectVars(b.right(), out);
		} else if (e instanceof Expr.Unary u) {
			collectVars(u.operand(), out);
		} else if (e instanceof Expr.Call c) {
			c.args().forEach(a -> collectVars(a, out));
		} else if (e instanceof Expr.TupleGetItem g) {
			collectVars(g.tuple(), out);
		} else if (!(e instanceof Expr.ConstInt || e instanceof Expr.ConstFloat || e instanceof Expr.ConstBool)) {
			throw new CodegenException("CollectVarsFromShapeExpr: unsupported shape expression node", e.span());
		}
	}

	/** pypto's InvertShapeDimForVar; "" when the dimension does not invert for v. */
	static String invert(Expr dim, Var v, String s) {
		if (dim == v) {
			return s;
		}
		if (!(dim instanceof Expr.Binary b)) {
			return "";
		}
		Long lc = b.left() instanceof Expr.ConstInt c ? c.value() : null;
		Long rc = b.right() instanceof Expr.ConstInt c ? c.value() : null;
		boolean lv = b.left() == v;
		boolean rv = b.right() == v;
		switch (b.op()) {
		case Add:
			if (lv && rc != null) {
				return "(" + s + " - " + rc + ")";
			}
			if (rv && lc != null) {
				return "(" + s + " - " + lc + ")";
			}
			return "";
		case Sub:
			if (lv && rc != null) {
				return "(" + s + " + " + rc + ")";
			}
			if (rv && lc != null) {
				return "(" + lc + " - " + s + ")";
			}
			return "";
		case Mul:
			if (lv && rc != null && rc != 0) {
				return "(" + s + " // " + rc + ")";
			}
			if (rv && lc != null && lc != 0) {
				return "(" + s + " // " + lc + ")";
			}
			return "";
		case FloorDiv:
			if (lv && rc != null && rc != 0) {
				return "(" + s + " * " + rc + ")";
			}
			return "";
		default:
			return "";
		}
	}
}
