package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * A mutator that substitutes Vars by identity, with pypto's IRMutator var_remap_ behaviour: a Var whose
 * type mentions a substituted Var (a dynamic dim) is replaced by a fresh Var of the substituted type, and
 * a loop's iter arg whose init value changes becomes a new IterArg that every use in the body follows.
 * {@link #remap} holds the substitutions made so far; subclasses add to it.
 */
public class RemapMutator extends IrMutator {

	protected final Map<Var, Var> remap = new IdentityHashMap<>();

	public RemapMutator() {
	}

	public RemapMutator(Map<Var, Var> initial) {
		remap.putAll(initial);
	}

	/** The Var v became (itself when unchanged). */
	public Var mapped(Var v) {
		Var r = remap.get(v);
		return r == null ? v : r;
	}

	@Override
	public Expr var(Var v) {
		return mapVar(v);
	}

	@Override
	public Var defVar(Var v) {
		return mapVar(v);
	}

	protected Var mapVar(Var v) {
		Var r = remap.get(v);
		if (r != null) {
			Type t = substType(r.type());
			if (t != r.type()) {
				Var fresh = retype(r, t);
				remap.put(v, fresh);
				return fresh;
			}
			return r;
		}
		Type t = substType(v.type());
		if (t != v.type()) {
			Var fresh = retype(v, t);
			remap.put(v, fresh);
			return fresh;
		}
		return v;
	}

	private static Var retype(Var v, Type t) {
		return v instanceof IterArg ia ? new IterArg(ia.name(), t, ia.init(), ia.span()) : v.retyped(t);
	}

	/** The type with substituted Vars in its shape (the same object when nothing changed). */
	protected Type substType(Type t) {
		if (t instanceof Type.Tensor x) {
			List<Expr> s = dims(x.shape());
			return s == x.shape() ? t : x.withShape(s);
		}
		if (t instanceof Type.Tile x) {
			List<Expr> s = dims(x.shape());
			List<Expr> vs = x.validShape() == null ? null : dims(x.validShape());
			return s == x.shape() && vs == x.validShape() ? t : new Type.Tile(s, x.dtype(), x.memory(), vs);
		}
		return t;
	}

	private List<Expr> dims(List<Expr> shape) {
		boolean mentions = false;
		for (Expr e : shape) {
			mentions |= mentionsRemapped(e);
		}
		return mentions ? exprs(shape) : shape;
	}

	private boolean mentionsRemapped(Expr e) {
		boolean[] hit = { false };
		new PyptoVisitor() {
			@Override
			protected void varUse(Var v) {
				hit[0] |= remap.containsKey(v);
			}

			@Override
			protected void iterArgUse(IterArg a) {
				hit[0] |= remap.containsKey(a);
			}
		}.expr(e);
		return hit[0];
	}

	/** A Spmd scope's core count is an expression of the enclosing scope: substituted too. */
	@Override
	public Stmt scope(Stmt.Scope s) {
		if (s instanceof Stmt.SpmdScope sp) {
			Expr core = expr(sp.coreNum());
			Stmt body = stmt(sp.body());
			return core == sp.coreNum() && body == sp.body() ? sp
					: new Stmt.SpmdScope(sp.nameHint(), core, sp.syncStart(), sp.attrs(), body, sp.span());
		}
		return super.scope(s);
	}

	@Override
	public List<IterArg> iterArgs(List<IterArg> iters) {
		List<IterArg> out = new ArrayList<>(iters.size());
		boolean changed = false;
		for (IterArg a : iters) {
			Expr init = expr(a.init());
			Var m = remap.get(a);
			IterArg base = m instanceof IterArg mi ? mi : a;
			Type t = substType(base.type());
			IterArg n = init == base.init() && t == base.type() ? base : new IterArg(base.name(), t, init, base.span());
			if (n != a) {
				remap.put(a, n);
				changed = true;
			}
			out.add(n);
		}
		return changed ? out : iters;
	}
}
