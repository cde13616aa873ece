package dev.ptotools.codegen.emit.orchestration;

import java.util.Locale;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Scalar expressions as C++ (pypto's CodegenBase::GenerateExprString): Vars by emit name, every binary
 * node parenthesised, floor division and modulo as C's {@code /} and {@code %}, min/max as
 * {@code std::min<T>}.
 */
final class CppExprs {

	private final OrchState st;

	CppExprs(OrchState st) {
		this.st = st;
	}

	String render(Expr e) {
		if (e instanceof Var v) {
			String n = st.varName(v);
			if (!n.isEmpty()) {
				return n;
			}
			// pypto's TryGetVarName falls through on an empty name; nothing below matches a Var
			throw notImplemented(e, "Var");
		}
		if (e instanceof Expr.ConstInt c) {
			return Long.toString(c.value());
		}
		if (e instanceof Expr.ConstFloat c) {
			return toStringDouble(c.value());
		}
		if (e instanceof Expr.ConstBool b) {
			return b.value() ? "1" : "0";
		}
		if (e instanceof Expr.Binary b) {
			String l = render(b.left());
			String r = render(b.right());
			return switch (b.op()) {
			case Add -> "(" + l + " + " + r + ")";
			case Sub -> "(" + l + " - " + r + ")";
			case Mul -> "(" + l + " * " + r + ")";
			case FloorDiv -> "(" + l + " / " + r + ")";
			case FloorMod -> "(" + l + " % " + r + ")";
			case Min -> "std::min<" + b.dtype().ctype() + ">(" + l + ", " + r + ")";
			case Max -> "std::max<" + b.dtype().ctype() + ">(" + l + ", " + r + ")";
			case Eq -> "(" + l + " == " + r + ")";
			case Ne -> "(" + l + " != " + r + ")";
			case Lt -> "(" + l + " < " + r + ")";
			case Le -> "(" + l + " <= " + r + ")";
			case Gt -> "(" + l + " > " + r + ")";
			case Ge -> "(" + l + " >= " + r + ")";
			default -> throw notImplemented(e, b.op().name());
			};
		}
		if (e instanceof Expr.Unary u) {
			if (u.op() == Expr.UnaryOp.Neg) {
				return "(-" + render(u.operand()) + ")";
			}
			if (u.op() == Expr.UnaryOp.Cast) {
				return "static_cast<" + u.dtype().ctype() + ">(" + render(u.operand()) + ")";
			}
			throw notImplemented(e, u.op().name());
		}
		if (e instanceof Expr.TupleGetItem g) {
			return render(g.tuple()) + "_" + g.index();
		}
		throw notImplemented(e, e.getClass().getSimpleName());
	}

	private static CodegenException notImplemented(Expr e, String kind) {
		return new CodegenException("GenerateExprString not implemented for expression type: " + kind
				+ " (the orchestration C++ has no spelling for it)", e.span());
	}

	/** {@code EmitAsUint32}: a constant as is, anything else {@code static_cast<uint32_t>}. */
	String asUint32(Expr e) {
		String s = render(e);
		return e instanceof Expr.ConstInt ? s : "static_cast<uint32_t>(" + s + ")";
	}

	/** C++ {@code std::to_string(double)}: printf's %f. */
	static String toStringDouble(double v) {
		return String.format(Locale.ROOT, "%f", v);
	}

	/** {@code std::to_string(static_cast<float>(v))}. */
	static String toStringFloat(double v) {
		return String.format(Locale.ROOT, "%f", (double) (float) v);
	}

	/** pypto's FormatConstIntValue: int64_t as digits, other types static_cast. */
	static String constInt(Expr.ConstInt c) {
		String ctype = c.dtype().ctype();
		return ctype.equals("int64_t") ? Long.toString(c.value()) : "static_cast<" + ctype + ">(" + c.value() + ")";
	}

	/** The C type of a scalar-typed expression. */
	static String ctypeOf(Type t) {
		return t instanceof Type.Scalar s ? s.dtype().ctype() : "auto";
	}
}
