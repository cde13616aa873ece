package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.ir.WindowBuffer;
import dev.ptotools.codegen.passes.util.arith.Analyzer;
import dev.ptotools.codegen.passes.util.arith.Arith;
import dev.ptotools.codegen.passes.util.arith.ConstIntBound;

/**
 * The statement walk of pypto's Simplify (src/ir/transforms/simplify_pass.cpp, SimplifyMutator): every
 * scalar expression goes through the analyzer; a scalar assigned a constant at the top level of the
 * function (or directly in a pl.at / pl.scope body) is substituted into later uses; loops proven to run
 * zero or one time and branches whose condition is decided are removed, the uses of their return vars
 * replaced by the yielded values. The dead-code clean-up afterwards is in {@link DeadCode}.
 */
public final class SimplifyMutator extends IrMutator {

	private final Analyzer analyzer = new Analyzer();
	private final Set<Var> multiAssigned;
	private Map<Var, Expr> remap = new HashMap<>();
	private final List<Var> bindingLog = new ArrayList<>();
	private int depth;

	public SimplifyMutator(Set<Var> multiAssigned) {
		this.multiAssigned = multiAssigned;
	}

	// ── expressions ──────────────────────────────────────────────────────────

	@Override
	public Expr var(Var v) {
		if (v instanceof IterArg ia) {
			return iterArgUse(ia);
		}
		// Constant bindings are folded at every Var leaf (the analyzer does not look inside calls).
		Expr r = remap.get(v);
		return analyzer.simplify(r != null ? r : v);
	}

	/** pypto's base IRMutator for an IterArg reference: rebuilt (memoised) when its init or type changes. */
	private Expr iterArgUse(IterArg ia) {
		Expr r = remap.get(ia);
		if (r != null) {
			if (r == ia) {
				return r;
			}
			Expr resolved = expr(r);
			if (resolved != r) {
				remap.put(ia, resolved);
			}
			return resolved;
		}
		Expr init = expr(ia.init());
		Type type = Types.mapExprs(ia.type(), this::expr);
		if (init == ia.init() && type == ia.type()) {
			return ia;
		}
		IterArg fresh = new IterArg(ia.name(), type, init, ia.span());
		remap.put(ia, fresh);
		return fresh;
	}

	@Override
	public Expr expr(Expr e) {
		if (e instanceof Expr.Binary b) {
			Expr l = expr(b.left());
			Expr r = expr(b.right());
			Expr n = l == b.left() && r == b.right() ? b : new Expr.Binary(b.op(), l, r, b.dtype(), b.span());
			return analyzer.simplify(n);
		}
		if (e instanceof Expr.Unary u) {
			Expr o = expr(u.operand());
			Expr n = o == u.operand() ? u : new Expr.Unary(u.op(), o, u.dtype(), u.span());
			return analyzer.simplify(n);
		}
		return super.expr(e);
	}

	@Override
	public Expr call(Expr.Call c) {
		List<Expr> args = exprs(c.args());
		Type type = Types.mapExprs(c.type(), this::expr);
		Map<String, Object> attrs = VarRefs.mapAttrExprs(c.attrs(), this::expr);
		Expr.Call base = args == c.args() && type == c.type() && attrs == c.attrs() ? c
				: new Expr.Call(c.callee(), args, c.kwargs(), attrs, type, c.span());
		Expr result = base.isOp("tensor.view") ? identityView(base) : base;
		if (!(result instanceof Expr.Call rc)) {
			return result;
		}
		Type simplified = simplifyType(rc.type());
		return simplified == rc.type() ? rc : rc.withType(simplified);
	}

	/** {@code tensor.view(x)} to the layout x already has is x. */
	private static Expr identityView(Expr.Call c) {
		if (c.args().size() != 1) {
			return c;
		}
		Expr src = c.args().get(0);
		if (!(src.type() instanceof Type.Tensor st) || !(c.type() instanceof Type.Tensor ot)) {
			return c;
		}
		String sl = st.view() != null ? st.view().layout() : "ND";
		String tl = ot.view() != null ? ot.view().layout() : "ND";
		return sl.equals(tl) ? src : c;
	}

