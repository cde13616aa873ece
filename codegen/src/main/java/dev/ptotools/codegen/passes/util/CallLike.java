package dev.ptotools.codegen.passes.util;

import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;

/**
 * A Call or a Submit seen as one call-shaped node (pypto's {@code AsCallOrSubmitView}): analyses that
 * only look at the callee, the positional arguments and the attrs treat both alike. {@code node} is the
 * original expression, the identity to key maps on (Expr records compare by value, so such maps are
 * IdentityHashMaps over nodes).
 */
public record CallLike(Expr node, Expr.Callee callee, List<Expr> args, Map<String, Object> attrs, Type type,
		Span span) {

	/** The view of a Call or Submit, or null for any other expression. */
	public static CallLike of(Expr e) {
		if (e instanceof Expr.Call c) {
			return new CallLike(c, c.callee(), c.args(), c.attrs(), c.type(), c.span());
		}
		if (e instanceof Expr.Submit s) {
			return new CallLike(s, s.callee(), s.args(), s.attrs(), s.type(), s.span());
		}
		return null;
	}

	public boolean isSubmit() {
		return node instanceof Expr.Submit;
	}

	/**
	 * A builtin op (pypto's {@code IsBuiltinOp}: tile., tensor., system., array. and
	 * pld.system.get_comm_ctx); every op callee of this IR is one of those, a program function never is.
	 */
	public boolean isBuiltin() {
		return callee instanceof Expr.Callee.Op;
	}

	/** The called program function's name, or null for an op. */
	public String functionName() {
		return callee instanceof Expr.Callee.Function f ? f.name() : null;
	}

	public String name() {
		return callee.name();
	}

	public boolean isOp(String opName) {
		return callee instanceof Expr.Callee.Op o && o.name().equals(opName);
	}

	/** The node's {@code attrs["arg_directions"]}, or an empty list when it has none. */
	public List<ArgDirection> argDirections() {
		return argDirections(attrs);
	}

	@SuppressWarnings("unchecked")
	public static List<ArgDirection> argDirections(Map<String, Object> attrs) {
		Object v = attrs.get(ArgDirection.ATTR);
		if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof ArgDirection)) {
			return (List<ArgDirection>) l;
		}
		return List.of();
	}

	public boolean hasArgDirections() {
		return attrs.containsKey(ArgDirection.ATTR);
	}
}
