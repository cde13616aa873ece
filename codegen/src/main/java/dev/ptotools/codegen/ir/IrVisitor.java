package dev.ptotools.codegen.ir;

/**
 * Walks statements and expressions in source order (pypto's IRVisitor): override the cases of
 * interest and call {@code super} to keep walking below them.
 */
public class IrVisitor {

	public void stmt(Stmt s) {
		if (s == null) {
			return;
		}
		if (s instanceof Stmt.Assign a) {
			expr(a.value());
			def(a.var());
		} else if (s instanceof Stmt.Eval e) {
			expr(e.expr());
		} else if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(this::stmt);
		} else if (s instanceof Stmt.If i) {
			expr(i.condition());
			stmt(i.then());
			stmt(i.orelse());
			i.returnVars().forEach(this::def);
		} else if (s instanceof Stmt.Yield y) {
			y.values().forEach(this::expr);
		} else if (s instanceof Stmt.Return r) {
			r.values().forEach(this::expr);
		} else if (s instanceof Stmt.For f) {
			expr(f.start());
			expr(f.stop());
			expr(f.step());
			for (IterArg a : f.iterArgs()) {
				expr(a.init());
				def(a);
			}
			def(f.loopVar());
			stmt(f.body());
			f.returnVars().forEach(this::def);
		} else if (s instanceof Stmt.While w) {
			for (IterArg a : w.iterArgs()) {
				expr(a.init());
				def(a);
			}
			expr(w.condition());
			stmt(w.body());
			w.returnVars().forEach(this::def);
		} else if (s instanceof Stmt.Scope sc) {
			scope(sc);
		}
	}

	public void scope(Stmt.Scope s) {
		if (s instanceof Stmt.SpmdScope sp) {
			expr(sp.coreNum());
		}
		stmt(s.body());
	}

	/** A variable defined here (assignment target, loop variable, iter arg, return var). */
	public void def(Var v) {
	}

	public void expr(Expr e) {
		if (e == null) {
			return;
		}
		if (e instanceof Var v) {
			use(v);
		} else if (e instanceof Expr.Binary b) {
			expr(b.left());
			expr(b.right());
		} else if (e instanceof Expr.Unary u) {
			expr(u.operand());
		} else if (e instanceof Expr.Call c) {
			call(c);
		} else if (e instanceof Expr.Submit sb) {
			submit(sb);
		} else if (e instanceof Expr.MakeTuple t) {
			t.elements().forEach(this::expr);
		} else if (e instanceof Expr.TupleGetItem g) {
			expr(g.tuple());
		}
	}

	/** A variable used here. */
	public void use(Var v) {
	}

	public void call(Expr.Call c) {
		c.args().forEach(this::expr);
	}

	public void submit(Expr.Submit s) {
		s.args().forEach(this::expr);
		s.deps().forEach(this::expr);
		expr(s.coreNum());
	}
}
