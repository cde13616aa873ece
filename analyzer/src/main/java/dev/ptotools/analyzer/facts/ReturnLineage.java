package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * Which parameter each returned value of a function is, as pypto's NormalizeReturnOrder makes it
 * explicit: a returned name is traced back through copies ({@code y = x}), builtin write-backs
 * ({@code pl.store(tile, offsets, out)} returns {@code out}, {@code pl.assemble(target, ...)} returns
 * {@code target}) and calls of program functions (through the callee's own map) to a parameter.
 * Codegen needs it to alias a call's result to the argument the callee writes.
 */
public final class ReturnLineage {

	private ReturnLineage() {
	}

	/**
	 * Per returned position, the parameter index it traces to, or -1. Empty when the function has no
	 * top-level return with a value.
	 */
	public static List<Integer> returnedParams(Function f, CallResolution calls) {
		return returnedParams(f, calls, new HashSet<>());
	}

	/** The parameter the first returned value traces to, or -1. */
	public static int returnedParam(Function f, CallResolution calls) {
		List<Integer> r = returnedParams(f, calls);
		return r.isEmpty() ? -1 : r.get(0);
	}

	private static List<Integer> returnedParams(Function f, CallResolution calls, Set<Function> active) {
		if (!active.add(f)) {
			return List.of(); // recursion: give up rather than loop
		}
		try {
			Stmt.Return ret = null;
			for (Stmt s : f.body()) {
				if (s instanceof Stmt.Return r) {
					ret = r;
					break;
				}
			}
			if (ret == null || ret.value() == null) {
				return List.of();
			}
			List<Expr> values = ret.value() instanceof Expr.TupleExpr t ? t.elts() : List.of(ret.value());
			FunctionScope scope = new FunctionScope(f, calls);
			List<Integer> out = new ArrayList<>();
			for (Expr v : values) {
				out.add(trace(v, ret.span().start(), f, scope, calls, active));
			}
			return Collections.unmodifiableList(out);
		} finally {
			active.remove(f);
		}
	}

	private static int trace(Expr e, int offset, Function f, FunctionScope scope, CallResolution calls,
			Set<Function> active) {
		for (int hops = 0; hops < 64; hops++) {
			if (!(e instanceof Expr.Name n)) {
				return -1;
			}
			Stmt.Assign a = lastBinding(scope, n.id(), offset);
			if (a == null) {
				return paramIndex(f, n.id());
			}
			offset = a.span().start();
			Expr target = a.targets().get(0);
			Expr value = a.value();
			if (target instanceof Expr.TupleExpr t && value instanceof Expr.Call c) {
				int pos = t.elts().indexOf(findName(t, n.id()));
				Function callee = calls.target(c);
				if (callee == null || pos < 0) {
					return -1;
				}
				List<Integer> map = returnedParams(callee, calls, active);
				if (pos >= map.size() || map.get(pos) < 0 || map.get(pos) >= c.args().size()) {
					return -1;
				}
				e = c.args().get(map.get(pos));
				continue;
			}
			if (value instanceof Expr.Name) {
				e = value;
				continue;
			}
			if (value instanceof Expr.Call c) {
				int arg = writebackArg(c, calls);
				if (arg < 0) {
					Function callee = calls.target(c);
					if (callee == null) {
						return -1;
					}
					List<Integer> map = returnedParams(callee, calls, active);
					arg = map.size() == 1 ? map.get(0) : -1;
				}
				if (arg < 0 || arg >= c.args().size()) {
					return -1;
				}
				e = c.args().get(arg);
				continue;
			}
			return -1;
		}
		return -1;
	}

	/** The argument a builtin returns in place (pypto's set_output_reuses_input), or -1. */
	public static int writebackArg(Expr.Call c, CallResolution calls) {
		if (calls.isBuiltin(c, "tile.store") || calls.isBuiltin(c, "tile.mscatter")) {
			return 2;
		}
		if (calls.isBuiltin(c, "tensor.assemble") || calls.isBuiltin(c, "tensor.set_validshape")
				|| calls.isBuiltin(c, "tile.scatter_update")) {
			return 0;
		}
		return -1;
	}

	private static Expr findName(Expr.TupleExpr t, String name) {
		for (Expr x : t.elts()) {
			if (x instanceof Expr.Name n && n.id().equals(name)) {
				return x;
			}
		}
		return null;
	}

	/** The last assignment binding a name (alone or in a tuple target) before an offset. */
	private static Stmt.Assign lastBinding(FunctionScope scope, String name, int offset) {
		Stmt.Assign found = null;
		for (Stmt.Assign a : scope.assignmentsOf(name)) {
			if (a.span().start() < offset && a.value() != null && a.targets().size() == 1) {
				found = a;
			}
		}
		return found;
	}

	private static int paramIndex(Function f, String name) {
		for (int i = 0; i < f.params().size(); i++) {
			if (f.params().get(i).name().equals(name)) {
				return i;
			}
		}
		return -1;
	}
}
