package dev.ptotools.codegen.passes.util.arith;

import java.util.List;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Expr.UnaryOp;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Scalar expression construction and constant folding as pypto does them (include/pypto/ir/scalar_expr.h
 * Make* with dtype promotion, include/pypto/ir/arith/const_fold.h): the simplifier's output depends on
 * which operand's dtype a folded constant gets and where casts appear.
 */
public final class Arith {

	private Arith() {
	}

	public static DType dtype(Expr e) {
		return e.type() instanceof Type.Scalar s ? s.dtype() : null;
	}

	public static boolean isFloat(Expr e) {
		DType d = dtype(e);
		return d != null && d.isFloat();
	}

	public static Expr.ConstInt constInt(long v, DType d) {
		return new Expr.ConstInt(v, d, Span.NONE);
	}

	public static Expr.ConstBool constBool(boolean v) {
		return new Expr.ConstBool(v, Span.NONE);
	}

	private static boolean isUnsigned(DType d) {
		return d.name().startsWith("UINT");
	}

	/** pypto's PromoteSameCategoryDtype. */
	private static DType promote(DType l, DType r, String op) {
		if (l == DType.BOOL || r == DType.BOOL) {
			throw new CodegenException("Operator '" + op + "' does not accept bool dtype", Span.NONE);
		}
		if (l.isFloat() != r.isFloat()) {
			throw new CodegenException("Operator '" + op + "' requires same numeric dtype category, got " + l.text() + " and "
					+ r.text(), Span.NONE);
		}
		if (l.bits() > r.bits()) {
			return l;
		}
		if (r.bits() > l.bits()) {
			return r;
		}
		return l;
	}

	/** pypto's MaybeCast: no cast between equal dtypes nor between INDEX and INT64. */
	private static Expr maybeCast(Expr e, DType target) {
		DType d = dtype(e);
		if (d == target || (d == DType.INDEX && target == DType.INT64) || (d == DType.INT64 && target == DType.INDEX)) {
			return e;
		}
		return new Expr.Unary(UnaryOp.Cast, e, target, Span.NONE);
	}

	private static String opName(BinaryOp op) {
		return switch (op) {
		case Add -> "add";
		case Sub -> "sub";
		case Mul -> "mul";
		case FloatDiv -> "truediv";
		case FloorDiv -> "floordiv";
		case FloorMod -> "mod";
		case Pow -> "pow";
		case Eq -> "eq";
		case Ne -> "ne";
		case Lt -> "lt";
		case Le -> "le";
		case Gt -> "gt";
		case Ge -> "ge";
		case Min -> "min";
		case Max -> "max";
		case BitAnd -> "bit_and";
		case BitOr -> "bit_or";
		case BitXor -> "bit_xor";
		case BitShiftLeft -> "bit_shift_left";
		case BitShiftRight -> "bit_shift_right";
		default -> op.name().toLowerCase();
		};
	}

	/** pypto's Make&lt;Op&gt;: operands promoted to a common dtype; comparisons and logic are BOOL. */
	public static Expr make(BinaryOp op, Expr l, Expr r, Span span) {
		if (op == BinaryOp.And || op == BinaryOp.Or || op == BinaryOp.Xor) {
			return new Expr.Binary(op, l, r, DType.BOOL, span);
		}
		DType p = promote(dtype(l), dtype(r), opName(op));
		Expr pl = maybeCast(l, p);
		Expr pr = maybeCast(r, p);
		DType result = op.isComparison() ? DType.BOOL : p;
		return new Expr.Binary(op, pl, pr, result, span);
	}

	public static Expr make(BinaryOp op, Expr l, Expr r) {
		return make(op, l, r, Span.NONE);
	}

	public static Expr makeUnary(UnaryOp op, Expr operand, Span span) {
		return switch (op) {
		case Not -> new Expr.Unary(op, operand, DType.BOOL, span);
		default -> new Expr.Unary(op, operand, dtype(operand), span);
		};
	}

	public static Expr not(Expr e) {
		return new Expr.Unary(UnaryOp.Not, e, DType.BOOL, e.span());
	}

	// ── constant folding (const_fold.h) ────────────────────────────────────

	public static long floorDiv(long a, long b) {
		return Math.floorDiv(a, b);
	}

	public static long floorMod(long a, long b) {
		return Math.floorMod(a, b);
	}

	private static boolean isConst(Expr e, long v) {
		return (e instanceof Expr.ConstInt c && c.value() == v) || (e instanceof Expr.ConstFloat f && f.value() == v);
	}

