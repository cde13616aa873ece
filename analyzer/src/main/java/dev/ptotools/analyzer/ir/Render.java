package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * Renders IR back to compact Python, for messages ("pl.range(4)", "scratch = pl.create_tensor(...)").
 * Long argument lists are shortened; the source text stays the authority for edits.
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
			return render(b.left(), depth) + " " + b.op() + " " + render(b.right(), depth);
		}
		if (e instanceof Expr.UnaryOp u) {
			return u.op().equals("not") ? "not " + render(u.operand(), depth) : u.op() + render(u.operand(), depth);
		}
		if (e instanceof Expr.Compare c) {
			StringBuilder b = new StringBuilder(render(c.left(), depth));
			for (int i = 0; i < Math.min(c.ops().size(), c.comparators().size()); i++) {
				b.append(' ').append(c.ops().get(i)).append(' ').append(render(c.comparators().get(i), depth));
			}
			return b.toString();
		}
		if (e instanceof Expr.BoolOp b) {
			return String.join(" " + b.op() + " ", b.values().stream().map(v -> render(v, depth)).toList());
		}
		if (e instanceof Expr.Conditional c) {
			return render(c.body(), depth) + " if " + render(c.test(), depth) + " else " + render(c.orelse(), depth);
		}
		if (e instanceof Expr.Attribute a) {
			return render(a.value(), depth) + "." + a.attr();
		}
		if (e instanceof Expr.Subscript s) {
			return render(s.value(), depth) + "[" + join(s.indices(), depth) + "]";
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
			return "*" + render(s.value(), depth);
		}
		if (e instanceof Expr.Call c) {
			String head = c.funcText() != null ? c.funcText() : render(c.func(), depth);
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
