package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's DeepClone (src/ir/transforms/utils/deep_clone_utils.cpp): a copy of a body with some Vars
 * replaced by expressions. Iter args are always re-created (same names); with {@code cloneDefVars} every
 * definition (assignment target, loop variable, loop and branch return vars) gets a fresh Var of the
 * same name, without it definitions keep their Var objects — which is why UnrollLoops' copies share them
 * and ConvertToSSA then versions them one after the other.
 */
public final class DeepClone extends IrMutator {

	private final Map<Var, Expr> map;
	private final boolean cloneDefVars;

	private DeepClone(Map<Var, Expr> seed, boolean cloneDefVars) {
		this.map = new HashMap<>(seed);
		this.cloneDefVars = cloneDefVars;
	}

	public static Stmt clone(Stmt body, Map<Var, Expr> seed, boolean cloneDefVars) {
		return new DeepClone(seed, cloneDefVars).stmt(body);
	}

	/** The body with the mapped Vars replaced everywhere (uses and definitions); nothing is re-created. */
	public static Stmt substitute(Stmt body, Map<Var, Expr> map) {
		return new IrMutator() {
			@Override
			public Expr var(Var v) {
				Expr m = map.get(v);
				return m != null ? m : v;
			}

			@Override
			public Var defVar(Var v) {
				return map.get(v) instanceof Var m ? m : v;
			}
		}.stmt(body);
	}

	@Override
	public Expr var(Var v) {
		Expr m = map.get(v);
		if (m != null) {
			return m;
		}
		if (v instanceof IterArg ia) {
			return freshIterArg(ia);
		}
		return v;
	}

	private IterArg freshIterArg(IterArg ia) {
		IterArg fresh = new IterArg(ia.name(), Types.mapExprs(ia.type(), this::expr), expr(ia.init()), ia.span());
		map.put(ia, fresh);
		return fresh;
	}

	@Override
	public Var defVar(Var v) {
		Expr m = map.get(v);
		if (m instanceof Var mv) {
			return mv;
		}
		if (!cloneDefVars || m != null) {
			return v;
		}
		Var fresh = new Var(v.name(), Types.mapExprs(v.type(), this::expr), v.span());
		map.put(v, fresh);
		return fresh;
	}

	@Override
	public List<IterArg> iterArgs(List<IterArg> iters) {
		List<IterArg> out = new ArrayList<>();
		for (IterArg ia : iters) {
			Expr m = map.get(ia);
			out.add(m instanceof IterArg mi ? mi : freshIterArg(ia));
		}
		return out;
	}

	/** Call result types and Expr attrs (e.g. device=) are remapped too, as pypto's IRMutator does. */
	@Override
	public Expr call(Expr.Call c) {
		Expr.Call r = (Expr.Call) super.call(c);
		dev.ptotools.codegen.ir.Type t = Types.mapExprs(r.type(), this::expr);
		Map<String, Object> attrs = VarRefs.mapAttrExprs(r.attrs(), this::expr);
		if (t == r.type() && attrs == r.attrs()) {
			return r;
		}
		return new Expr.Call(r.callee(), r.args(), r.kwargs(), attrs, t, r.span());
	}

	@Override
	public Expr submit(Expr.Submit s) {
		Expr.Submit r = (Expr.Submit) super.submit(s);
		dev.ptotools.codegen.ir.Type t = Types.mapExprs(r.type(), this::expr);
		Map<String, Object> attrs = VarRefs.mapAttrExprs(r.attrs(), this::expr);
		if (t == r.type() && attrs == r.attrs()) {
			return r;
		}
		return new Expr.Submit(r.callee(), r.args(), r.deps(), r.coreNum(), r.syncStart(), attrs, t, r.span());
	}

	@Override
	public Stmt stmt(Stmt s) {
		// Definitions are fresh before the statement's own expressions are visited, as pypto pre-registers them.
		if (cloneDefVars) {
			if (s instanceof Stmt.Assign a) {
				defVar(a.var());
			} else if (s instanceof Stmt.For f) {
				defVar(f.loopVar());
				f.returnVars().forEach(this::defVar);
			} else if (s instanceof Stmt.If i) {
				i.returnVars().forEach(this::defVar);
			} else if (s instanceof Stmt.While w) {
				w.returnVars().forEach(this::defVar);
			}
		}
		return super.stmt(s);
	}
}
