package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Which communication context each distributed tensor of a function carries (pypto's
 * DistParamAliasCollector and LookupCtx, materialize_dist_tensor_ctx_pass.cpp): a parameter's own ctx
 * parameter, followed through assignments, loop carries, if-merges, writeback and view ops, and values a
 * callee returns from one of its distributed parameters. Rebinding a loop carry or an if-merge to a
 * tensor of another context is an error.
 */
public final class DistCtxAliases {

	/**
	 * The context parameters a function gets (pypto's FunctionCtxPlan): the indices of its distributed
	 * tensor parameters, each one's ctx parameter, and which parameter each return value is.
	 */
	public record Plan(List<Integer> distParams, Map<Var, Var> paramToCtx, List<Integer> returnedParams) {
	}

	public static boolean isDist(Type t) {
		return t instanceof Type.Tensor x && x.distributed();
	}

	private final Program program;
	private final Map<String, Plan> plans;
	private final Plan plan;
	private final Map<Var, Var> aliasToCtx = new HashMap<>();
	private final Map<Var, List<Var>> tupleToCtx = new HashMap<>();

	private DistCtxAliases(Program program, Map<String, Plan> plans, Plan plan) {
		this.program = program;
		this.plans = plans;
		this.plan = plan;
	}

	/** Walks a function body once, recording the context of every alias. */
	public static DistCtxAliases collect(Stmt body, Program program, Map<String, Plan> plans, Plan plan) {
		DistCtxAliases a = new DistCtxAliases(program, plans, plan);
		a.new Collector().stmt(body);
		return a;
	}

	/** The context a distributed value carries, or null (pypto's LookupExistingCtx / LookupCtx). */
	public Var lookup(Expr e) {
		if (e instanceof Var v) {
			Var p = plan.paramToCtx().get(v);
			return p != null ? p : aliasToCtx.get(v);
		}
		if (e instanceof Expr.TupleGetItem g && g.index() >= 0) {
			if (g.tuple() instanceof Var tv) {
				List<Var> ctxs = tupleToCtx.get(tv);
				return ctxs == null || g.index() >= ctxs.size() ? null : ctxs.get(g.index());
			}
			List<Var> ctxs = returnedCtxs(g.tuple());
			return g.index() < ctxs.size() ? ctxs.get(g.index()) : null;
		}
		if (e instanceof Expr.Call c) {
			int i = DistCtxLineage.inheritingArg(c);
			if (i >= 0) {
				return lookup(c.args().get(i));
			}
		}
		List<Var> ctxs = returnedCtxs(e);
		return ctxs.size() == 1 ? ctxs.get(0) : null;
	}

	/** For each return position of a call of a planned function: the caller's context of what it returns. */
	private List<Var> returnedCtxs(Expr e) {
		if (e instanceof Var tv) {
			List<Var> ctxs = tupleToCtx.get(tv);
			return ctxs == null ? List.of() : ctxs;
		}
		String callee;
		List<Expr> args;
		if (e instanceof Expr.Call c && c.functionName() != null) {
			callee = c.functionName();
			args = c.args();
		} else if (e instanceof Expr.Submit s && s.callee() instanceof Expr.Callee.Function fn) {
			callee = fn.name();
			args = s.args();
		} else {
			return List.of();
		}
		Function fn = program.function(callee);
		Plan p = fn == null ? null : plans.get(callee);
		if (p == null) {
			return List.of();
		}
		List<Var> out = new ArrayList<>();
		for (Integer idx : p.returnedParams()) {
			Var ctx = null;
			if (idx != null && idx < args.size() && idx < fn.params().size() && isDist(fn.params().get(idx).type())) {
				ctx = lookup(args.get(idx));
			}
			out.add(ctx);
		}
		return out;
	}

	private final class Collector extends IrVisitor {
		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.Assign a) {
				if (isDist(a.var().type())) {
					Var ctx = lookup(a.value());
					if (ctx != null) {
						aliasToCtx.put(a.var(), ctx);
					}
				} else if (a.var().type() instanceof Type.Tuple) {
					List<Var> ctxs = returnedCtxs(a.value());
					if (!ctxs.isEmpty()) {
						tupleToCtx.put(a.var(), ctxs);
					}
				}
				super.stmt(s);
			} else if (s instanceof Stmt.If i) {
				super.stmt(s);
				merge(i);
			} else if (s instanceof Stmt.For f) {
				recordCarries(f.iterArgs(), f.returnVars());
				super.stmt(s);
				validateCarries(f.iterArgs(), f.body(), f);
			} else if (s instanceof Stmt.While w) {
				recordCarries(w.iterArgs(), w.returnVars());
				super.stmt(s);
				validateCarries(w.iterArgs(), w.body(), w);
			} else {
				super.stmt(s);
			}
		}

		private void merge(Stmt.If i) {
			if (i.orelse() == null) {
				return;
			}
			Stmt.Yield ty = DistCtxLineage.branchYield(i.then());
			Stmt.Yield ey = DistCtxLineage.branchYield(i.orelse());
			if (ty == null || ey == null) {
				return;
			}
			for (int k = 0; k < i.returnVars().size(); k++) {
				Var rv = i.returnVars().get(k);
				if (!isDist(rv.type()) || k >= ty.values().size() || k >= ey.values().size()) {
					continue;
				}
				Var t = lookup(ty.values().get(k));
				Var e = lookup(ey.values().get(k));
				if (t == null || e == null) {
					continue;
				}
				if (t != e) {
					throw new CodegenException("Assigning a different DistributedTensor in each branch of an `if` is not "
							+ "supported: '" + rv.name() + "' would take its data pointer from one allocation and its "
							+ "communication context from another. Assign a single DistributedTensor before the `if`, and "
							+ "branch on the data read from it instead (see GitHub issue #2027).", i.span());
				}
				aliasToCtx.put(rv, t);
			}
		}

		private void recordCarries(List<IterArg> iters, List<Var> returnVars) {
			for (int k = 0; k < iters.size(); k++) {
				IterArg a = iters.get(k);
				if (!isDist(a.type())) {
					continue;
				}
				Var ctx = lookup(a.init());
				if (ctx == null) {
					continue;
				}
				aliasToCtx.put(a, ctx);
				if (k < returnVars.size() && isDist(returnVars.get(k).type())) {
					aliasToCtx.put(returnVars.get(k), ctx);
				}
			}
		}

		private void validateCarries(List<IterArg> iters, Stmt body, Stmt loop) {
			Stmt.Yield y = DistCtxLineage.branchYield(body);
			if (y == null) {
				return;
			}
			for (int k = 0; k < iters.size() && k < y.values().size(); k++) {
				IterArg a = iters.get(k);
				Var seeded = aliasToCtx.get(a);
				if (seeded == null) {
					continue;
				}
				Var yielded = lookup(y.values().get(k));
				if (yielded != null && yielded != seeded) {
					throw new CodegenException("Rebinding loop-carried DistributedTensor '" + a.name() + "' to a different "
							+ "DistributedTensor inside the loop is not supported: it would enter the loop with the "
							+ "communication context of its initial value and leave with another. Carry a single "
							+ "DistributedTensor through the loop, and vary the data read from it instead (see GitHub issue "
							+ "#2027).", loop.span());
				}
			}
		}
	}
}
