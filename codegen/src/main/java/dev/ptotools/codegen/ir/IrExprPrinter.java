package dev.ptotools.codegen.ir;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.ptotools.codegen.types.DType;

/**
 * Expressions and types as pypto's IR printer writes them (src/ir/transforms/python_printer.cpp):
 * operators parenthesised by precedence, INDEX constants typed inside constant-only operator trees and
 * composite shape dims, floats as Python's repr. {@link IrPrinter} prints statements and functions with
 * it; Vars are printed by the name the caller gives them (its per-function rename map).
 */
final class IrExprPrinter {

	private final java.util.function.Function<Var, String> names;
	/** Print INDEX constants as pl.const(v, pl.INDEX) (inside constant-only operator trees and shape exprs). */
	private boolean typedIndexConsts;

	IrExprPrinter(java.util.function.Function<Var, String> names) {
		this.names = names;
	}

	String typeText(Type t) {
		if (t instanceof Type.Tensor x) {
			String head = x.distributed() ? "pld.DistributedTensor" : "pl.Tensor";
			String layout = "";
			if (x.view() != null && (!x.view().stride().isEmpty() || !x.view().validShape().isEmpty())) {
				layout = ", pl.TensorView(" + (x.view().validShape().isEmpty() ? "" : "valid_shape=[" + dims(x.view().validShape()) + "], ")
						+ "stride=[" + dims(x.view().stride()) + "], layout=pl.TensorLayout." + x.view().layout() + ")";
			} else if (x.view() != null) {
				layout = ", pl." + x.view().layout();
			}
			return head + "[[" + dims(x.shape()) + "], pl." + x.dtype().dslName() + layout + "]";
		}
		if (t instanceof Type.Tile x) {
			String valid = x.validShape() != null && !x.validShape().isEmpty() && !sameDims(x.validShape(), x.shape())
					? ", pl.TileView(valid_shape=[" + dims(x.validShape()) + "])" : "";
			return "pl.Tile[[" + dims(x.shape()) + "], pl." + x.dtype().dslName()
					+ (x.memory() != null ? ", pl.Mem." + x.memory() : "") + valid + "]";
		}
		if (t instanceof Type.Scalar s) {
			return "pl.Scalar[pl." + s.dtype().dslName() + "]";
		}
		if (t instanceof Type.Tuple tu) {
			return tu.elements().isEmpty() ? "pl.Tuple[()]"
					: "pl.Tuple[" + tu.elements().stream().map(this::typeText).collect(Collectors.joining(", ")) + "]";
		}
		if (t instanceof Type.Array a) {
			return "pl.Array[" + dims(a.shape()) + ", pl." + a.dtype().dslName() + "]";
		}
		if (t instanceof Type.CommCtx) {
			return "pld.CommCtxType";
		}
		if (t instanceof Type.WindowBuffer) {
			return "pld.WindowBufferType";
		}
		if (t instanceof Type.Ptr) {
			return "pl.Ptr";
		}
		return "pl.UnknownType";
	}

	private static boolean sameDims(List<Expr> a, List<Expr> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (int i = 0; i < a.size(); i++) {
			Expr x = a.get(i);
			Expr y = b.get(i);
			boolean same = x == y || x instanceof Expr.ConstInt cx && y instanceof Expr.ConstInt cy && cx.value() == cy.value();
			if (!same) {
				return false;
			}
		}
		return true;
	}

	/** pypto's PrintExprForType: constants and Vars bare, composite dims with typed constants. */
	private String dims(List<Expr> es) {
		List<String> parts = new ArrayList<>();
		for (Expr e : es) {
			if (e instanceof Expr.ConstInt c) {
				parts.add(Long.toString(c.value()));
			} else if (e instanceof Var v) {
				parts.add(names.apply(v));
			} else {
				boolean saved = typedIndexConsts;
				typedIndexConsts = true;
				parts.add(text(e));
				typedIndexConsts = saved;
			}
		}
		return String.join(", ", parts);
	}

	String exprList(List<Expr> es) {
		return es.stream().map(x -> text(x)).collect(Collectors.joining(", "));
	}