	@Override
	public Expr submit(Expr.Submit s) {
		Expr.Submit r = (Expr.Submit) super.submit(s);
		Type type = Types.mapExprs(r.type(), this::expr);
		Map<String, Object> attrs = VarRefs.mapAttrExprs(r.attrs(), this::expr);
		if (type == r.type() && attrs == r.attrs()) {
			return r;
		}
		return new Expr.Submit(r.callee(), r.args(), r.deps(), r.coreNum(), r.syncStart(), attrs, type, r.span());
	}

	private Expr simplifyExpr(Expr e) {
		return e == null ? null : analyzer.simplify(expr(e));
	}

	private Type simplifyType(Type t) {
		return Types.mapExprs(t, this::simplifyExpr);
	}

	// ── statements ───────────────────────────────────────────────────────────

	@Override
	public Stmt stmt(Stmt s) {
		if (s instanceof Stmt.Return r) {
			List<Expr> v = simplifyAll(r.values());
			return v == r.values() ? r : new Stmt.Return(v, r.span());
		}
		if (s instanceof Stmt.Yield y) {
			List<Expr> v = simplifyAll(y.values());
			return v == y.values() ? y : new Stmt.Yield(v, y.span());
		}
		if (s instanceof Stmt.Eval e) {
			Expr x = simplifyExpr(e.expr());
			return x == e.expr() ? e : new Stmt.Eval(x, e.span());
		}
		return super.stmt(s);
	}

	private List<Expr> simplifyAll(List<Expr> es) {
		return Types.map(es, this::simplifyExpr);
	}

	@Override
	public Stmt seq(Stmt.Seq q) {
		List<Stmt> out = new ArrayList<>();
		boolean changed = false;
		for (Stmt s : q.stmts()) {
			Stmt n = stmt(s);
			changed |= n != s;
			out.add(n);
		}
		return changed ? Stmts.flatten(out, q.span()) : q;
	}

	@Override
	public Stmt assign(Stmt.Assign a) {
		Expr value = simplifyExpr(a.value());
		Var v = maybeRebuildVar(a.var());
		if (v.type() instanceof Type.Scalar && !multiAssigned.contains(a.var())) {
			boolean constant = value instanceof Expr.ConstInt || value instanceof Expr.ConstFloat
					|| value instanceof Expr.ConstBool;
			if (constant && depth == 0) {
				try {
					analyzer.bind(v, value);
				} catch (dev.ptotools.codegen.support.CodegenException e) {
					// pypto fails the same way on a top-level bool constant (its comparison analyzer rejects bool).
					throw new dev.ptotools.codegen.support.CodegenException(e.getMessage(), a.span());
				}
				bindingLog.add(v);
			} else {
				bindBound(v, value);
			}
		}
		return value == a.value() && v == a.var() ? a : new Stmt.Assign(v, value, a.span());
	}

	/** Only the value's integer range, intersected with the variable's default (INDEX is non-negative). */
	private void bindBound(Var v, Expr value) {
		ConstIntBound.Bound rhs = analyzer.bound(value);
		ConstIntBound.Bound def = analyzer.bound(v);
		ConstIntBound.Bound b = new ConstIntBound.Bound(Math.max(rhs.min(), def.min()), Math.min(rhs.max(), def.max()));
		if (b.min() > b.max()) {
			return;
		}
		analyzer.updateBound(v, b);
		bindingLog.add(v);
	}

	private void unbindSince(int mark) {
		for (int i = bindingLog.size(); i > mark; i--) {
			analyzer.unbind(bindingLog.get(i - 1));
		}
		while (bindingLog.size() > mark) {
			bindingLog.remove(bindingLog.size() - 1);
		}
	}

	private Stmt scopedBody(Stmt body) {
		int mark = bindingLog.size();
		depth++;
		Stmt out = stmt(body);
		depth--;
		unbindSince(mark);
		return out;
	}

	private Var maybeRebuildVar(Var v) {
		if (remap.get(v) instanceof Var existing) {
			return existing;
		}
		Type t = simplifyType(v.type());
		if (t == v.type()) {
			return v;
		}
		Var fresh = new Var(v.name(), t, v.span());
		remap.put(v, fresh);
		return fresh;
	}

	private IterArg maybeRebuildIterArg(IterArg ia) {
		Type t = simplifyType(ia.type());
		Expr init = simplifyExpr(ia.init());
		if (t == ia.type() && init == ia.init()) {
			return ia;
		}
		IterArg fresh = new IterArg(ia.name(), t, init, ia.span());
		remap.put(ia, fresh);
		return fresh;
	}

