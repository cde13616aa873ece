package dev.ptotools.codegen.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds statements and expressions bottom-up (pypto's IRMutator): override the cases a pass
 * changes and call {@code super} for the rest. Nodes whose children did not change are returned as
 * they were, so a pass that changes nothing returns the same objects.
 */
public class IrMutator {

	public Function function(Function f) {
		Stmt body = stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}

	public Stmt stmt(Stmt s) {
		if (s == null) {
			return null;
		}
		if (s instanceof Stmt.Assign a) {
			return assign(a);
		}
		if (s instanceof Stmt.Eval e) {
			Expr x = expr(e.expr());
			return x == e.expr() ? e : new Stmt.Eval(x, e.span());
		}
		if (s instanceof Stmt.Seq q) {
			return seq(q);
		}
		if (s instanceof Stmt.If i) {
			return ifStmt(i);
		}
		if (s instanceof Stmt.Yield y) {
			List<Expr> v = exprs(y.values());
			return v == y.values() ? y : new Stmt.Yield(v, y.span());
		}
		if (s instanceof Stmt.Return r) {
			List<Expr> v = exprs(r.values());
			return v == r.values() ? r : new Stmt.Return(v, r.span());
		}
		if (s instanceof Stmt.For f) {
			return forStmt(f);
		}
		if (s instanceof Stmt.While w) {
			return whileStmt(w);
		}
		if (s instanceof Stmt.Scope sc) {
			return scope(sc);
		}
		return s; // Break, Continue
	}

	public Stmt assign(Stmt.Assign a) {
		Expr v = expr(a.value());
		Var target = defVar(a.var());
		return v == a.value() && target == a.var() ? a : new Stmt.Assign(target, v, a.span());
	}

	public Stmt seq(Stmt.Seq q) {
		List<Stmt> out = new ArrayList<>(q.stmts().size());
		boolean changed = false;
		for (Stmt s : q.stmts()) {
			Stmt n = stmt(s);
			changed |= n != s;
			if (n != null) {
				out.add(n);
			}
		}
		return changed ? new Stmt.Seq(out, q.span()) : q;
	}

	public Stmt ifStmt(Stmt.If i) {
		Expr c = expr(i.condition());
		Stmt t = stmt(i.then());
		Stmt e = stmt(i.orelse());
		List<Var> rv = defVars(i.returnVars());
		if (c == i.condition() && t == i.then() && e == i.orelse() && rv == i.returnVars()) {
			return i;
		}
		return new Stmt.If(c, t, e, rv, i.span());
	}

	public Stmt forStmt(Stmt.For f) {
		Expr start = expr(f.start());
		Expr stop = expr(f.stop());
		Expr step = expr(f.step());
		List<IterArg> iters = iterArgs(f.iterArgs());
		Var lv = defVar(f.loopVar());
		Stmt body = stmt(f.body());
		List<Var> rv = defVars(f.returnVars());
		if (start == f.start() && stop == f.stop() && step == f.step() && iters == f.iterArgs() && lv == f.loopVar()
				&& body == f.body() && rv == f.returnVars()) {
			return f;
		}
		return new Stmt.For(lv, start, stop, step, iters, body, rv, f.kind(), f.attrs(), f.span());
	}

	public Stmt whileStmt(Stmt.While w) {
		List<IterArg> iters = iterArgs(w.iterArgs());
		Expr c = expr(w.condition());
		Stmt body = stmt(w.body());
		List<Var> rv = defVars(w.returnVars());
		if (c == w.condition() && iters == w.iterArgs() && body == w.body() && rv == w.returnVars()) {
			return w;
		}
		return new Stmt.While(c, iters, body, rv, w.span());
	}

	public Stmt scope(Stmt.Scope s) {
		Stmt body = stmt(s.body());
		return body == s.body() ? s : s.withBody(body);
	}

	/** A variable at a definition site (assignment target, loop variable, return var). */
	public Var defVar(Var v) {
		return v;
	}

	private List<Var> defVars(List<Var> vs) {
		List<Var> out = null;
		for (int i = 0; i < vs.size(); i++) {
			Var n = defVar(vs.get(i));
			if (n != vs.get(i) && out == null) {
				out = new ArrayList<>(vs.subList(0, i));
			}
			if (out != null) {
				out.add(n);
			}
		}
		return out == null ? vs : out;
	}

	/** Iter args: their init values are expressions of the enclosing scope. */
	public List<IterArg> iterArgs(List<IterArg> iters) {
		List<IterArg> out = null;
		for (int i = 0; i < iters.size(); i++) {
			IterArg a = iters.get(i);
			Expr init = expr(a.init());
			Var d = defVar(a);
			IterArg n = d instanceof IterArg ia && d != a ? ia : (init == a.init() ? a : a.withInit(init));
			if (d != a && d instanceof IterArg ia2 && init != a.init()) {
				n = ia2.withInit(init);
			}
			if (n != a && out == null) {
				out = new ArrayList<>(iters.subList(0, i));
			}
			if (out != null) {
				out.add(n);
			}
		}
		return out == null ? iters : out;
	}

	public Expr expr(Expr e) {
		if (e == null) {
			return null;
		}
		if (e instanceof Var v) {
			return var(v);
		}
		if (e instanceof Expr.Binary b) {
			Expr l = expr(b.left());
			Expr r = expr(b.right());
			return l == b.left() && r == b.right() ? b : new Expr.Binary(b.op(), l, r, b.dtype(), b.span());
		}
		if (e instanceof Expr.Unary u) {
			Expr o = expr(u.operand());
			return o == u.operand() ? u : new Expr.Unary(u.op(), o, u.dtype(), u.span());
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		if (e instanceof Expr.Submit sb) {
			return submit(sb);
		}
		if (e instanceof Expr.MakeTuple t) {
			List<Expr> el = exprs(t.elements());
			return el == t.elements() ? t : new Expr.MakeTuple(el, t.span());
		}
		if (e instanceof Expr.TupleGetItem g) {
			Expr t = expr(g.tuple());
			return t == g.tuple() ? g : new Expr.TupleGetItem(t, g.index(), g.span());
		}
		return e; // constants
	}

	/** A variable use. */
	public Expr var(Var v) {
		return v;
	}

	public Expr call(Expr.Call c) {
		List<Expr> args = exprs(c.args());
		return args == c.args() ? c : c.withArgs(args);
	}

	public Expr submit(Expr.Submit s) {
		List<Expr> args = exprs(s.args());
		List<Expr> deps = exprs(s.deps());
		Expr core = expr(s.coreNum());
		if (args == s.args() && deps == s.deps() && core == s.coreNum()) {
			return s;
		}
		return new Expr.Submit(s.callee(), args, deps, core, s.syncStart(), s.attrs(), s.type(), s.span());
	}

	public List<Expr> exprs(List<Expr> es) {
		List<Expr> out = null;
		for (int i = 0; i < es.size(); i++) {
			Expr n = expr(es.get(i));
			if (n != es.get(i) && out == null) {
				out = new ArrayList<>(es.subList(0, i));
			}
			if (out != null) {
				out.add(n);
			}
		}
		return out == null ? es : out;
	}
}
