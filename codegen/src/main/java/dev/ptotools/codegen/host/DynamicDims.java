package dev.ptotools.codegen.host;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;

/**
 * Recovers a {@code pl.dynamic} symbol from a runtime tensor extent, as pypto's InvertShapeDimForVar:
 * the extent itself, or a single-symbol affine form ({@code v + c}, {@code v - c}, {@code c - v},
 * {@code v * c}, {@code v // c}) inverted.
 */
final class DynamicDims {

	private DynamicDims() {
	}

	/** The Python expression giving the symbol, or null when the form is not invertible. */
	static String invert(ConstEval eval, Expr dim, String symbol, String access) {
		if (isSymbol(eval, dim, symbol)) {
			return access;
		}
		if (!(dim instanceof Expr.BinOp b)) {
			return null;
		}
		Long lc = eval.asLong(b.left());
		Long rc = eval.asLong(b.right());
		boolean lv = isSymbol(eval, b.left(), symbol);
		boolean rv = isSymbol(eval, b.right(), symbol);
		switch (b.op()) {
		case "+":
			if (lv && rc != null) {
				return "(" + access + " - " + rc + ")";
			}
			if (rv && lc != null) {
				return "(" + access + " - " + lc + ")";
			}
			return null;
		case "-":
			if (lv && rc != null) {
				return "(" + access + " + " + rc + ")";
			}
			if (rv && lc != null) {
				return "(" + lc + " - " + access + ")";
			}
			return null;
		case "*":
			if (lv && rc != null) {
				return "(" + access + " // " + rc + ")";
			}
			if (rv && lc != null) {
				return "(" + access + " // " + lc + ")";
			}
			return null;
		case "//":
			if (lv && rc != null) {
				return "(" + access + " * " + rc + ")";
			}
			return null;
		default:
			return null;
		}
	}

	private static boolean isSymbol(ConstEval eval, Expr e, String symbol) {
		return e instanceof Expr.Name n && eval.eval(n) instanceof Values.DynVar d && d.name().equals(symbol);
	}
}