	@Override
	public Stmt forStmt(Stmt.For f) {
		Expr start = simplifyExpr(f.start());
		Expr stop = simplifyExpr(f.stop());
		Expr step = simplifyExpr(f.step());
		List<IterArg> iters = new ArrayList<>();
		boolean itersChanged = false;
		for (IterArg ia : f.iterArgs()) {
			IterArg n = maybeRebuildIterArg(ia);
			itersChanged |= n != ia;
			iters.add(n);
		}
		boolean pure = f.attrs().isEmpty() && f.kind() == Stmt.ForKind.Sequential;
		if (pure && analyzer.canProveGreaterEqual(step, 1)) {
			Span sp = f.span();
			if (analyzer.canProve(Arith.make(BinaryOp.Le, stop, start, sp))) {
				List<Stmt> out = new ArrayList<>();
				for (int i = 0; i < f.returnVars().size(); i++) {
					out.add(new Stmt.Assign(maybeRebuildVar(f.returnVars().get(i)), iters.get(i).init(), sp));
				}
				return Stmts.flatten(out, sp);
			}
			Expr oneTrip = Arith.make(BinaryOp.And, Arith.make(BinaryOp.Lt, start, stop, sp),
					Arith.make(BinaryOp.Le, stop, Arith.make(BinaryOp.Add, start, step, sp), sp), sp);
			if (analyzer.canProve(oneTrip)) {
				Map<Var, Expr> sub = new HashMap<>();
				sub.put(f.loopVar(), start);
				for (int i = 0; i < f.iterArgs().size(); i++) {
					sub.put(f.iterArgs().get(i), iters.get(i).init());
				}
				Stmt cloned = DeepClone.clone(f.body(), sub, true);
				Map<Var, Expr> baseline = new HashMap<>(remap);
				Stmt unrolled = stmt(cloned);
				remap = baseline;
				return lift(unrolled, f.returnVars());
			}
		}
		boolean bound = start instanceof Expr.ConstInt s0 && stop instanceof Expr.ConstInt s1 && s1.value() > s0.value();
		if (bound) {
			analyzer.bind(f.loopVar(), ((Expr.ConstInt) start).value(), ((Expr.ConstInt) stop).value());
		}
		Map<Var, Expr> baseline = new HashMap<>(remap);
		Stmt body = scopedBody(f.body());
		if (bound) {
			analyzer.unbind(f.loopVar());
		}
		remap = baseline;
		List<Var> rvs = new ArrayList<>();
		boolean rvsChanged = false;
		for (Var rv : f.returnVars()) {
			Var n = maybeRebuildVar(rv);
			rvsChanged |= n != rv;
			rvs.add(n);
		}
		if (start == f.start() && stop == f.stop() && step == f.step() && body == f.body() && !itersChanged && !rvsChanged) {
			return f;
		}
		return new Stmt.For(f.loopVar(), start, stop, step, iters, body, rvs, f.kind(), f.attrs(), f.span());
	}

	@Override
	public Stmt whileStmt(Stmt.While w) {
		// pypto leaves a while loop's iter args as they are (their inits are not simplified).
		Expr cond = simplifyExpr(w.condition());
		Stmt body = scopedBody(w.body());
		if (cond == w.condition() && body == w.body()) {
			return w;
		}
		return new Stmt.While(cond, w.iterArgs(), body, w.returnVars(), w.span());
	}

	@Override
	public Stmt ifStmt(Stmt.If i) {
		Expr cond = simplifyExpr(i.condition());
		Map<Var, Expr> baseline = new HashMap<>(remap);
		int mark = bindingLog.size();
		Runnable exit = analyzer.enterConstraint(cond);
		depth++;
		Stmt then = stmt(i.then());
		depth--;
		exit.run();
		Map<Var, Expr> thenRemap = remap;
		remap = new HashMap<>(baseline);
		unbindSince(mark);
		Stmt orelse = null;
		if (i.orelse() != null) {
			exit = analyzer.enterConstraint(Arith.not(cond));
			depth++;
			orelse = stmt(i.orelse());
			depth--;
			exit.run();
		}
		Map<Var, Expr> elseRemap = remap;
		remap = new HashMap<>(baseline);
		unbindSince(mark);
		boolean alwaysTrue = analyzer.canProve(cond);
		boolean alwaysFalse = !alwaysTrue && analyzer.canProve(Arith.not(cond));
		if (alwaysTrue || alwaysFalse) {
			Stmt kept;
			if (alwaysTrue) {
				kept = then;
				remap = thenRemap;
			} else if (orelse != null) {
				kept = orelse;
				remap = elseRemap;
			} else {
				return new Stmt.Seq(List.of(), i.span());
			}
			return lift(kept, i.returnVars());
		}
		if (cond == i.condition() && then == i.then() && orelse == i.orelse()) {
			return i;
		}
		return new Stmt.If(cond, then, orelse, i.returnVars(), i.span());
	}

