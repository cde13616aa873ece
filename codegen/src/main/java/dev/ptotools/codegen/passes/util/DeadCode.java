package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's dead-code helpers for Simplify (src/ir/transforms/utils/dead_code_elimination.cpp): removal of
 * scalar assignments nothing reads (whose value has no call), and of if return vars (phis) nothing reads
 * together with their yield slots. Both work on a statement list and recurse into loop, branch and scope
 * bodies.
 */
public final class DeadCode {

	private DeadCode() {
	}

	/** pypto's EliminateDeadScalarAssignments. */
	public static List<Stmt> deadScalarAssignments(List<Stmt> stmts) {
		return eliminate(stmts, DeadCode::removableScalarAssign);
	}

	/** pypto's EliminateDeadIfReturnVars: to a fixpoint. */
	public static List<Stmt> deadIfReturnVars(List<Stmt> stmts) {
		List<Stmt> cur = stmts;
		while (true) {
			Set<Var> uses = new HashSet<>();
			for (Stmt s : cur) {
				uses.addAll(stmtUses(s));
			}
			boolean[] changed = { false };
			List<Stmt> next = rewriteDeadPhis(cur, uses, changed);
			if (!changed[0]) {
				return cur;
			}
			cur = next;
		}
	}

	// ── def/use with pypto's VarDefUseCollector semantics ───────────────────

	/** Variables referenced by an expression (no type or iter-arg-init recursion; call attrs included). */
	static Set<Var> exprUses(Expr e) {
		Set<Var> out = new LinkedHashSet<>();
		if (e == null) {
			return out;
		}
		new IrVisitor() {
			@Override
			public void use(Var v) {
				out.add(v);
			}

			@Override
			public void call(Expr.Call c) {
				super.call(c);
				VarRefs.attrExprs(c.attrs().values()).forEach(this::expr);
			}

			@Override
			public void submit(Expr.Submit s) {
				super.submit(s);
				VarRefs.attrExprs(s.attrs().values()).forEach(this::expr);
			}
		}.expr(e);
		return out;
	}

	/** All uses anywhere in a statement (VarDefUseCollector::var_uses). */
	static Set<Var> stmtUses(Stmt s) {
		Set<Var> out = new LinkedHashSet<>();
		new IrVisitor() {
			@Override
			public void use(Var v) {
				out.add(v);
			}

			@Override
			public void call(Expr.Call c) {
				super.call(c);
				VarRefs.attrExprs(c.attrs().values()).forEach(this::expr);
			}

			@Override
			public void submit(Expr.Submit sb) {
				super.submit(sb);
				VarRefs.attrExprs(sb.attrs().values()).forEach(this::expr);
			}

			@Override
			public void scope(Stmt.Scope sc) {
				if (sc instanceof Stmt.InCoreScope ic) {
					VarRefs.attrExprs(ic.attrs().values()).forEach(this::expr);
				}
				super.scope(sc);
			}
		}.stmt(s);
		return out;
	}

	/** Vars inside a type's shape, stride and valid-shape expressions (pypto's CollectTypeVars). */
	static Set<Var> typeVars(Type t) {
		Set<Var> out = new LinkedHashSet<>();
		Types.mapExprs(t, e -> {
			out.addAll(exprUses(e));
			return e;
		});
		return out;
	}

	// ── scalar DCE ──────────────────────────────────────────────────────────

	private static boolean containsCall(Expr e) {
		boolean[] found = { false };
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				found[0] = true;
				super.call(c);
			}

