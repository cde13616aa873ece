package dev.ptotools.codegen.frontend.jit;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The names a piece of code reads (Python's {@code Load} context) or binds ({@code Store}), which our IR
 * does not mark: a name is stored when it is an assignment, loop, with or comprehension target, or inside
 * a tuple/list/starred target; the base of a subscript or attribute target is read.
 */
final class PyNames {

	private PyNames() {
	}

	/** Names read by an expression in load position (comprehension targets excluded). */
	static Set<String> loads(Expr e) {
		Set<String> out = new LinkedHashSet<>();
		loads(e, out);
		return out;
	}

	static void loads(Expr e, Set<String> out) {
		if (e == null) {
			return;
		}
		if (e instanceof Expr.Name n) {
			out.add(n.id());
			return;
		}
		if (e instanceof Expr.Opaque o && comprehensionTarget(o) >= 0) {
			int t = comprehensionTarget(o);
			for (int i = 0; i < o.children().size(); i++) {
				if (i == t) {
					targetLoads(o.children().get(i), out);
				} else {
					loads(o.children().get(i), out);
				}
			}
			return;
		}
		for (Expr c : dev.ptotools.analyzer.ir.Walk.children(e)) {
			loads(c, out);
		}
	}

	/** The child index of a comprehension's (single) target, or -1. */
	private static int comprehensionTarget(Expr.Opaque o) {
		return switch (o.kind()) {
		case "list comprehension", "set comprehension", "generator expression" -> o.children().size() >= 3 ? 1 : -1;
		case "dict comprehension" -> o.children().size() >= 4 ? 2 : -1;
		default -> -1;
		};
	}

	/** Names a target reads (subscript and attribute bases). */
	static Set<String> targetLoads(Expr target) {
		Set<String> out = new LinkedHashSet<>();
		targetLoads(target, out);
		return out;
	}

	private static void targetLoads(Expr t, Set<String> out) {
		if (t instanceof Expr.Name) {
			return;
		}
		if (t instanceof Expr.TupleExpr tu) {
			tu.elts().forEach(x -> targetLoads(x, out));
		} else if (t instanceof Expr.ListExpr l) {
			l.elts().forEach(x -> targetLoads(x, out));
		} else if (t instanceof Expr.Starred s) {
			targetLoads(s.value(), out);
		} else {
			loads(t, out);
		}
	}

	/** Names a target binds, in source order. */
	static Set<String> stores(Expr target) {
		Set<String> out = new LinkedHashSet<>();
		stores(target, out);
		return out;
	}

	private static void stores(Expr t, Set<String> out) {
		if (t instanceof Expr.Name n) {
			out.add(n.id());
		} else if (t instanceof Expr.TupleExpr tu) {
			tu.elts().forEach(x -> stores(x, out));
		} else if (t instanceof Expr.ListExpr l) {
			l.elts().forEach(x -> stores(x, out));
		} else if (t instanceof Expr.Starred s) {
			stores(s.value(), out);
		}
	}

	/** Every name a statement (its nested statements included) reads. */
	static Set<String> stmtLoads(Stmt s) {
		Set<String> out = new LinkedHashSet<>();
		stmtLoads(s, out);
		return out;
	}

	private static void stmtLoads(Stmt s, Set<String> out) {
		if (s instanceof Stmt.Assign a) {
			a.targets().forEach(t -> targetLoads(t, out));
			loads(a.annotation(), out);
			loads(a.value(), out);
		} else if (s instanceof Stmt.AugAssign a) {
			targetLoads(a.target(), out);
			loads(a.value(), out);
		} else if (s instanceof Stmt.For f) {
			targetLoads(f.target(), out);
			loads(f.iter(), out);
		} else if (s instanceof Stmt.With w) {
			for (Stmt.WithItem i : w.items()) {
				loads(i.context(), out);
				if (i.target() != null) {
					targetLoads(i.target(), out);
				}
			}
		} else {
			for (Expr e : dev.ptotools.analyzer.ir.Walk.ownExpressions(s)) {
				loads(e, out);
			}
		}
		for (List<Stmt> body : dev.ptotools.analyzer.ir.Walk.children(s)) {
			for (Stmt c : body) {
				stmtLoads(c, out);
			}
		}
	}

	/** Every name a function body binds anywhere (Python's Store names of the whole def). */
	static Set<String> allStores(List<Stmt> body) {
		Set<String> out = new LinkedHashSet<>();
		dev.ptotools.analyzer.ir.Walk.statements(body, s -> {
			if (s instanceof Stmt.Assign a) {
				a.targets().forEach(t -> stores(t, out));
			} else if (s instanceof Stmt.AugAssign a) {
				stores(a.target(), out);
			} else if (s instanceof Stmt.For f) {
				stores(f.target(), out);
			} else if (s instanceof Stmt.With w) {
				for (Stmt.WithItem i : w.items()) {
					if (i.target() != null) {
						stores(i.target(), out);
					}
				}
			}
			for (Expr e : dev.ptotools.analyzer.ir.Walk.ownExpressions(s)) {
				dev.ptotools.analyzer.ir.Walk.expressions(e, x -> {
					if (x instanceof Expr.Opaque o && comprehensionTarget(o) >= 0) {
						stores(o.children().get(comprehensionTarget(o)), out);
					}
				});
			}
		});
		return out;
	}
}