	@Override
	public Stmt scope(Stmt.Scope s) {
		if (s instanceof Stmt.SpmdScope sp) {
			Expr core = simplifyExpr(sp.coreNum());
			Stmt body = scopedBody(sp.body());
			if (core == sp.coreNum() && body == sp.body()) {
				return sp;
			}
			return new Stmt.SpmdScope(sp.nameHint(), core, sp.syncStart(), VarRefs.mapAttrExprs(sp.attrs(), this::expr), body,
					sp.span());
		}
		if (s instanceof Stmt.InCoreScope ic) {
			Map<String, Object> attrs = VarRefs.mapAttrExprs(ic.attrs(), this::expr);
			Stmt body = stmt(ic.body());
			if (attrs == ic.attrs() && body == ic.body()) {
				return ic;
			}
			return new Stmt.InCoreScope(ic.nameHint(), ic.split(), attrs, body, ic.span());
		}
		if (s instanceof Stmt.CommDomainScope cd) {
			return commDomain(cd);
		}
		return super.scope(s);
	}

	/**
	 * pypto's IRMutator on a CommDomainScopeStmt: the body first, then every slot's size; a slot whose size
	 * simplifies to something new is rebuilt as a fresh WindowBuffer (mutator.cpp, VisitExpr_(WindowBuffer)),
	 * which the views typed against the old one no longer find (see {@link WindowBuffer#rebuilt()}).
	 */
	private Stmt commDomain(Stmt.CommDomainScope cd) {
		Stmt body = stmt(cd.body());
		List<WindowBuffer> slots = new ArrayList<>(cd.slots().size());
		boolean slotsChanged = false;
		for (WindowBuffer w : cd.slots()) {
			Expr size = simplifyExpr(w.size());
			boolean changed = size != w.size() && !StructuralExprEquality.equal(size, w.size());
			slots.add(changed ? w.rebuiltWithSize(size) : w);
			slotsChanged |= changed;
		}
		if (body == cd.body() && !slotsChanged) {
			return cd;
		}
		return new Stmt.CommDomainScope(cd.nameHint(), cd.devices(), slots, body, cd.span());
	}

	/**
	 * The kept body of a decided branch or a one-trip loop, spliced into the parent: its trailing yield is
	 * dropped and later uses of the statement's return vars read the yielded values instead.
	 */
	private Stmt lift(Stmt kept, List<Var> returnVars) {
		if (returnVars.isEmpty()) {
			return kept;
		}
		List<Expr> yielded = new ArrayList<>();
		Stmt body = stripTrailingYield(kept, yielded);
		for (int i = 0; i < returnVars.size(); i++) {
			remap.put(returnVars.get(i), yielded.get(i));
		}
		return body != null ? body : new Stmt.Seq(List.of(), kept.span());
	}

	/** The body without its trailing yield (null when nothing is left); the yielded values go to out. */
	private static Stmt stripTrailingYield(Stmt body, List<Expr> out) {
		if (body instanceof Stmt.Seq q) {
			List<Stmt> stmts = new ArrayList<>(q.stmts());
			Stmt inner = stripTrailingYield(stmts.get(stmts.size() - 1), out);
			if (inner != null) {
				stmts.set(stmts.size() - 1, inner);
			} else {
				stmts.remove(stmts.size() - 1);
			}
			return Stmts.flatten(stmts, q.span());
		}
		if (body instanceof Stmt.Yield y) {
			out.addAll(y.values());
			return null;
		}
		throw new dev.ptotools.codegen.support.CodegenException(
				"internal error: a control-flow body with return vars must end with a yield", body.span());
	}
}
