package dev.ptotools.analyzer.facts.jit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * Python's {@code ast.walk} order (breadth first, children in field order) over a function body, which
 * pypto's JIT uses to pick "the first" of something: the order of a function's dependencies, the return
 * statement that gives the return type. The node levels of Python's AST that our IR folds away are kept:
 * a keyword argument and a with-item are a level of their own, and several subscript indices are one
 * tuple node.
 */
public final class PyWalk {

	private PyWalk() {
	}

	/** A level of Python's AST our IR has no node for. */
	private record Level(List<Object> children) {
	}

	/** Every node under a function body, in {@code ast.walk(func_def)} order (the function excluded). */
	public static List<Object> walk(List<Stmt> body) {
		List<Object> out = new ArrayList<>();
		ArrayDeque<Object> queue = new ArrayDeque<>(body);
		while (!queue.isEmpty()) {
			Object n = queue.poll();
			if (!(n instanceof Level)) {
				out.add(n);
			}
			for (Object c : children(n)) {
				if (c != null) {
					queue.add(c);
				}
			}
		}
		return out;
	}

	/** The calls of a body in {@code ast.walk} order. */
	public static List<Expr.Call> calls(List<Stmt> body) {
		List<Expr.Call> out = new ArrayList<>();
		for (Object o : walk(body)) {
			if (o instanceof Expr.Call c) {
				out.add(c);
			}
		}
		return out;
	}

	/** The first {@code return <value>} in {@code ast.walk} order, or null. */
	public static Stmt.Return firstReturnWithValue(List<Stmt> body) {
		for (Object o : walk(body)) {
			if (o instanceof Stmt.Return r && r.value() != null) {
				return r;
			}
		}
		return null;
	}

	private static List<Object> children(Object n) {
		List<Object> out = new ArrayList<>();
		if (n instanceof Level l) {
			out.addAll(l.children());
		} else if (n instanceof Stmt s) {
			stmtChildren(s, out);
		} else if (n instanceof Expr e) {
			exprChildren(e, out);
		}
		return out;
	}

	private static void stmtChildren(Stmt s, List<Object> out) {
		if (s instanceof Stmt.Assign a) {
			if (a.annotation() != null) {
				out.addAll(a.targets());
				out.add(a.annotation());
				out.add(a.value());
			} else {
				out.addAll(a.targets());
				out.add(a.value());
			}
		} else if (s instanceof Stmt.AugAssign a) {
			out.add(a.target());
			out.add(a.value());
		} else if (s instanceof Stmt.ExprStmt e) {
			out.add(e.value());
		} else if (s instanceof Stmt.For f) {
			out.add(f.target());
			out.add(f.iter());
			out.addAll(f.body());
			out.addAll(f.orelse());
		} else if (s instanceof Stmt.While w) {
			out.add(w.test());
			out.addAll(w.body());
			out.addAll(w.orelse());
		} else if (s instanceof Stmt.If i) {
			out.add(i.test());
			out.addAll(i.body());
			out.addAll(i.orelse());
		} else if (s instanceof Stmt.With w) {
			for (Stmt.WithItem item : w.items()) {
				List<Object> kids = new ArrayList<>();
				kids.add(item.context());
				kids.add(item.target());
				out.add(new Level(kids));
			}
			out.addAll(w.body());
		} else if (s instanceof Stmt.Return r) {
			out.add(r.value());
		}
	}

	private static void exprChildren(Expr e, List<Object> out) {
		if (e instanceof Expr.Call c) {
			out.add(c.func());
			out.addAll(c.args());
			for (Expr.Keyword k : c.keywords()) {
				List<Object> kids = new ArrayList<>();
				kids.add(k.value());
				out.add(new Level(kids));
			}
		} else if (e instanceof Expr.Subscript s) {
			out.add(s.value());
			if (s.indices().size() == 1) {
				out.add(s.indices().get(0));
			} else {
				out.add(new Level(new ArrayList<>(s.indices())));
			}
		} else if (e instanceof Expr.DictExpr d) {
			out.addAll(d.keys());
			out.addAll(d.values());
		} else {
			out.addAll(dev.ptotools.analyzer.ir.Walk.children(e));
		}
	}
}
