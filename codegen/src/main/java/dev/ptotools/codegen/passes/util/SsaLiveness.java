package dev.ptotools.codegen.passes.util;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * ConvertToSSA's order-aware live-in analysis (convert_to_ssa_pass.cpp ComputeStmtLiveIn /
 * ComputeSeqLiveIn): the variables a statement reads from outside before assigning them. Loop bodies
 * drop their loop variable and iter args; a variable assigned before it is read in a sequence is not
 * live-in. It decides which variables first assigned in a loop escape it.
 */
public final class SsaLiveness {

	private SsaLiveness() {
	}

	public static Set<Var> liveIn(Stmt s) {
		Set<Var> used = new HashSet<>();
		if (s == null) {
			return used;
		}
		if (s instanceof Stmt.Assign a) {
			used.addAll(VarRefs.uses(a.value()));
		} else if (s instanceof Stmt.Eval e) {
			used.addAll(VarRefs.uses(e.expr()));
		} else if (s instanceof Stmt.Return r) {
			r.values().forEach(v -> used.addAll(VarRefs.uses(v)));
		} else if (s instanceof Stmt.Yield y) {
			y.values().forEach(v -> used.addAll(VarRefs.uses(v)));
		} else if (s instanceof Stmt.Seq q) {
			return seqLiveIn(q.stmts());
		} else if (s instanceof Stmt.For f) {
			addUses(used, f.start());
			addUses(used, f.stop());
			addUses(used, f.step());
			for (IterArg ia : f.iterArgs()) {
				addUses(used, ia.init());
			}
			Set<Var> body = liveIn(f.body());
			body.remove(f.loopVar());
			body.removeAll(f.iterArgs());
			used.addAll(body);
		} else if (s instanceof Stmt.While w) {
			addUses(used, w.condition());
			for (IterArg ia : w.iterArgs()) {
				addUses(used, ia.init());
			}
			Set<Var> body = liveIn(w.body());
			body.removeAll(w.iterArgs());
			used.addAll(body);
		} else if (s instanceof Stmt.If i) {
			addUses(used, i.condition());
			used.addAll(liveIn(i.then()));
			used.addAll(liveIn(i.orelse()));
		} else if (s instanceof Stmt.Scope sc) {
			used.addAll(liveIn(sc.body()));
			if (sc instanceof Stmt.SpmdScope sp) {
				addUses(used, sp.coreNum());
			}
		}
		return used;
	}

	private static void addUses(Set<Var> used, Expr e) {
		if (e != null) {
			used.addAll(VarRefs.uses(e));
		}
	}

	public static Set<Var> seqLiveIn(List<Stmt> stmts) {
		Set<Var> defined = new HashSet<>();
		Set<Var> live = new HashSet<>();
		for (Stmt s : stmts) {
			for (Var v : liveIn(s)) {
				if (!defined.contains(v)) {
					live.add(v);
				}
			}
			defined.addAll(VarRefs.assignDefs(s));
		}
		return live;
	}
}
