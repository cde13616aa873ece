package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * Renders IR back to compact Python, for messages ("pl.range(4)", "scratch = pl.create_tensor(...)").
 * Long argument lists are shortened; parentheses are kept wherever Python's precedence needs them, so
 * a quote means what the source means. The source text stays the authority for edits.
 */
public final class Render {

	private static final int MAX = 60;

	private Render() {
	}

	public static String expr(Expr e) {
		String s = render(e, 0);
		return s.length() > MAX ? s.substring(0, MAX - 3) + "..." : s;
	}

	public static String stmt(Stmt s) {
		String out;
		if (s instanceof Stmt.Assign a) {
			StringBuilder b = new StringBuilder();
			for (Expr t : a.targets()) {
				b.append(render(t, 0)).append(" = ");
			}
			out = b + (a.value() == null ? "" : render(a.value(), 1));
		} else if (s instanceof Stmt.ExprStmt e) {
			out = render(e.value(), 1);
		} else if (s instanceof Stmt.AugAssign a) {
			out = render(a.target(), 0) + " " + a.op() + "= " + render(a.value(), 1);
		} else if (s instanceof Stmt.For f) {
			out = "for " + render(f.target(), 0) + " in " + render(f.iter(), 1);
		} else if (s instanceof Stmt.If i) {
			out = "if " + render(i.test(), 1);
		} else if (s instanceof Stmt.While w) {
			out = "while " + render(w.test(), 1);
		} else if (s instanceof Stmt.Return r) {
			out = r.value() == null ? "return" : "return " + render(r.value(), 1);
		} else if (s instanceof Stmt.Other o) {
			out = o.kind();
		} else {
			out = s.getClass().getSimpleName().toLowerCase();
		}
		return out.length() > MAX ? out.substring(0, MAX - 3) + "..." : out;
	}

	// Python's operator precedence, lowest first (the language reference, "Operator precedence"):
	// an operand whose operator binds less tightly than its context needs parentheses, so that
	// "(r + 1) % n" is quoted as written and not as "r + 1 % n".
	private static final int TOP = 0;
	private static final int CONDITIONAL = 1;
	private static final int OR = 2;
	private static final int AND = 3;
	private static final int NOT = 4;
	private static final int COMPARE = 5;
	private static final int BIT_OR = 6;
	private static final int BIT_XOR = 7;
	private static final int BIT_AND = 8;
	private static final int SHIFT = 9;
	private static final int SUM = 10;
	private static final int TERM = 11;
	private static final int UNARY = 12;
	private static final int POWER = 13;
	private static final int PRIMARY = 15;

	private static int binary(String op) {
		return switch (op) {
		case "|" -> BIT_OR;
		case "^" -> BIT_XOR;
		case "&" -> BIT_AND;
		case "<<", ">>" -> SHIFT;
		case "+", "-" -> SUM;
		case "**" -> POWER;
		default -> TERM; // * / // % @
		};
	}

	/** How tightly an expression binds, as Python parses it. */
	private static int precedence(Expr e) {
		if (e instanceof Expr.Conditional) {
			return CONDITIONAL;
		}
		if (e instanceof Expr.BoolOp b) {
			return b.op().equals("or") ? OR : AND;
		}
		if (e instanceof Expr.UnaryOp u) {
			return u.op().equals("not") ? NOT : UNARY;
		}
		if (e instanceof Expr.Compare) {
			return COMPARE;
		}
		if (e instanceof Expr.BinOp b) {
			return binary(b.op());
		}
		if (e instanceof Expr.Literal l && l.value() instanceof Number n && n.doubleValue() < 0) {
			return UNARY; // a negative number reads as unary minus
		}
		if (e instanceof Expr.Starred) {
			return TOP;
		}
		return PRIMARY;
	}

	/** An operand rendered in a context that needs at least {@code min}: parenthesized below it. */
	private static String operand(Expr e, int min, int depth) {
		String s = render(e, depth);
		return e != null && precedence(e) < min ? "(" + s + ")" : s;
	}

