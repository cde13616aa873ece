package dev.ptotools.analyzer.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Traversals of IR trees, iterative where depth is unbounded (expressions may nest deeply). */
public final class Walk {

	private Walk() {
	}

	/** Every statement of a body, nested ones included, parents before children. */
	public static void statements(List<Stmt> body, Consumer<Stmt> visit) {
		for (Stmt s : body) {
			visit.accept(s);
			for (List<Stmt> inner : children(s)) {
				statements(inner, visit);
			}
		}
	}

	/** The bodies directly nested in a statement. */
	public static List<List<Stmt>> children(Stmt s) {
		if (s instanceof Stmt.For f) {
			return List.of(f.body(), f.orelse());
		}
		if (s instanceof Stmt.While w) {
			return List.of(w.body(), w.orelse());
		}
		if (s instanceof Stmt.If i) {
			return List.of(i.body(), i.orelse());
		}
		if (s instanceof Stmt.With w) {
			return List.of(w.body());
		}
		if (s instanceof Stmt.Try t) {
			List<List<Stmt>> out = new ArrayList<>();
			out.add(t.body());
			out.addAll(t.handlers());
			out.add(t.orelse());
			out.add(t.finalbody());
			return out;
		}
		return List.of();
	}

	/** The expressions a statement holds directly (not those of nested statements). */
	public static List<Expr> ownExpressions(Stmt s) {
		List<Expr> out = new ArrayList<>();
		if (s instanceof Stmt.Assign a) {
			out.addAll(a.targets());
			add(out, a.value());
			add(out, a.annotation());
		} else if (s instanceof Stmt.AugAssign a) {
			add(out, a.target());
			add(out, a.value());
		} else if (s instanceof Stmt.ExprStmt e) {
			add(out, e.value());
		} else if (s instanceof Stmt.For f) {
			add(out, f.target());
			add(out, f.iter());
		} else if (s instanceof Stmt.While w) {
			add(out, w.test());
		} else if (s instanceof Stmt.If i) {
			add(out, i.test());
		} else if (s instanceof Stmt.With w) {
			for (Stmt.WithItem item : w.items()) {
				add(out, item.context());
				add(out, item.target());
			}
		} else if (s instanceof Stmt.Return r) {
			add(out, r.value());
		} else if (s instanceof Stmt.Raise r) {
			add(out, r.exc());
		}
		return out;
	}

	private static void add(List<Expr> out, Expr e) {
		if (e != null) {
			out.add(e);
		}
	}

	/** The direct sub-expressions of an expression. */
	public static List<Expr> children(Expr e) {
		List<Expr> out = new ArrayList<>();
		addChildren(e, out);
		return out;
	}

	private static void addChildren(Expr e, List<Expr> out) {
		if (e instanceof Expr.BinOp b) {
			out.add(b.left());
			out.add(b.right());
		} else if (e instanceof Expr.UnaryOp u) {
			out.add(u.operand());
		} else if (e instanceof Expr.Compare c) {
			out.add(c.left());
			out.addAll(c.comparators());
		} else if (e instanceof Expr.BoolOp b) {
			out.addAll(b.values());
		} else if (e instanceof Expr.Conditional c) {
			out.add(c.test());
			out.add(c.body());
			out.add(c.orelse());
		} else if (e instanceof Expr.Attribute a) {
			out.add(a.value());
		} else if (e instanceof Expr.Subscript s) {
			out.add(s.value());
			out.addAll(s.indices());
		} else if (e instanceof Expr.SliceExpr s) {
			add(out, s.lower());
			add(out, s.upper());
			add(out, s.step());
		} else if (e instanceof Expr.TupleExpr t) {
			out.addAll(t.elts());
		} else if (e instanceof Expr.ListExpr l) {
			out.addAll(l.elts());
		} else if (e instanceof Expr.DictExpr d) {
			for (Expr k : d.keys()) {
				add(out, k);
			}
			out.addAll(d.values());
		} else if (e instanceof Expr.Starred s) {
			out.add(s.value());
		} else if (e instanceof Expr.Call c) {
			out.add(c.func());
			out.addAll(c.args());
			for (Expr.Keyword k : c.keywords()) {
				out.add(k.value());
			}
		} else if (e instanceof Expr.Opaque o) {
			out.addAll(o.children());
		}
	}

	/** Every expression under a root, the root included, parents before children; iterative. */
	public static void expressions(Expr root, Consumer<Expr> visit) {
		if (root == null) {
			return;
		}
		ArrayList<Expr> stack = new ArrayList<>();
		// one list for every node's children: the walks run over every expression of a module in several
		// passes, and a list per node was a third of what an analysis allocated
		ArrayList<Expr> kids = new ArrayList<>();
		stack.add(root);
		while (!stack.isEmpty()) {
			Expr e = stack.remove(stack.size() - 1);
			visit.accept(e);
			if (e instanceof Expr.Name || e instanceof Expr.Literal) {
				continue;
			}
			kids.clear();
			addChildren(e, kids);
			for (int i = kids.size() - 1; i >= 0; i--) { // last first, so that they pop in source order
				if (kids.get(i) != null) {
					stack.add(kids.get(i));
				}
			}
		}
	}

	/** Every call under an expression, in source order. */
	public static List<Expr.Call> calls(Expr root) {
		List<Expr.Call> out = new ArrayList<>();
		addCalls(root, out);
		return out;
	}

	private static void addCalls(Expr root, List<Expr.Call> out) {
		expressions(root, e -> {
			if (e instanceof Expr.Call c) {
				out.add(c);
			}
		});
	}

	/** Every call a statement holds directly (not in nested statements). */
	public static List<Expr.Call> ownCalls(Stmt s) {
		List<Expr.Call> out = new ArrayList<>();
		addOwnCalls(s, out);
		return out;
	}

	private static void addOwnCalls(Stmt s, List<Expr.Call> out) {
		for (Expr e : ownExpressions(s)) {
			addCalls(e, out);
		}
	}

	/** Every call in a body, nested statements included, in source order. */
	public static List<Expr.Call> allCalls(List<Stmt> body) {
		List<Expr.Call> out = new ArrayList<>();
		statements(body, s -> addOwnCalls(s, out));
		return out;
	}

	/** The names an expression reads. */
	public static List<String> names(Expr root) {
		List<String> out = new ArrayList<>();
		expressions(root, e -> {
			if (e instanceof Expr.Name n) {
				out.add(n.id());
			}
		});
		return out;
	}

	/**
	 * The loop variable of a for loop: {@code r} in {@code for r in ...} and in pypto's carried form
	 * {@code for r, (acc,) in ...}; null for other targets.
	 */
	public static String loopVariable(Stmt.For loop) {
		Expr target = loop.target();
		if (target instanceof Expr.Name n) {
			return n.id();
		}
		if (target instanceof Expr.TupleExpr t && !t.elts().isEmpty() && t.elts().get(0) instanceof Expr.Name n) {
			return n.id();
		}
		return null;
	}

	/** The names a target binds (a name, or the names of a tuple/list target). */
	public static List<String> boundNames(Expr target) {
		List<String> out = new ArrayList<>();
		if (target instanceof Expr.Name n) {
			out.add(n.id());
		} else if (target instanceof Expr.TupleExpr t) {
			t.elts().forEach(e -> out.addAll(boundNames(e)));
		} else if (target instanceof Expr.ListExpr l) {
			l.elts().forEach(e -> out.addAll(boundNames(e)));
		} else if (target instanceof Expr.Starred s) {
			out.addAll(boundNames(s.value()));
		}
		return out;
	}
}
