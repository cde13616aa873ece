package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.ReturnLineage;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's NormalizeReturnOrder (src/ir/transforms/normalize_return_order_pass.cpp): in kernels and
 * Group/Spmd wrappers every returned value that is the buffer of a tensor parameter is returned as that
 * parameter (a wrapper forwarding a whole result tuple returns the parameters one by one); kernel
 * (InCore/AIC/AIV) returns are then sorted into the order of their Out/InOut parameters, and callers'
 * projections {@code ret__tmp_v0[i]} of a reordered call follow. Wrapper return order is never changed.
 */
public final class NormalizeReturnOrderPass implements Pass {

	@Override
	public String name() {
		return "NormalizeReturnOrder";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.ReturnParamsExplicit);
	}

	static boolean kernel(FunctionType t) {
		return t == FunctionType.InCore || t == FunctionType.AIC || t == FunctionType.AIV;
	}

	static boolean wrapper(FunctionType t) {
		return t == FunctionType.Group || t == FunctionType.Spmd;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Map<String, int[]> permutations = new HashMap<>();
		List<Function> fs = new ArrayList<>();
		boolean modified = false;
		for (Function f : program.sortedByName()) {
			if (!kernel(f.type()) && !wrapper(f.type())) {
				fs.add(f);
				continue;
			}
			Function cur = f;
			Function canonical = canonicalizeReturns(cur, program);
			if (canonical != null) {
				cur = canonical;
				modified = true;
			}
			int[] perm = kernel(cur.type()) ? permutation(cur) : null;
			if (perm != null) {
				cur = reorder(cur, perm);
				permutations.put(cur.name(), perm);
				modified = true;
			}
			fs.add(cur);
		}
		if (!modified) {
			return program;
		}
		List<Function> out = new ArrayList<>();
		for (Function f : fs) {
			out.add(kernel(f.type()) || permutations.isEmpty() ? f : remapProjections(f, permutations));
		}
		return program.withFunctions(out);
	}

	/** Step A0: returned values that trace to a tensor parameter become that parameter. */
	private static Function canonicalizeReturns(Function f, Program program) {
		List<Integer> toParam = ReturnLineage.returnedParamIndices(f, program);
		if (toParam.isEmpty()) {
			return null;
		}
		boolean[] done = { false };
		boolean[] changed = { false };
		Stmt body = new IrMutator() {
			@Override
			public Stmt stmt(Stmt s) {
				if (!(s instanceof Stmt.Return r) || done[0] || r.values().isEmpty()) {
					return super.stmt(s);
				}
				if (r.values().size() == 1 && toParam.size() > 1) {
					if (f.returnTypes().size() != toParam.size()) {
						return r;
					}
					List<Expr> expanded = new ArrayList<>();
					for (Integer idx : toParam) {
						if (idx == null || !(f.params().get(idx).type() instanceof Type.Tensor)) {
							return r;
						}
						expanded.add(f.params().get(idx));
					}
					done[0] = true;
					changed[0] = true;
					return new Stmt.Return(expanded, r.span());
				}
				if (toParam.size() != r.values().size()) {
					return r;
				}
				done[0] = true;
				List<Expr> values = new ArrayList<>(r.values());
				boolean any = false;
				for (int i = 0; i < values.size(); i++) {
					Integer idx = toParam.get(i);
					if (idx == null || !(f.params().get(idx).type() instanceof Type.Tensor)
							|| values.get(i) == f.params().get(idx)) {
						continue;
					}
					values.set(i, f.params().get(idx));
					any = true;
				}
				if (!any) {
					return r;
				}
				changed[0] = true;
				return new Stmt.Return(values, r.span());
			}
		}.stmt(f.body());
		return changed[0] ? f.withBody(body) : null;
	}

	private static final int NO_PARAM = -1;

	/** For each return value, the Out/InOut-relevant parameter it writes (tile.store, aliases, loop carries). */
	private static List<Integer> returnToParam(Function f) {
		List<Integer> mapping = new ArrayList<>();
		if (!(f.body() instanceof Stmt.Seq seq) || seq.stmts().isEmpty()
				|| !(seq.stmts().get(seq.stmts().size() - 1) instanceof Stmt.Return ret)) {
			return mapping;
		}
		Map<Var, Integer> toParam = new IdentityHashMap<>();
		for (int i = 0; i + 1 < seq.stmts().size(); i++) {
			Stmt s = seq.stmts().get(i);
			if (s instanceof Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c) {
					if (c.isOp("tile.store") && c.args().size() >= 3
							&& VarCollectors.plainVar(c.args().get(2)) instanceof Var out) {
						toParam.put(a.var(), f.paramIndex(out));
					}
				} else if (VarCollectors.plainVar(a.value()) instanceof Var src) {
					int idx = lookup(f, toParam, src);
					if (idx != NO_PARAM) {
						toParam.put(a.var(), idx);
					}
				}
			} else if (s instanceof Stmt.For l) {
				for (int r = 0; r < Math.min(l.returnVars().size(), l.iterArgs().size()); r++) {
					if (VarCollectors.plainVar(l.iterArgs().get(r).init()) instanceof Var init) {
						int idx = lookup(f, toParam, init);
						if (idx != NO_PARAM) {
							toParam.put(l.returnVars().get(r), idx);
						}
					}
				}
			}
		}
		for (Expr e : ret.values()) {
			mapping.add(VarCollectors.plainVar(e) instanceof Var v ? lookup(f, toParam, v) : NO_PARAM);
		}
		return mapping;
	}

	private static int lookup(Function f, Map<Var, Integer> m, Var v) {
		Integer i = m.get(v);
		return i != null ? i : f.paramIndex(v);
	}

	/** Step A: the permutation putting returns in Out/InOut parameter order, or null when none applies. */
	private static int[] permutation(Function f) {
		List<Integer> toParam = returnToParam(f);
		if (toParam.isEmpty()) {
			return null;
		}
		List<Integer> outIdx = new ArrayList<>();
		for (int i = 0; i < f.directions().size(); i++) {
			if (f.directions().get(i) == Direction.Out || f.directions().get(i) == Direction.InOut) {
				outIdx.add(i);
			}
		}
		if (outIdx.isEmpty() || outIdx.size() > toParam.size()) {
			return null;
		}
		int[] perm = new int[toParam.size()];
		boolean reorder = false;
		for (int i = 0; i < perm.length; i++) {
			int pos = toParam.get(i) == NO_PARAM ? -1 : outIdx.indexOf(toParam.get(i));
			perm[i] = pos < 0 ? i : pos;
			reorder |= perm[i] != i;
		}
		boolean[] seen = new boolean[perm.length];
		for (int p : perm) {
			if (p < 0 || p >= perm.length || seen[p]) {
				return null;
			}
			seen[p] = true;
		}
		return reorder ? perm : null;
	}

	private static Function reorder(Function f, int[] perm) {
		Stmt.Seq seq = (Stmt.Seq) f.body();
		Stmt.Return ret = (Stmt.Return) seq.stmts().get(seq.stmts().size() - 1);
		Expr[] values = new Expr[perm.length];
		Type[] types = new Type[f.returnTypes().size()];
		for (int i = 0; i < perm.length; i++) {
			values[perm[i]] = ret.values().get(i);
			if (i < types.length && perm[i] < types.length) {
				types[perm[i]] = f.returnTypes().get(i);
			}
		}
		List<Stmt> stmts = new ArrayList<>(seq.stmts().subList(0, seq.stmts().size() - 1));
		stmts.add(new Stmt.Return(List.of(values), ret.span()));
		return new Function(f.name(), f.type(), f.params(), f.directions(), List.of(types), new Stmt.Seq(stmts, seq.span()),
				f.level(), f.role(), f.attrs(), f.span());
	}

	/** Step B: {@code TupleGetItem(v, i)} of a reordered call's result takes index {@code perm[i]}. */
	private static Function remapProjections(Function f, Map<String, int[]> permutations) {
		Map<Var, int[]> reordered = new IdentityHashMap<>();
		Stmt body = new IrMutator() {
			@Override
			public Stmt assign(Stmt.Assign a) {
				Expr v = expr(a.value());
				String callee = v instanceof Expr.Call c ? c.functionName()
						: v instanceof Expr.Submit s && s.callee() instanceof Expr.Callee.Function fn ? fn.name() : null;
				if (callee != null && permutations.containsKey(callee)) {
					reordered.put(a.var(), permutations.get(callee));
				} else {
					reordered.remove(a.var());
				}
				return v == a.value() ? a : new Stmt.Assign(a.var(), v, a.span());
			}

			@Override
			public Expr expr(Expr e) {
				if (e instanceof Expr.TupleGetItem g) {
					Expr t = super.expr(g.tuple());
					int idx = g.index();
					int[] perm = VarCollectors.plainVar(t) instanceof Var v ? reordered.get(v) : null;
					if (perm != null && idx >= 0 && idx < perm.length) {
						idx = perm[idx];
					}
					return t == g.tuple() && idx == g.index() ? g : new Expr.TupleGetItem(t, idx, g.span());
				}
				return super.expr(e);
			}
		}.stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}
}
