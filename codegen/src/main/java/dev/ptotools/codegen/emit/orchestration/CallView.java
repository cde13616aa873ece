package dev.ptotools.codegen.emit.orchestration;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.CallLike;

/**
 * A Call, or a Submit seen as one (pypto's SubmitToCallView): the Submit's deps become
 * {@code attrs["manual_dep_edges"]}, its core count and sync-start flag the {@code core_num} and
 * {@code sync_start} attrs, so task emission reads every launch the same way.
 */
record CallView(Expr node, Expr.Callee callee, List<Expr> args, Map<String, Object> kwargs, Map<String, Object> attrs,
		Type type, Span span) {

	static CallView of(Expr e) {
		if (e instanceof Expr.Call c) {
			return new CallView(c, c.callee(), c.args(), c.kwargs(), c.attrs(), c.type(), c.span());
		}
		if (e instanceof Expr.Submit s) {
			Map<String, Object> attrs = new LinkedHashMap<>();
			for (Map.Entry<String, Object> a : s.attrs().entrySet()) {
				String k = a.getKey();
				if (!k.equals("manual_dep_edges") && !k.equals("core_num") && !k.equals("sync_start")) {
					attrs.put(k, a.getValue());
				}
			}
			if (!s.deps().isEmpty()) {
				attrs.put("manual_dep_edges", s.deps());
			}
			if (s.coreNum() != null) {
				attrs.put("core_num", s.coreNum());
			}
			if (s.syncStart()) {
				attrs.put("sync_start", true);
			}
			return new CallView(s, s.callee(), s.args(), Map.of(), attrs, s.type(), s.span());
		}
		return null;
	}

	boolean isOp(String name) {
		return callee instanceof Expr.Callee.Op o && o.name().equals(name);
	}

	boolean isBuiltin() {
		return callee instanceof Expr.Callee.Op;
	}

	String name() {
		return callee.name();
	}

	Object attr(String key) {
		return attrs.get(key);
	}

	boolean boolAttr(String key) {
		return Boolean.TRUE.equals(attrs.get(key));
	}

	Object kwarg(String key) {
		return kwargs.get(key);
	}

	List<ArgDirection> argDirections() {
		return CallLike.argDirections(attrs);
	}

	/** A Var-list attr ({@code manual_dep_edges}, {@code dump_vars}); entries that are not Vars are skipped. */
	List<Var> varListAttr(String key) {
		Object v = attrs.get(key);
		if (!(v instanceof List<?> l)) {
			return List.of();
		}
		List<Var> out = new java.util.ArrayList<>();
		for (Object o : l) {
			if (o instanceof Var var) {
				out.add(var);
			}
		}
		return out;
	}

	/**
	 * A pl.submit or an {@code as tid} scope call: a tuple type whose last element is a TaskId (pypto's
	 * IsSubmitCall).
	 */
	boolean isSubmitCall() {
		return type instanceof Type.Tuple t && !t.elements().isEmpty()
				&& t.elements().get(t.elements().size() - 1) instanceof Type.Scalar s
				&& s.dtype() == dev.ptotools.codegen.types.DType.TASK_ID;
	}
}
