package dev.ptotools.codegen.passes.util;

import java.util.Collection;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * A walk with the exact order and coverage of pypto's {@code IRVisitor} (src/ir/transforms/visitor.cpp),
 * which the analyses of the outlining passes inherit: definition sites are visited like uses (an
 * assignment's target before its value, a loop variable before the bounds), a variable's tensor shape
 * is walked, an iter arg's init value is walked from every reference, and reference-typed call, submit
 * and scope attributes count as uses. Orders matter: parameter lists are built from them. Subclasses
 * override the cases whose order or coverage differs, as pypto's collectors do.
 */
public class PyptoVisitor {

	public void stmt(Stmt s) {
		if (s == null) {
			return;
		}
		if (s instanceof Stmt.Assign a) {
			assign(a);
		} else if (s instanceof Stmt.Eval e) {
			expr(e.expr());
		} else if (s instanceof Stmt.Seq q) {
			for (Stmt x : q.stmts()) {
				stmt(x);
			}
		} else if (s instanceof Stmt.If i) {
			ifStmt(i);
		} else if (s instanceof Stmt.For f) {
			forStmt(f);
		} else if (s instanceof Stmt.While w) {
			whileStmt(w);
		} else if (s instanceof Stmt.Yield y) {
			y.values().forEach(this::expr);
		} else if (s instanceof Stmt.Return r) {
			r.values().forEach(this::expr);
		} else if (s instanceof Stmt.Scope sc) {
			scope(sc);
		}
	}

	protected void assign(Stmt.Assign a) {
		expr(a.var());
		expr(a.value());
	}

	protected void ifStmt(Stmt.If i) {
		expr(i.condition());
		stmt(i.then());
		stmt(i.orelse());
		i.returnVars().forEach(this::expr);
	}

	protected void forStmt(Stmt.For f) {
		expr(f.loopVar());
		expr(f.start());
		expr(f.stop());
		expr(f.step());
		f.iterArgs().forEach(this::expr);
		stmt(f.body());
		f.returnVars().forEach(this::expr);
	}

	protected void whileStmt(Stmt.While w) {
		expr(w.condition());
		w.iterArgs().forEach(this::expr);
		stmt(w.body());
		w.returnVars().forEach(this::expr);
	}

	/** Scope attributes are walked for every scope kind except Cluster and runtime scopes, as in pypto. */
	protected void scope(Stmt.Scope s) {
		if (s instanceof Stmt.SpmdScope sp) {
			expr(sp.coreNum());
		}
		if (s instanceof Stmt.InCoreScope in) {
			attrs(in.attrs());
		}
		if (s instanceof Stmt.SpmdScope sp) {
			attrs(sp.attrs());
		}
		stmt(s.body());
	}

	public void expr(Expr e) {
		if (e == null) {
			return;
		}
		if (e instanceof IterArg ia) {
			iterArgUse(ia);
		} else if (e instanceof Var v) {
			varUse(v);
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

	/** A Var reference (pypto's VisitVarLike_): walks the dims of a tensor type. */
	protected void varUse(Var v) {
		if (v.type() instanceof Type.Tensor t) {
			t.shape().forEach(this::expr);
		}
	}

	protected void iterArgUse(IterArg a) {
		varUse(a);
		expr(a.init());
	}

	protected void call(Expr.Call c) {
		c.args().forEach(this::expr);
		attrs(c.attrs());
	}

	protected void submit(Expr.Submit s) {
		s.args().forEach(this::expr);
		s.deps().forEach(this::expr);
		expr(s.coreNum());
		attrs(s.attrs());
	}

	/** The expressions held by attributes (an Expr, or a list of them), in attribute order. */
	protected void attrs(Map<String, Object> attrs) {
		for (Map.Entry<String, Object> a : attrs.entrySet()) {
			if (visitAttr(a.getKey())) {
				attrValue(a.getValue());
			}
		}
	}

	/** Whether an attribute's expressions are walked (pypto's ShouldVisitScopeAttr). */
	protected boolean visitAttr(String key) {
		return true;
	}

	private void attrValue(Object v) {
		if (v instanceof Expr x) {
			expr(x);
		} else if (v instanceof Collection<?> c) {
			for (Object o : c) {
				if (o instanceof Expr x) {
					expr(x);
				}
			}
		}
	}
}
