package dev.ptotools.codegen.passes.util;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's StoreEvalToAssignMutator: binds the result of each {@code tile.store} into an exported store
 * target to the outlined function's result Var ({@code c__store}), so the body names the written
 * buffer. {@code store(..)} evaluated → {@code c__store = store(..)}; {@code v = store(.., c)} → kept plus
 * {@code c__store = v}; {@code c = store(.., c)} → {@code c__store = store(.., c)}. Only the first store
 * into a target binds the declared Var; later ones get a fresh version of its name.
 */
final class StoreEvalToAssign extends IrMutator {

	private final Map<Var, Var> targetVars;
	private final Set<String> usedNames;
	private final Set<Var> claimed = VarCollectors.identitySet();

	StoreEvalToAssign(Map<Var, Var> targetVars, Set<String> usedNames) {
		this.targetVars = targetVars;
		this.usedNames = new HashSet<>(usedNames);
	}

	private Var trackedTarget(Expr value) {
		if (value instanceof Expr.Call c && c.isOp("tile.store") && c.args().size() >= 3 && VarCollectors.plainVar(c.args().get(2)) instanceof Var t
				&& targetVars.containsKey(t)) {
			return t;
		}
		return null;
	}

	private Var nextResultVar(Var target) {
		Var declared = targetVars.get(target);
		if (claimed.add(target)) {
			usedNames.add(declared.name());
			return declared;
		}
		String name = OutlineNames.freshNameLike(declared.name(), usedNames);
		usedNames.add(name);
		return new Var(name, declared.type(), declared.span());
	}

	@Override
	public Stmt stmt(Stmt s) {
		if (s instanceof Stmt.Eval e) {
			Var t = trackedTarget(e.expr());
			if (t != null) {
				return new Stmt.Assign(nextResultVar(t), e.expr(), e.span());
			}
			return s;
		}
		return super.stmt(s);
	}

	@Override
	public Stmt assign(Stmt.Assign a) {
		Var t = trackedTarget(a.value());
		if (t == null) {
			return super.assign(a);
		}
		Var result = nextResultVar(t);
		if (a.var() == t) {
			return new Stmt.Assign(result, a.value(), a.span());
		}
		return new Stmt.Seq(List.of(a, new Stmt.Assign(result, a.var(), a.span())), a.span());
	}
}
