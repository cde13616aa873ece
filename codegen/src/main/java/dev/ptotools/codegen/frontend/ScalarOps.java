package dev.ptotools.codegen.frontend;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Expr.UnaryOp;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.types.DType;

/**
 * Scalar expression constructors with pypto's typing ({@code scalar_expr.h} Make*): both operands
 * scalar, of one numeric category (int or float, never bool); the result has the wider dtype (the
 * left on a tie) and the narrower operand is cast to it, except between INDEX and INT64, which share a
 * representation. Comparisons give BOOL. Nothing folds here (Simplify does that later).
 */
public final class ScalarOps {

	private ScalarOps() {
	}

	/** The Python operator spelled op ("+", "//", "<", "and", "min"...) on two IR operands. */
	public static Expr binary(String op, Expr l, Expr r, Span span) {
		return switch (op) {
		case "+" -> make(BinaryOp.Add, "add", l, r, span);
		case "-" -> make(BinaryOp.Sub, "sub", l, r, span);
		case "*" -> make(BinaryOp.Mul, "mul", l, r, span);
		case "/" -> make(BinaryOp.FloatDiv, "truediv", l, r, span);
		case "//" -> make(BinaryOp.FloorDiv, "floordiv", l, r, span);
		case "%" -> make(BinaryOp.FloorMod, "mod", l, r, span);
		case "**" -> make(BinaryOp.Pow, "pow", l, r, span);
		case "min" -> make(BinaryOp.Min, "min", l, r, span);
		case "max" -> make(BinaryOp.Max, "max", l, r, span);
		case "==" -> compare(BinaryOp.Eq, "eq", l, r, span);
		case "!=" -> compare(BinaryOp.Ne, "ne", l, r, span);
		case "<" -> compare(BinaryOp.Lt, "lt", l, r, span);
		case "<=" -> compare(BinaryOp.Le, "le", l, r, span);
		case ">" -> compare(BinaryOp.Gt, "gt", l, r, span);
		case ">=" -> compare(BinaryOp.Ge, "ge", l, r, span);
		case "<<" -> makeInt(BinaryOp.BitShiftLeft, "bit_shift_left", l, r, span);
		case ">>" -> makeInt(BinaryOp.BitShiftRight, "bit_shift_right", l, r, span);
		case "&" -> makeInt(BinaryOp.BitAnd, "bit_and", l, r, span);
		case "|" -> makeInt(BinaryOp.BitOr, "bit_or", l, r, span);
		case "^" -> makeInt(BinaryOp.BitXor, "bit_xor", l, r, span);
		case "and" -> new Expr.Binary(BinaryOp.And, l, r, DType.BOOL, span);
		case "or" -> new Expr.Binary(BinaryOp.Or, l, r, DType.BOOL, span);
		default -> throw new IrTypeError("Unsupported binary operator: " + op);
		};
	}

	public static Expr neg(Expr x, Span span) {
		return new Expr.Unary(UnaryOp.Neg, x, dtype(x, "neg", span), span);
	}

	public static Expr not(Expr x, Span span) {
		return new Expr.Unary(UnaryOp.Not, x, DType.BOOL, span);
	}

	public static Expr bitNot(Expr x, Span span) {
		DType d = dtype(x, "bit_not", span);
		if (!isInt(d)) {
			throw new IrTypeError("Operator 'bit_not' requires integer dtype, got " + d.text());
		}
		return new Expr.Unary(UnaryOp.BitNot, x, d, span);
	}

	public static Expr cast(Expr x, DType to, Span span) {
		return new Expr.Unary(UnaryOp.Cast, x, to, span);
	}

	private static Expr make(BinaryOp op, String name, Expr l, Expr r, Span span) {
		DType d = promote(dtype(l, name, span), dtype(r, name, span), name, span);
		return new Expr.Binary(op, maybeCast(l, d, span), maybeCast(r, d, span), d, span);
	}

	private static Expr makeInt(BinaryOp op, String name, Expr l, Expr r, Span span) {
		DType a = dtype(l, name, span);
		DType b = dtype(r, name, span);
		if (!isInt(a) || !isInt(b)) {
			throw new IrTypeError("Operator '" + name + "' requires integer dtype, got " + a.text() + " and " + b.text());
		}
		DType d = promote(a, b, name, span);
		return new Expr.Binary(op, maybeCast(l, d, span), maybeCast(r, d, span), d, span);
	}

	private static Expr compare(BinaryOp op, String name, Expr l, Expr r, Span span) {
		DType d = promote(dtype(l, name, span), dtype(r, name, span), name, span);
		return new Expr.Binary(op, maybeCast(l, d, span), maybeCast(r, d, span), DType.BOOL, span);
	}

	static DType promote(DType a, DType b, String name, Span span) {
		if (a == DType.BOOL || b == DType.BOOL) {
			throw new IrTypeError("Operator '" + name + "' does not accept bool dtype");
		}
		boolean fa = category(a, name, span);
		boolean fb = category(b, name, span);
		if (fa != fb) {
			throw new IrTypeError("Operator '" + name + "' requires same numeric dtype category, got " + a.text()
					+ " and " + b.text());
		}
		if (a.bits() > b.bits()) {
			return a;
		}
		if (b.bits() > a.bits()) {
			return b;
		}
		return a;
	}

	/** true for float, false for int; anything else is rejected. */
	private static boolean category(DType d, String name, Span span) {
		if (d.isFloat()) {
			return true;
		}
		if (isInt(d)) {
			return false;
		}
		throw new IrTypeError("Operator '" + name + "' requires numeric scalar dtype, got " + d.text());
	}

	static boolean isInt(DType d) {
		return d.isInteger();
	}

	static Expr maybeCast(Expr x, DType to, Span span) {
		DType d = ((Type.Scalar) x.type()).dtype();
		if (d == to || (d == DType.INDEX && to == DType.INT64) || (d == DType.INT64 && to == DType.INDEX)) {
			return x;
		}
		return new Expr.Unary(UnaryOp.Cast, x, to, span);
	}

	static DType dtype(Expr x, String name, Span span) {
		if (x.type() instanceof Type.Scalar s) {
			return s.dtype();
		}
		throw new IrTypeError("Expression must be ScalarExpr or Var with ScalarType, got " + kind(x) + " with type "
				+ typeName(x.type()));
	}

	private static String kind(Expr x) {
		if (x instanceof dev.ptotools.codegen.ir.Var) {
			return "Var";
		}
		if (x instanceof Expr.Call) {
			return "Call";
		}
		return x.getClass().getSimpleName();
	}

	public static String typeName(Type t) {
		if (t instanceof Type.Tensor tt) {
			return tt.distributed() ? "DistributedTensorType" : "TensorType";
		}
		if (t instanceof Type.Tile) {
			return "TileType";
		}
		if (t instanceof Type.Tuple) {
			return "TupleType";
		}
		if (t instanceof Type.Unknown) {
			return "UnknownType";
		}
		return t.getClass().getSimpleName() + "Type";
	}
}