	/** depth > 0 shortens call arguments to "..." below the top level. */
	private static String render(Expr e, int depth) {
		if (e == null) {
			return "";
		}
		if (e instanceof Expr.Name n) {
			return n.id();
		}
		if (e instanceof Expr.Literal l) {
			return literal(l.value());
		}
		if (e instanceof Expr.BinOp b) {
			int p = binary(b.op());
			// Left-associative, except ** which groups to the right and admits a unary right operand.
			boolean power = p == POWER;
			return operand(b.left(), power ? p + 1 : p, depth) + " " + b.op() + " "
					+ operand(b.right(), power ? UNARY : p + 1, depth);
		}
		if (e instanceof Expr.UnaryOp u) {
			return u.op().equals("not") ? "not " + operand(u.operand(), NOT, depth)
					: u.op() + operand(u.operand(), UNARY, depth);
		}
		if (e instanceof Expr.Compare c) {
			StringBuilder b = new StringBuilder(operand(c.left(), COMPARE + 1, depth));
			for (int i = 0; i < Math.min(c.ops().size(), c.comparators().size()); i++) {
				b.append(' ').append(c.ops().get(i)).append(' ').append(operand(c.comparators().get(i), COMPARE + 1, depth));
			}
			return b.toString();
		}
		if (e instanceof Expr.BoolOp b) {
			int p = b.op().equals("or") ? OR : AND;
			return String.join(" " + b.op() + " ", b.values().stream().map(v -> operand(v, p + 1, depth)).toList());
		}
		if (e instanceof Expr.Conditional c) {
			return operand(c.body(), CONDITIONAL + 1, depth) + " if " + operand(c.test(), CONDITIONAL + 1, depth)
					+ " else " + operand(c.orelse(), CONDITIONAL, depth);
		}
		if (e instanceof Expr.Attribute a) {
			return operand(a.value(), PRIMARY, depth) + "." + a.attr();
		}
		if (e instanceof Expr.Subscript s) {
			return operand(s.value(), PRIMARY, depth) + "[" + join(s.indices(), depth) + "]";
		}
		if (e instanceof Expr.SliceExpr s) {
			return render(s.lower(), depth) + ":" + render(s.upper(), depth)
					+ (s.step() == null ? "" : ":" + render(s.step(), depth));
		}
		if (e instanceof Expr.TupleExpr t) {
			return "(" + join(t.elts(), depth) + (t.elts().size() == 1 ? ",)" : ")");
		}
		if (e instanceof Expr.ListExpr l) {
			return "[" + join(l.elts(), depth) + "]";
		}
		if (e instanceof Expr.DictExpr) {
			return "{...}";
		}
		if (e instanceof Expr.Starred s) {
			return "*" + operand(s.value(), BIT_OR, depth);
		}
		if (e instanceof Expr.Call c) {
			String head = c.funcText() != null ? c.funcText() : operand(c.func(), PRIMARY, depth);
			if (depth > 1 && (!c.args().isEmpty() || !c.keywords().isEmpty())) {
				return head + "(...)";
			}
			StringBuilder b = new StringBuilder(head).append('(').append(join(c.args(), depth + 1));
			for (Expr.Keyword k : c.keywords()) {
				if (b.charAt(b.length() - 1) != '(') {
					b.append(", ");
				}
				b.append(k.name() == null ? "**" : k.name() + "=").append(render(k.value(), depth + 1));
			}
			return b.append(')').toString();
		}
		Expr.Opaque o = (Expr.Opaque) e;
		return o.kind().equals("ellipsis") ? "..." : "<" + o.kind() + ">";
	}

	private static String join(List<Expr> items, int depth) {
		StringBuilder b = new StringBuilder();
		for (Expr x : items) {
			if (b.length() > 0) {
				b.append(", ");
			}
			b.append(render(x, depth));
		}
		return b.toString();
	}

	private static String literal(Object v) {
		if (v == null) {
			return "None";
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (v instanceof String s) {
			return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
		}
		return String.valueOf(v);
	}
}
