package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.AutoNames;
import dev.ptotools.codegen.passes.util.Stmts;

/**
 * pypto's flatten_call_expr (FlattenCallExpr, src/ir/transforms/flatten_call_expr_pass.cpp): a call nested
 * in a call argument, an operator operand, a branch or loop header, a return or a yield is hoisted into a
 * temporary {@code t__tmp_vN} assigned just before the statement (inside the loop, branch or scope whose
 * body holds it). The counter is per function and follows the post-order, left-to-right visit, so inner
 * calls get smaller numbers. A call that is the whole value of an assignment or expression statement, or
 * sits directly in a tuple (shape and offset lists), stays.
 */
public final class FlattenCallExprPass implements Pass {

	@Override
	public String name() {
		return "FlattenCallExpr";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			out.add(f.withBody(new Flattener().functionBody(f.body())));
		}
		return program.withFunctions(out);
	}

	private static final class Flattener extends IrMutator {
		private int counter;
		/** Temporaries hoisted out of the statement being visited, to go right before it. */
		private List<Stmt> pending = new ArrayList<>();

		/** A function body; temporaries of a body that is a single statement go in front of it. */
		Stmt functionBody(Stmt body) {
			Stmt n = stmt(body);
			if (pending.isEmpty()) {
				return n;
			}
			List<Stmt> wrapped = new ArrayList<>(pending);
			wrapped.add(n);
			pending.clear();
			return Stmts.flatten(wrapped, body.span());
		}

		/** A loop, branch or scope body: its temporaries stay inside it. */
		private Stmt scopeBody(Stmt body) {
			List<Stmt> outer = pending;
			pending = new ArrayList<>();
			Stmt n = stmt(body);
			if (!(body instanceof Stmt.Seq) && !pending.isEmpty()) {
				List<Stmt> stmts = new ArrayList<>(pending);
				stmts.add(n);
				n = Stmts.flatten(stmts, body.span());
			}
			pending = outer;
			return n;
		}

		private Expr extract(Expr e) {
			if (!(e instanceof Expr.Call) && !(e instanceof Expr.Submit)) {
				return e;
			}
			Var temp = new Var(AutoNames.build("t", "tmp", counter++), e.type(), e.span());
			pending.add(new Stmt.Assign(temp, e, e.span()));
			return temp;
		}

		private Expr extractCall(Expr e) {
			return e instanceof Expr.Call ? extract(e) : e;
		}

		@Override
		public Stmt seq(Stmt.Seq q) {
			List<Stmt> out = new ArrayList<>();
			for (Stmt s : q.stmts()) {
				pending.clear();
				Stmt n = stmt(s);
				out.addAll(pending);
				out.add(n);
			}
			pending.clear();
			return Stmts.flatten(out, q.span());
		}

		@Override
		public Stmt stmt(Stmt s) {
			if (s instanceof Stmt.Return r) {
				return new Stmt.Return(values(r.values(), false), r.span());
			}
			if (s instanceof Stmt.Yield y) {
				return new Stmt.Yield(values(y.values(), true), y.span());
			}
			return super.stmt(s);
		}

		/** Return and yield values: a call (for yields also a submit) becomes a temporary. */
		private List<Expr> values(List<Expr> vals, boolean submitsToo) {
			List<Expr> out = new ArrayList<>();
			for (Expr v : vals) {
				Expr n = expr(v);
				out.add(submitsToo ? extract(n) : extractCall(n));
			}
			return out;
		}

		@Override
		public Stmt ifStmt(Stmt.If i) {
			Expr cond = extractCall(expr(i.condition()));
			Stmt then = scopeBody(i.then());
			Stmt orelse = i.orelse() == null ? null : scopeBody(i.orelse());
			return new Stmt.If(cond, then, orelse, i.returnVars(), i.span());
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			Expr start = expr(f.start());
			Expr stop = expr(f.stop());
			Expr step = expr(f.step());
			start = extractCall(start);
			stop = extractCall(stop);
			step = extractCall(step);
			Stmt body = scopeBody(f.body());
			return new Stmt.For(f.loopVar(), start, stop, step, f.iterArgs(), body, f.returnVars(), f.kind(), f.attrs(),
					f.span());
		}

		@Override
		public Stmt whileStmt(Stmt.While w) {
			// The condition's temporary goes before the loop: evaluated once, as in pypto.
			Expr cond = extractCall(expr(w.condition()));
			Stmt body = scopeBody(w.body());
			return new Stmt.While(cond, w.iterArgs(), body, w.returnVars(), w.span());
		}

		@Override
		public Stmt scope(Stmt.Scope s) {
			if (s instanceof Stmt.CommDomainScope) {
				return super.scope(s); // pypto has no handler: its body's temporaries follow the plain rules
			}
			Stmt body = scopeBody(s.body());
			return body == s.body() ? s : s.withBody(body);
		}

		@Override
		public Expr expr(Expr e) {
			if (e instanceof Expr.Binary b) {
				Expr l = extractCall(expr(b.left()));
				Expr r = extractCall(expr(b.right()));
				return l == b.left() && r == b.right() ? b : new Expr.Binary(b.op(), l, r, b.dtype(), b.span());
			}
			if (e instanceof Expr.Unary u) {
				Expr o = extractCall(expr(u.operand()));
				return o == u.operand() ? u : new Expr.Unary(u.op(), o, u.dtype(), u.span());
			}
			return super.expr(e);
		}

		@Override
		public Expr call(Expr.Call c) {
			List<Expr> args = new ArrayList<>();
			boolean changed = false;
			for (Expr a : c.args()) {
				Expr n = extractCall(expr(a));
				changed |= n != a;
				args.add(n);
			}
			return changed ? c.withArgs(args) : c;
		}

		@Override
		public Expr submit(Expr.Submit s) {
			List<Expr> args = new ArrayList<>();
			boolean changed = false;
			for (Expr a : s.args()) {
				Expr n = extract(expr(a));
				changed |= n != a;
				args.add(n);
			}
			return changed ? s.withArgs(args) : s;
		}
	}
}
