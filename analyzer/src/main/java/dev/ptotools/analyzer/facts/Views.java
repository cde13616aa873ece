package dev.ptotools.analyzer.facts;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * What counts as a pure view for grouped dispatch: tensor.slice (a subscript such as x[r], pl.slice,
 * pl.tensor.slice) and pld.tensor.window (pld.window).
 */
public final class Views {

	private Views() {
	}

	public static boolean isViewCall(CallResolution calls, Expr.Call c) {
		return calls.isBuiltin(c, "tensor.slice") || calls.isBuiltin(c, "pld.tensor.window");
	}

	/** {@code name = view}, where the view holds no call other than views. */
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

	/** A statement with no effect: pass, or a string (a docstring or comment). */
	public static boolean isNeutral(Stmt s) {
		return s instanceof Stmt.Pass
				|| (s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l && l.value() instanceof String);
	}
}