	String text(Expr e) {
		if (e == null) {
			return "None";
		}
		if (e instanceof Var v) {
			return names.apply(v);
		}
		if (e instanceof Expr.ConstInt c) {
			return c.dtype() == DType.INDEX && !typedIndexConsts ? Long.toString(c.value())
					: "pl.const(" + c.value() + ", pl." + c.dtype().dslName() + ")";
		}
		if (e instanceof Expr.ConstFloat c) {
			return c.dtype() == DType.FP32 ? floatLiteral(c.value())
					: "pl.const(" + floatLiteral(c.value()) + ", pl." + c.dtype().dslName() + ")";
		}
		if (e instanceof Expr.ConstBool b) {
			return b.value() ? "True" : "False";
		}
		if (e instanceof Expr.Binary b) {
			if (b.op() == Expr.BinaryOp.Min || b.op() == Expr.BinaryOp.Max) {
				return "pl." + b.op().symbol() + "(" + text(b.left()) + ", " + text(b.right()) + ")";
			}
			boolean saved = typedIndexConsts;
			if (!typedIndexConsts && pureConstIntTree(b)) {
				typedIndexConsts = true;
			}
			String s = child(b, b.left(), true) + " " + b.op().symbol() + " " + child(b, b.right(), false);
			typedIndexConsts = saved;
			return s;
		}
		if (e instanceof Expr.Unary u) {
			return switch (u.op()) {
			case Neg -> "-" + paren(u.operand(), precedence(u.operand()) < UNARY);
			case Not -> "not " + paren(u.operand(), precedence(u.operand()) < NOT);
			case BitNot -> "~" + paren(u.operand(), precedence(u.operand()) < UNARY);
			case Abs -> "abs(" + text(u.operand()) + ")";
			case Cast -> "pl.cast(" + text(u.operand()) + ", pl." + u.dtype().dslName() + ")";
			};
		}
		if (e instanceof Expr.MakeTuple t) {
			return "[" + exprList(t.elements()) + "]";
		}
		if (e instanceof Expr.TupleGetItem g) {
			return text(g.tuple()) + "[" + g.index() + "]";
		}
		if (e instanceof Expr.Call c && c.isOp("system.syncall") && (c.args().size() == 1 || c.args().size() == 2)
				&& "soft".equals(c.kwargs().get("mode"))) {
			// pypto prints the soft form's operands through the keyword-only DSL surface, so it parses again
			Object used = c.args().size() == 2 ? c.args().get(1) : null;
			return "pl.system.syncall(mode=\"soft\", core_type=\"" + c.kwargs().getOrDefault("core_type", "mix")
					+ "\", gm_workspace=" + text(c.args().get(0)) + ", used_cores="
					+ (used == null ? "0" : used instanceof Expr.ConstInt ci ? Long.toString(ci.value()) : text((Expr) used)) + ")";
		}
		if (e instanceof Expr.Call c) {
			String callee = !c.isOp() ? "self." + c.name() : c.name().startsWith("pld.") ? c.name() : "pl." + c.name();
			StringBuilder b = new StringBuilder(callee).append('(').append(exprList(c.args()));
			boolean first = c.args().isEmpty();
			// pypto surfaces a function call's device attr as a device= keyword.
			Map<String, Object> attrs = c.attrs();
			if (!c.isOp() && attrs.get("device") instanceof Expr device) {
				b.append(first ? "" : ", ").append("device=").append(text(device));
				first = false;
				attrs = new java.util.LinkedHashMap<>(attrs);
				attrs.remove("device");
			}
			if (c.isOp("system.task_dummy")) {
				// pypto prints a dummy task's edges as deps= and re-derives dummy_task from the op
				attrs = new java.util.LinkedHashMap<>(attrs);
				attrs.remove("dummy_task");
				Object edges = attrs.remove("manual_dep_edges");
				b.append("deps=").append(edges instanceof List<?> l ? "[" + l.stream().map(x -> x instanceof Expr x2 ? text(x2)
						: value(x)).collect(Collectors.joining(", ")) + "]" : "[]");
				first = false;
			}
			for (Map.Entry<String, Object> k : c.kwargs().entrySet()) {
				String v = k.getKey().equals("layout") && k.getValue() instanceof String l ? "pl.TensorLayout." + l
						: k.getKey().equals("mode") && c.name().endsWith(".cast") && k.getValue() instanceof Long m && m >= 0 && m < 7
								? "'" + List.of("none", "rint", "round", "floor", "ceil", "trunc", "odd").get((int) (long) m) + "'"
								: value(k.getValue());
				b.append(first ? "" : ", ").append(k.getKey()).append('=').append(v);
				first = false;
			}
			if (!attrs.isEmpty()) {
				b.append(first ? "" : ", ").append("attrs={")
						.append(attrs.entrySet().stream().map(a -> "\"" + a.getKey() + "\": " + value(a.getValue()))
								.collect(Collectors.joining(", ")))
						.append('}');
			}
			return b.append(')').toString();
		}
		if (e instanceof Expr.Submit s) {
			return "pl.submit(self." + s.callee().name() + (s.args().isEmpty() ? "" : ", " + exprList(s.args()))
					+ (s.deps().isEmpty() ? "" : ", deps=[" + exprList(s.deps()) + "]") + ")";
		}
		return e.toString();
	}

