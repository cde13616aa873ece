package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * What counts as a pure view for grouped dispatch: tensor.slice (pl.slice, pl.tensor.slice, and the
 * subscripts pypto's parser makes a slice) and pld.tensor.window (pld.window). The overloads that
 * take {@link SubscriptOps} judge subscripts as pypto's parser builds them (a full-rank all-scalar
 * subscript is a tensor.read, a subscript assignment a tensor.assemble); the older ones take every
 * subscript for a view.
 */
public final class Views {

	/** ast_parser.py parse_evaluation_statement: statements it consumes without emitting IR. */
	private static final Set<String> COMPILE_TIME_ONLY = Set.of("static_print", "static_assert");

	private Views() {
	}

	public static boolean isViewCall(CallResolution calls, Expr.Call c) {
		return calls.isBuiltin(c, "tensor.slice") || calls.isBuiltin(c, "pld.tensor.window");
	}

	/** {@code name = view}, where the view holds no call other than views; every subscript counts as a view. */
	public static boolean isViewAssignment(CallResolution calls, Stmt s) {
		if (!(s instanceof Stmt.Assign a) || a.value() == null || a.targets().size() != 1
				|| !(a.targets().get(0) instanceof Expr.Name)) {
			return false;
		}
		Expr v = a.value();
		boolean view = v instanceof Expr.Subscript || (v instanceof Expr.Call c && isViewCall(calls, c));
		if (!view) {
			return false;
		}
		for (Expr.Call c : Walk.calls(v)) {
			if (!isViewCall(calls, c)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * {@code name = view} as pypto's IR has it: the value is a view call or a subscript the parser
	 * makes a slice (or a tuple item, which is no call), and nothing under it is a call other than a
	 * view, element reads included.
	 */
	public static boolean isViewAssignment(CallResolution calls, SubscriptOps subs, Stmt s) {
		if (!(s instanceof Stmt.Assign a) || a.value() == null || a.targets().size() != 1
				|| !(a.targets().get(0) instanceof Expr.Name)) {
			return false;
		}
		Expr v = a.value();
		boolean view = v instanceof Expr.Subscript sub
				? subs.of(sub).isView() || subs.of(sub) == SubscriptOps.Op.TUPLE_ITEM
				: v instanceof Expr.Call c && isViewCall(calls, c);
		return view && otherCalls(calls, subs, v).isEmpty();
	}

	/**
	 * Every place under an expression where pypto's IR has a call that is not a view, in source order:
	 * calls ({@link Expr.Call}) and subscripts the parser makes an element read ({@link Expr.Subscript}).
	 */
	public static List<Expr> otherCalls(CallResolution calls, SubscriptOps subs, Expr root) {
		List<Expr> out = new ArrayList<>();
		Walk.expressions(root, e -> {
			if (e instanceof Expr.Call c && !isViewCall(calls, c)) {
				out.add(c);
			} else if (e instanceof Expr.Subscript s && subs.of(s).isCall()) {
				out.add(s);
			}
		});
		out.sort((x, y) -> Integer.compare(x.span().start(), y.span().start()));
		return out;
	}

	/** The subscript-write targets of an assignment ({@code y[r] = ...}), in order. */
	public static List<Expr.Subscript> writes(Stmt s) {
		List<Expr.Subscript> out = new ArrayList<>();
		List<Expr> targets = s instanceof Stmt.Assign a ? a.targets()
				: s instanceof Stmt.AugAssign a ? List.of(a.target()) : List.of();
		for (Expr t : targets) {
			collectWrites(t, out);
		}
		return out;
	}

	private static void collectWrites(Expr t, List<Expr.Subscript> out) {
		if (t instanceof Expr.Subscript s) {
			out.add(s);
		} else if (t instanceof Expr.TupleExpr tuple) {
			tuple.elts().forEach(e -> collectWrites(e, out));
		} else if (t instanceof Expr.ListExpr list) {
			list.elts().forEach(e -> collectWrites(e, out));
		} else if (t instanceof Expr.Starred st) {
			collectWrites(st.value(), out);
		}
	}

	/**
	 * A statement with no effect on the IR: pass, a string (a docstring or comment), or a
	 * compile-time-only call ({@link #isCompileTimeOnly}).
	 */
	public static boolean isNeutral(Stmt s) {
		return s instanceof Stmt.Pass
				|| (s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l && l.value() instanceof String)
				|| isCompileTimeOnly(s);
	}

	/**
	 * {@code pl.static_print(...)} or {@code pl.static_assert(...)} as a statement, which pypto's parser
	 * runs at parse time and emits no IR for. It recognises them by name alone, {@code x.static_print(...)}
	 * or bare {@code static_print(...)} (ast_parser.py _is_dsl_call), so this does too.
	 */
	public static boolean isCompileTimeOnly(Stmt s) {
		if (!(s instanceof Stmt.ExprStmt e) || !(e.value() instanceof Expr.Call c)) {
			return false;
		}
		String name = c.func() instanceof Expr.Attribute a ? a.attr() : c.func() instanceof Expr.Name n ? n.id() : null;
		return name != null && COMPILE_TIME_ONLY.contains(name);
	}
}
