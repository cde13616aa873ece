package dev.ptotools.codegen.host;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Python expressions of host_orch.py (pypto's distributed_scalar_expr_codegen): every binary node
 * parenthesised, closure constants folded as pypto's parser folds them, {@code pld.world_size()} as the
 * {@code world_size} keyword argument of the generated function.
 */
final class PyExprs {

	private final CallResolution calls;
	private final ConstEval eval;
	private final FunctionScope scope;
	/** Names bound in the function (parameters and locals): these shadow closure constants. */
	private final Set<String> locals;

	PyExprs(CallResolution calls, ConstEval eval, FunctionScope scope, Set<String> locals) {
		this.calls = calls;
		this.eval = eval;
		this.scope = scope;
		this.locals = locals;
	}

	String render(Expr e) {
		return render(e, false, Integer.MAX_VALUE);
	}

	/**
	 * Renders with local names unwrapped to their defining expressions made before {@code offset}
	 * (pypto unwraps hoisted temps in comm-buffer sizes, which are written before the body).
	 */
	String renderUnwrapped(Expr e, int offset) {
		return render(e, true, offset);
	}

	private String render(Expr e, boolean unwrap, int offset) {
		if (foldable(e)) {
			String c = constant(eval.eval(e));
			if (c != null) {
				return c;
			}
		}
		if (e instanceof Expr.Literal l) {
			String c = constant(l.value());
			if (c == null) {
				throw new CodegenException("unsupported literal in host orchestration", e.span());
			}
			return c;
		}
		if (e instanceof Expr.Name n) {
			if (locals.contains(n.id())) {
				if (unwrap) {
					Stmt.Assign def = scope.lastAssignmentBefore(n.id(), offset);
					if (def != null && def.value() != null) {
						return render(def.value(), true, def.span().start());
					}
				}
				return sanitize(n.id());
			}
			Object v = eval.eval(n);
			if (v instanceof Values.DynVar d) {
				return sanitize(d.name());
			}
			String c = constant(v);
			if (c == null) {
				throw new CodegenException("Undefined variable '" + n.id() + "'", n.span());
			}
			return c;
		}
		if (e instanceof Expr.BinOp b) {
			return "(" + render(b.left(), unwrap, offset) + " " + b.op() + " " + render(b.right(), unwrap, offset) + ")";
		}
		if (e instanceof Expr.UnaryOp u) {
			String x = render(u.operand(), unwrap, offset);
			return switch (u.op()) {
			case "-" -> "(-" + x + ")";
			case "not" -> "(not " + x + ")";
			case "~" -> "(~" + x + ")";
			default -> x;
			};
		}
		if (e instanceof Expr.Compare c && c.ops().size() == 1) {
			return "(" + render(c.left(), unwrap, offset) + " " + c.ops().get(0) + " "
					+ render(c.comparators().get(0), unwrap, offset) + ")";
		}
		if (e instanceof Expr.BoolOp b) {
			String acc = render(b.values().get(0), unwrap, offset);
			for (int i = 1; i < b.values().size(); i++) {
				acc = "(" + acc + " " + b.op() + " " + render(b.values().get(i), unwrap, offset) + ")";
			}
			return acc;
		}
		if (e instanceof Expr.Call c && c.args().isEmpty() && constant(eval.eval(c)) != null) {
			return constant(eval.eval(c)); // pl.FP32.get_byte() and other closure-evaluated calls
		}
		if (e instanceof Expr.Call c) {
			if (c.args().isEmpty() && calls.isBuiltin(c, "pld.system.world_size")) {
				return "world_size";
			}
			String f = c.funcText();
			if (("min".equals(f) || "max".equals(f)) && c.args().size() == 2) {
				return f + "(" + render(c.args().get(0), unwrap, offset) + ", " + render(c.args().get(1), unwrap, offset)
						+ ")";
			}
			if (("abs".equals(f) || "int".equals(f) || "float".equals(f) || "bool".equals(f)) && c.args().size() == 1) {
				return f + "(" + render(c.args().get(0), unwrap, offset) + ")";
			}
		}
		throw new CodegenException("expression not supported in a HOST orchestrator", e.span());
	}

	/** pypto's parser folds arithmetic whose leaves are literals and closure names only. */
	boolean foldable(Expr e) {
		if (!(e instanceof Expr.BinOp || (e instanceof Expr.UnaryOp u && (u.op().equals("-") || u.op().equals("+"))))) {
			return false;
		}
		return leaves(e);
	}

	private boolean leaves(Expr e) {
		if (e instanceof Expr.Literal l) {
			return l.value() instanceof Long || l.value() instanceof Double || l.value() instanceof Boolean;
		}
		if (e instanceof Expr.Name n) {
			Object v = eval.eval(n);
			return !locals.contains(n.id()) && (v instanceof Long || v instanceof Double || v instanceof Boolean);
		}
		if (e instanceof Expr.BinOp b) {
			return leaves(b.left()) && leaves(b.right());
		}
		if (e instanceof Expr.UnaryOp u) {
			return (u.op().equals("-") || u.op().equals("+")) && leaves(u.operand());
		}
		return false;
	}

	static String constant(Object v) {
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (v instanceof Long l) {
			return Long.toString(l);
		}
		if (v instanceof Double d) {
			return String.format(Locale.ROOT, "%f", d);
		}
		return null;
	}

	/** A shape as a Python tuple literal: rank 1 keeps a trailing comma. */
	String tuple(List<Expr> shape) {
		StringBuilder b = new StringBuilder("(");
		for (int i = 0; i < shape.size(); i++) {
			if (i > 0) {
				b.append(", ");
			}
			b.append(render(shape.get(i)));
		}
		if (shape.size() == 1) {
			b.append(',');
		}
		return b.append(')').toString();
	}

	/** pypto's SanitizeName: dots become underscores. */
	static String sanitize(String name) {
		return name.replace('.', '_');
	}
}