	private String paren(Expr e, boolean needed) {
		return needed ? "(" + text(e) + ")" : text(e);
	}

	private static final int OR = 1, XOR = 2, AND = 3, NOT = 4, COMPARISON = 5, BIT_OR = 6, BIT_XOR = 7, BIT_AND = 8,
			BIT_SHIFT = 9, ADD_SUB = 10, MUL_DIV = 11, UNARY = 12, POW = 13, CALL = 14, ATOM = 15;

	/** pypto's GetPrecedence (printer.h). */
	private static int precedence(Expr e) {
		if (e instanceof Expr.Binary b) {
			return switch (b.op()) {
			case Or -> OR;
			case Xor -> XOR;
			case And -> AND;
			case Eq, Ne, Lt, Le, Gt, Ge -> COMPARISON;
			case BitOr -> BIT_OR;
			case BitXor -> BIT_XOR;
			case BitAnd -> BIT_AND;
			case BitShiftLeft, BitShiftRight -> BIT_SHIFT;
			case Add, Sub -> ADD_SUB;
			case Mul, FloorDiv, FloatDiv, FloorMod -> MUL_DIV;
			case Pow -> POW;
			case Min, Max -> CALL;
			};
		}
		if (e instanceof Expr.Unary u) {
			return switch (u.op()) {
			case Not -> NOT;
			case Neg, BitNot -> UNARY;
			case Abs, Cast -> CALL;
			};
		}
		if (e instanceof Expr.Call) {
			return CALL;
		}
		return ATOM;
	}

	/** pypto's PrintChild / NeedsParens: lower precedence, or equal precedence on the non-associative side. */
	private String child(Expr parent, Expr c, boolean isLeft) {
		int pp = precedence(parent);
		int cp = precedence(c);
		boolean rightAssoc = parent instanceof Expr.Binary b && b.op() == Expr.BinaryOp.Pow;
		boolean needs = cp < pp || (cp == pp && (rightAssoc ? isLeft : !isLeft));
		return paren(c, needs);
	}

	private static boolean pureConstIntTree(Expr e) {
		if (e instanceof Expr.ConstInt) {
			return true;
		}
		return e instanceof Expr.Binary b && pureConstIntTree(b.left()) && pureConstIntTree(b.right());
	}

	/** C++ {@code ostream << setprecision(17) << v}, plus ".0" when that has no '.', 'e' (FormatFloatLiteral). */
	static String floatLiteral(double v) {
		if (Double.isNaN(v)) {
			return "nan";
		}
		if (Double.isInfinite(v)) {
			return v > 0 ? "inf" : "-inf";
		}
		String text;
		if (v == 0) {
			text = (1 / v < 0) ? "-0" : "0";
		} else {
			BigDecimal d = new BigDecimal(v).round(new MathContext(17));
			int exponent = d.precision() - d.scale() - 1;
			if (exponent < -4 || exponent >= 17) {
				BigDecimal mant = d.movePointLeft(exponent).stripTrailingZeros();
				String m = mant.toPlainString();
				String ex = String.format("%02d", Math.abs(exponent));
				text = m + "e" + (exponent < 0 ? "-" : "+") + ex;
			} else {
				text = d.stripTrailingZeros().toPlainString();
			}
		}
		if (text.indexOf('.') < 0 && text.indexOf('e') < 0) {
			text += ".0";
		}
		return text;
	}

	String value(Object v) {
		if (v instanceof Expr x) {
			return text(x);
		}
		if (v instanceof ArgDirection d) {
			return "pl.adir." + d.dslName();
		}
		if (v instanceof DType d) {
			return "pl." + d.dslName();
		}
		if (v instanceof MemorySpace m) {
			return "pl.Mem." + m;
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (v instanceof String s) {
			return "\"" + s + "\"";
		}
		if (v instanceof List<?> l) {
			return "[" + l.stream().map(this::value).collect(Collectors.joining(", ")) + "]";
		}
		if (v instanceof dev.ptotools.analyzer.facts.Values.EnumValue e) {
			return "pl." + e.type() + "." + e.member();
		}
		return String.valueOf(v);
	}
}