			@Override
			public void submit(Expr.Submit s) {
				found[0] = true;
				super.submit(s);
			}
		}.expr(e);
		return found[0];
	}

	private static boolean taskIdTupleElement(Stmt.Assign a) {
		if (!(a.value() instanceof Expr.TupleGetItem g) || !(g.tuple() instanceof Var tv)
				|| !(tv.type() instanceof Type.Tuple tt) || tt.elements().isEmpty()) {
			return false;
		}
		return g.index() == tt.elements().size() - 1 && tt.elements().get(tt.elements().size() - 1) instanceof Type.Scalar s
				&& s.dtype() == DType.TASK_ID;
	}

	private static boolean removableScalarAssign(Stmt s) {
		return s instanceof Stmt.Assign a && a.var().type() instanceof Type.Scalar && !taskIdTupleElement(a)
				&& !containsCall(a.value());
	}

	private static List<Stmt> body(Stmt s) {
		return Stmts.topLevel(s);
	}

	private static List<Stmt> eliminate(List<Stmt> stmts, Predicate<Stmt> removable) {
		Set<Var> live = new HashSet<>();
		findLiveRoots(stmts, removable, live);
		markBinderTypeRefs(stmts, live);
		List<Stmt.Assign> assigns = new ArrayList<>();
		collectAssigns(stmts, assigns);
		List<Set<Var>> assignUses = new ArrayList<>();
		for (Stmt.Assign a : assigns) {
			Set<Var> u = exprUses(a.value());
			u.addAll(typeVars(a.var().type()));
			assignUses.add(u);
		}
		boolean changed = true;
		while (changed) {
			changed = false;
			for (int i = assigns.size() - 1; i >= 0; i--) {
				if (!live.contains(assigns.get(i).var())) {
					continue;
				}
				for (Var r : assignUses.get(i)) {
					changed |= live.add(r);
				}
			}
		}
		return filter(stmts, removable, live);
	}

	private static void collectAssigns(List<Stmt> stmts, List<Stmt.Assign> out) {
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a) {
				out.add(a);
			}
			if (s instanceof Stmt.For f) {
				collectAssigns(body(f.body()), out);
			} else if (s instanceof Stmt.If i) {
				collectAssigns(body(i.then()), out);
				if (i.orelse() != null) {
					collectAssigns(body(i.orelse()), out);
				}
			} else if (s instanceof Stmt.While w) {
				collectAssigns(body(w.body()), out);
			} else if (s instanceof Stmt.Scope sc) {
				collectAssigns(body(sc.body()), out);
			}
		}
	}

	private static void findLiveRoots(List<Stmt> stmts, Predicate<Stmt> removable, Set<Var> live) {
		for (Stmt s : stmts) {
			boolean leaf = s instanceof Stmt.Assign || s instanceof Stmt.Eval || s instanceof Stmt.Return
					|| s instanceof Stmt.Yield;
			if (leaf && !removable.test(s)) {
				if (s instanceof Stmt.Assign a) {
					live.add(a.var());
				}
				live.addAll(stmtUses(s));
			}
			if (s instanceof Stmt.For f) {
				live.addAll(exprUses(f.start()));
				live.addAll(exprUses(f.stop()));
				live.addAll(exprUses(f.step()));
				for (IterArg ia : f.iterArgs()) {
					live.addAll(exprUses(ia.init()));
				}
				findLiveRoots(body(f.body()), removable, live);
			} else if (s instanceof Stmt.If i) {
				live.addAll(exprUses(i.condition()));
				findLiveRoots(body(i.then()), removable, live);
				if (i.orelse() != null) {
					findLiveRoots(body(i.orelse()), removable, live);
				}
			} else if (s instanceof Stmt.While w) {
				live.addAll(exprUses(w.condition()));
				for (IterArg ia : w.iterArgs()) {
					live.addAll(exprUses(ia.init()));
				}
				findLiveRoots(body(w.body()), removable, live);
			} else if (s instanceof Stmt.Scope sc) {
				if (sc instanceof Stmt.InCoreScope ic) {
					for (Expr e : VarRefs.attrExprs(ic.attrs().values())) {
						live.addAll(exprUses(e));
					}
				}
				if (sc instanceof Stmt.SpmdScope sp) {
					live.addAll(exprUses(sp.coreNum()));
				}
				findLiveRoots(body(sc.body()), removable, live);
			}
		}
	}

	private static void markBinderTypeRefs(List<Stmt> stmts, Set<Var> live) {
		for (Stmt s : stmts) {
			if (s instanceof Stmt.For f) {
				f.iterArgs().forEach(v -> live.addAll(typeVars(v.type())));
				f.returnVars().forEach(v -> live.addAll(typeVars(v.type())));
				markBinderTypeRefs(body(f.body()), live);
			} else if (s instanceof Stmt.While w) {
				w.iterArgs().forEach(v -> live.addAll(typeVars(v.type())));
				w.returnVars().forEach(v -> live.addAll(typeVars(v.type())));
				markBinderTypeRefs(body(w.body()), live);
			} else if (s instanceof Stmt.If i) {
				i.returnVars().forEach(v -> live.addAll(typeVars(v.type())));
				markBinderTypeRefs(body(i.then()), live);
				if (i.orelse() != null) {
					markBinderTypeRefs(body(i.orelse()), live);
				}
			} else if (s instanceof Stmt.Seq q) {
				markBinderTypeRefs(q.stmts(), live);
			} else if (s instanceof Stmt.Scope sc) {
				markBinderTypeRefs(body(sc.body()), live);
			}
		}
	}

	private static boolean same(List<Stmt> a, List<Stmt> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (int i = 0; i < a.size(); i++) {
			if (a.get(i) != b.get(i)) {
				return false;
			}
		}
		return true;
	}

	private static Stmt make(List<Stmt> stmts, Stmt like) {
		return Stmts.flatten(stmts, like.span());
	}

	private static List<Stmt> filter(List<Stmt> stmts, Predicate<Stmt> removable, Set<Var> live) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a) {
				if (!(removable.test(s) && !live.contains(a.var()))) {
					out.add(s);
				}
			} else if (s instanceof Stmt.For f) {
				List<Stmt> orig = body(f.body());
				List<Stmt> fl = filter(orig, removable, live);
				out.add(same(fl, orig) ? s : f.withBody(make(fl, f)));
			} else if (s instanceof Stmt.If i) {
				List<Stmt> thenOrig = body(i.then());
				List<Stmt> thenF = filter(thenOrig, removable, live);
				boolean elseSame = true;
				Stmt elseNew = null;
				if (i.orelse() != null) {
					List<Stmt> elseOrig = body(i.orelse());
					List<Stmt> elseF = filter(elseOrig, removable, live);
					elseSame = same(elseF, elseOrig);
					elseNew = make(elseF, i);
				}
				if (same(thenF, thenOrig) && elseSame) {
					out.add(s);
				} else {
					out.add(new Stmt.If(i.condition(), make(thenF, i), elseNew, i.returnVars(), i.span()));
				}
			} else if (s instanceof Stmt.While w) {
				List<Stmt> orig = body(w.body());
				List<Stmt> fl = filter(orig, removable, live);
				out.add(same(fl, orig) ? s : new Stmt.While(w.condition(), w.iterArgs(), make(fl, w), w.returnVars(), w.span()));
			} else if (s instanceof Stmt.Scope sc) {
				List<Stmt> orig = body(sc.body());
				List<Stmt> fl = filter(orig, removable, live);
				out.add(same(fl, orig) ? s : sc.withBody(make(fl, sc)));
			} else {
				out.add(s);
			}
		}
		return out;
	}

	// ── dead if return vars ─────────────────────────────────────────────────

	private static void filterYieldSlots(List<Stmt> branch, List<Integer> kept) {
		if (branch.isEmpty() || !(branch.get(branch.size() - 1) instanceof Stmt.Yield y)) {
			return;
		}
		if (kept.isEmpty()) {
			branch.remove(branch.size() - 1);
			return;
		}
		List<Expr> vals = new ArrayList<>();
		for (int k : kept) {
			vals.add(y.values().get(k));
		}
		branch.set(branch.size() - 1, new Stmt.Yield(vals, y.span()));
	}

	private static List<Stmt> rewriteDeadPhis(List<Stmt> stmts, Set<Var> uses, boolean[] changed) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.If i) {
				List<Stmt> thenStmts = body(i.then());
				List<Stmt> newThen = new ArrayList<>(rewriteDeadPhis(thenStmts, uses, changed));
				List<Stmt> elseStmts = null;
				List<Stmt> newElse = null;
				boolean elseSame = true;
				if (i.orelse() != null) {
					elseStmts = body(i.orelse());
					newElse = new ArrayList<>(rewriteDeadPhis(elseStmts, uses, changed));
					elseSame = same(newElse, elseStmts);
				}
				List<Integer> kept = new ArrayList<>();
				List<Var> keptVars = new ArrayList<>();
				for (int k = 0; k < i.returnVars().size(); k++) {
					if (uses.contains(i.returnVars().get(k))) {
						kept.add(k);
						keptVars.add(i.returnVars().get(k));
					}
				}
				boolean dropped = kept.size() < i.returnVars().size();
				if (!dropped && same(newThen, thenStmts) && elseSame) {
					out.add(s);
					continue;
				}
				if (dropped) {
					filterYieldSlots(newThen, kept);
					if (newElse != null) {
						filterYieldSlots(newElse, kept);
					}
					changed[0] = true;
				}
				out.add(new Stmt.If(i.condition(), make(newThen, i), newElse != null ? make(newElse, i) : null,
						dropped ? keptVars : i.returnVars(), i.span()));
			} else if (s instanceof Stmt.For f) {
				List<Stmt> orig = body(f.body());
				List<Stmt> rw = rewriteDeadPhis(orig, uses, changed);
				out.add(same(rw, orig) ? s : f.withBody(make(rw, f)));
			} else if (s instanceof Stmt.While w) {
				List<Stmt> orig = body(w.body());
				List<Stmt> rw = rewriteDeadPhis(orig, uses, changed);
				out.add(same(rw, orig) ? s : new Stmt.While(w.condition(), w.iterArgs(), make(rw, w), w.returnVars(), w.span()));
			} else if (s instanceof Stmt.Scope sc) {
				List<Stmt> orig = body(sc.body());
				List<Stmt> rw = rewriteDeadPhis(orig, uses, changed);
				out.add(same(rw, orig) ? s : sc.withBody(make(rw, sc)));
			} else {
				out.add(s);
			}
		}
		return out;
	}
}
