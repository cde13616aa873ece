package dev.ptotools.codegen.passes.util;

import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Var;

/**
 * Structural equality of expressions ignoring spans (pypto's AreExprsEqual for the scalar shape
 * expressions it compares): Vars by identity, constants by value and dtype, operators by kind and
 * operands.
 */
public final class StructuralExprEquality {

	private StructuralExprEquality() {
	}

	public static boolean equal(Expr a, Expr b) {
		if (a == b) {
			return true;
		}
		if (a == null || b == null) {
			return false;
		}
		if (a instanceof Var || b instanceof Var) {
			return false; // identity only
		}
		if (a instanceof Expr.ConstInt x && b instanceof Expr.ConstInt y) {
			return x.value() == y.value() && x.dtype() == y.dtype();
		}
		if (a instanceof Expr.ConstFloat x && b instanceof Expr.ConstFloat y) {
			return Double.compare(x.value(), y.value()) == 0 && x.dtype() == y.dtype();
		}
		if (a instanceof Expr.ConstBool x && b instanceof Expr.ConstBool y) {
			return x.value() == y.value();
		}
		if (a instanceof Expr.Binary x && b instanceof Expr.Binary y) {
			return x.op() == y.op() && x.dtype() == y.dtype() && equal(x.left(), y.left()) && equal(x.right(), y.right());
		}
		if (a instanceof Expr.Unary x && b instanceof Expr.Unary y) {
			return x.op() == y.op() && x.dtype() == y.dtype() && equal(x.operand(), y.operand());
		}
		if (a instanceof Expr.MakeTuple x && b instanceof Expr.MakeTuple y) {
			return equal(x.elements(), y.elements());
		}
		if (a instanceof Expr.TupleGetItem x && b instanceof Expr.TupleGetItem y) {
			return x.index() == y.index() && equal(x.tuple(), y.tuple());
		}
		return false;
	}

	public static boolean equal(List<Expr> a, List<Expr> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (int i = 0; i < a.size(); i++) {
			if (!equal(a.get(i), b.get(i))) {
				return false;
			}
		}
		return true;
	}
}