	/** pypto's TryConstFoldBinary; null when nothing folds. */
	public static Expr foldBinary(BinaryOp op, Expr lhs, Expr rhs) {
		if (op == BinaryOp.And || op == BinaryOp.Or || op == BinaryOp.Xor) {
			Boolean a = lhs instanceof Expr.ConstBool b ? b.value() : null;
			Boolean b = rhs instanceof Expr.ConstBool c ? c.value() : null;
			if (op == BinaryOp.And) {
				if (a != null) {
					return a ? rhs : lhs;
				}
				if (b != null) {
					return b ? lhs : rhs;
				}
				return null;
			}
			if (op == BinaryOp.Or) {
				if (a != null) {
					return a ? lhs : rhs;
				}
				if (b != null) {
					return b ? rhs : lhs;
				}
				return null;
			}
			return a != null && b != null ? constBool(a != b) : null;
		}
		Expr.ConstInt pa = lhs instanceof Expr.ConstInt c ? c : null;
		Expr.ConstInt pb = rhs instanceof Expr.ConstInt c ? c : null;
		Expr.ConstFloat fa = lhs instanceof Expr.ConstFloat c ? c : null;
		Expr.ConstFloat fb = rhs instanceof Expr.ConstFloat c ? c : null;
		switch (op) {
		case Add:
			if (pa != null && pb != null) {
				try {
					return constInt(Math.addExact(pa.value(), pb.value()), pa.dtype());
				} catch (ArithmeticException e) {
					return null;
				}
			}
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(fa.value() + fb.value(), fa.dtype(), Span.NONE);
			}
			if (isConst(lhs, 0)) {
				return rhs;
			}
			if (isConst(rhs, 0)) {
				return lhs;
			}
			return null;
		case Sub:
			if (pa != null && pb != null) {
				try {
					return constInt(Math.subtractExact(pa.value(), pb.value()), pa.dtype());
				} catch (ArithmeticException e) {
					return null;
				}
			}
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(fa.value() - fb.value(), fa.dtype(), Span.NONE);
			}
			return isConst(rhs, 0) ? lhs : null;
		case Mul:
			if (pa != null && pb != null) {
				try {
					return constInt(Math.multiplyExact(pa.value(), pb.value()), pa.dtype());
				} catch (ArithmeticException e) {
					return null;
				}
			}
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(fa.value() * fb.value(), fa.dtype(), Span.NONE);
			}
			if (isConst(lhs, 1)) {
				return rhs;
			}
			if (isConst(rhs, 1)) {
				return lhs;
			}
			if (pa != null && pa.value() == 0) {
				return lhs;
			}
			if (pb != null && pb.value() == 0) {
				return rhs;
			}
			return null;
		case FloorDiv:
			if (pb != null && pb.value() == 0) {
				throw new CodegenException("Floor division by zero", rhs.span());
			}
			if (pa != null && pb != null) {
				return constInt(floorDiv(pa.value(), pb.value()), pa.dtype());
			}
			return pb != null && pb.value() == 1 ? lhs : null;
		case FloorMod:
			if (pb != null && pb.value() == 0) {
				throw new CodegenException("Floor modulo by zero", rhs.span());
			}
			if (pa != null && pb != null) {
				return constInt(floorMod(pa.value(), pb.value()), pa.dtype());
			}
			return pb != null && pb.value() == 1 ? constInt(0, pb.dtype()) : null;
		case FloatDiv:
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(fa.value() / fb.value(), fa.dtype(), Span.NONE);
			}
			return fb != null && fb.value() == 1 ? lhs : null;
		case Pow:
			return foldPow(lhs, rhs, pa, pb, fa, fb);
		case Min:
			if (pa != null && pb != null) {
				return constInt(Math.min(pa.value(), pb.value()), pa.dtype());
			}
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(Math.min(fa.value(), fb.value()), fa.dtype(), Span.NONE);
			}
			return lhs == rhs ? lhs : null;
		case Max:
			if (pa != null && pb != null) {
				return constInt(Math.max(pa.value(), pb.value()), pa.dtype());
			}
			if (fa != null && fb != null) {
				return new Expr.ConstFloat(Math.max(fa.value(), fb.value()), fa.dtype(), Span.NONE);
			}
			return lhs == rhs ? lhs : null;
		case Eq:
		case Ne:
		case Lt:
		case Le:
		case Gt:
		case Ge:
			if (pa != null && pb != null) {
				return constBool(compare(op, Long.compare(pa.value(), pb.value())));
			}
			if (fa != null && fb != null) {
				return constBool(compare(op, Double.compare(fa.value(), fb.value())));
			}
			return null;
		case BitAnd:
			return pa != null && pb != null ? constInt(pa.value() & pb.value(), pa.dtype()) : null;
		case BitOr:
			return pa != null && pb != null ? constInt(pa.value() | pb.value(), pa.dtype()) : null;
		case BitXor:
			return pa != null && pb != null ? constInt(pa.value() ^ pb.value(), pa.dtype()) : null;
		case BitShiftLeft:
			return pa != null && pb != null && pb.value() >= 0 && pb.value() < 64
					? constInt(pa.value() << pb.value(), pa.dtype())
					: null;
		case BitShiftRight:
			return pa != null && pb != null && pb.value() >= 0 && pb.value() < 64
					? constInt(pa.value() >> pb.value(), pa.dtype())
					: null;
		default:
			return null;
		}
	}

	private static boolean compare(BinaryOp op, int c) {
		return switch (op) {
		case Eq -> c == 0;
		case Ne -> c != 0;
		case Lt -> c < 0;
		case Le -> c <= 0;
		case Gt -> c > 0;
		default -> c >= 0;
		};
	}

	private static Expr foldPow(Expr lhs, Expr rhs, Expr.ConstInt pa, Expr.ConstInt pb, Expr.ConstFloat fa,
			Expr.ConstFloat fb) {
		if (pa != null && pb != null) {
			if (pb.value() < 0) {
				throw new CodegenException("Integer power requires non-negative exponent, got " + pb.value(), rhs.span());
			}
			long result = 1;
			long cur = pa.value();
			long e = pb.value();
			try {
				while (e > 0) {
					if ((e & 1) != 0) {
						result = Math.multiplyExact(result, cur);
					}
					e >>= 1;
					if (e > 0) {
						cur = Math.multiplyExact(cur, cur);
					}
				}
			} catch (ArithmeticException ex) {
				return null;
			}
			return constInt(result, pa.dtype());
		}
		if (fa != null && fb != null) {
			return new Expr.ConstFloat(Math.pow(fa.value(), fb.value()), fa.dtype(), Span.NONE);
		}
		if (isConst(lhs, 1)) {
			return lhs;
		}
		if (pb != null && pb.value() == 0) {
			DType d = pa != null ? pa.dtype() : dtype(lhs);
			return d.isFloat() ? new Expr.ConstFloat(1.0, d, Span.NONE) : constInt(1, d);
		}
		return isConst(rhs, 1) ? lhs : null;
	}

	/** pypto's TryConstFoldUnary; Cast never folds. */
	public static Expr foldUnary(UnaryOp op, Expr operand) {
		switch (op) {
		case Neg:
			if (operand instanceof Expr.ConstInt c) {
				return c.value() == Long.MIN_VALUE ? null : constInt(-c.value(), c.dtype());
			}
			if (operand instanceof Expr.ConstFloat f) {
				return new Expr.ConstFloat(-f.value(), f.dtype(), Span.NONE);
			}
			return null;
		case Abs:
			if (operand instanceof Expr.ConstInt c) {
				return c.value() == Long.MIN_VALUE ? null : constInt(Math.abs(c.value()), c.dtype());
			}
			if (operand instanceof Expr.ConstFloat f) {
				return new Expr.ConstFloat(Math.abs(f.value()), f.dtype(), Span.NONE);
			}
			return null;
		case Not:
			return operand instanceof Expr.ConstBool b ? constBool(!b.value()) : null;
		case BitNot:
			return operand instanceof Expr.ConstInt c ? constInt(~c.value(), c.dtype()) : null;
		default:
			return null;
		}
	}

	/** The binary expression, folded when both sides allow (pattern results: PBinaryExpr::Eval). */
	public static Expr foldOrMake(BinaryOp op, Expr l, Expr r) {
		Expr f = foldBinary(op, l, r);
		return f != null ? f : make(op, l, r);
	}

	public static Expr foldOrMakeUnary(UnaryOp op, Expr e) {
		Expr f = foldUnary(op, e);
		return f != null ? f : makeUnary(op, e, Span.NONE);
	}

	// ── structural equality (pattern matching's PEqualChecker) ──────────────

	/** Same object, equal constants, or structurally equal trees (Vars by identity). */
	public static boolean equal(Expr a, Expr b) {
		if (a == b) {
			return true;
		}
		if (a == null || b == null || a.getClass() != b.getClass()) {
			return false;
		}
		if (a instanceof Var) {
			return false;
		}
		if (a instanceof Expr.ConstInt x && b instanceof Expr.ConstInt y) {
			return x.value() == y.value() && x.dtype() == y.dtype();
		}
		if (a instanceof Expr.ConstBool x && b instanceof Expr.ConstBool y) {
			return x.value() == y.value();
		}
		if (a instanceof Expr.ConstFloat x && b instanceof Expr.ConstFloat y) {
			return x.value() == y.value() && x.dtype() == y.dtype();
		}
		if (a instanceof Expr.Binary x && b instanceof Expr.Binary y) {
			return x.op() == y.op() && x.dtype() == y.dtype() && equal(x.left(), y.left()) && equal(x.right(), y.right());
		}
		if (a instanceof Expr.Unary x && b instanceof Expr.Unary y) {
			return x.op() == y.op() && x.dtype() == y.dtype() && equal(x.operand(), y.operand());
		}
		if (a instanceof Expr.TupleGetItem x && b instanceof Expr.TupleGetItem y) {
			return x.index() == y.index() && equal(x.tuple(), y.tuple());
		}
		if (a instanceof Expr.MakeTuple x && b instanceof Expr.MakeTuple y) {
			return equalAll(x.elements(), y.elements());
		}
		if (a instanceof Expr.Call x && b instanceof Expr.Call y) {
			return x.callee().equals(y.callee()) && equalAll(x.args(), y.args()) && x.kwargs().equals(y.kwargs());
		}
		return false;
	}

	private static boolean equalAll(List<Expr> a, List<Expr> b) {
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
