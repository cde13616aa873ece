package dev.ptotools.codegen.chip;

import java.util.Locale;

import dev.ptotools.codegen.support.CodegenException;

/** pypto's CodegenBase::GenerateExprString for orchestration C++: every binary node parenthesised. */
final class CppExprs {

	private final ChipNames names;

	CppExprs(ChipNames names) {
		this.names = names;
	}

	String render(OExpr e) {
		if (e instanceof OExpr.Ref r) {
			return names.varName(r.var());
		}
		if (e instanceof OExpr.ConstInt c) {
			return Long.toString(c.value());
		}
		if (e instanceof OExpr.ConstFloat c) {
			return toStringDouble(c.value());
		}
		if (e instanceof OExpr.ConstBool b) {
			return b.value() ? "1" : "0";
		}
		if (e instanceof OExpr.Binary b) {
			String l = render(b.left());
			String r = render(b.right());
			return switch (b.op()) {
			case "+", "-", "*", "%", "==", "!=", "<", "<=", ">", ">=" -> "(" + l + " " + b.op() + " " + r + ")";
			case "//" -> "(" + l + " / " + r + ")";
			case "min", "max" -> "std::" + b.op() + "<" + b.dtype().ctype() + ">(" + l + ", " + r + ")";
			default -> throw new CodegenException(
					"GenerateExprString not implemented for operator '" + b.op() + "' in orchestration code", null);
			};
		}
		if (e instanceof OExpr.Unary u && u.op().equals("-")) {
			return "(-" + render(u.operand()) + ")";
		}
		if (e instanceof OExpr.Cast c) {
			return "static_cast<" + c.dtype().ctype() + ">(" + render(c.operand()) + ")";
		}
		if (e instanceof OExpr.TupleGet t) {
			return names.varName(t.tuple()) + "_" + t.index();
		}
		throw new CodegenException("GenerateExprString not implemented for this expression in orchestration code",
				null);
	}

	/** C++ std::to_string(double): printf's %f. */
	static String toStringDouble(double v) {
		return String.format(Locale.ROOT, "%f", v);
	}

	/** std::to_string(static_cast<float>(v)): %f of the float value. */
	static String toStringFloat(double v) {
		return String.format(Locale.ROOT, "%f", (double) (float) v);
	}

	/** u32(e) of pypto's templates: a constant as is, anything else static_cast to uint32_t. */
	String asUint32(OExpr e) {
		String s = render(e);
		return e instanceof OExpr.ConstInt ? s : "static_cast<uint32_t>(" + s + ")";
	}
}
