package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.ControlFlowUtils;
import dev.ptotools.codegen.passes.util.VarRemapMutator;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's expand_manual_phase_fence (ExpandManualPhaseFence,
 * src/ir/transforms/expand_manual_phase_fence_pass.cpp): inside a {@code pl.manual_scope}, a loop whose
 * body submits tasks that all depend on one TaskId array defined before the loop (P producers, C
 * consumers over all iterations) gets a dependency-only barrier task before it when that saves edges
 * ({@code P*C - (P+C) >= 1}): {@code phase_fence_barrier_<k>_tid = system.task_dummy()} depending on
 * the array, and the consumers depend on the barrier instead.
 */
public final class ExpandManualPhaseFencePass implements Pass {

	@Override
	public String name() {
		return "ExpandManualPhaseFence";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			Function n = f;
			if (f.body() != null && f.isOrchestration()) {
				Stmt body = new Fences().stmt(f.body());
				n = body == f.body() ? f : f.withBody(body);
			}
			changed |= n != f;
			out.add(n);
		}
		return changed ? program.withFunctions(out) : program;
	}

	private static final class DepArrayInfo {
		Var sourceVar;
		long consumerCount;
		final Set<Expr> consumers = Collections.newSetFromMap(new IdentityHashMap<>());
	}

	/** What a loop body does with TaskId arrays: consumers per array, vars it defines, arrays it updates. */
	private static final class LoopIndex {
		final List<Var> order = new ArrayList<>();
		final Map<Var, DepArrayInfo> depArrays = new HashMap<>();
		final Set<Var> defined = new HashSet<>();
		final Set<Var> updated = new HashSet<>();

		void merge(Var key, DepArrayInfo src, long multiplier) {
			if (key == null || multiplier <= 0) {
				return;
			}
			DepArrayInfo info = depArrays.get(key);
			if (info == null) {
				info = new DepArrayInfo();
				info.sourceVar = src.sourceVar;
				depArrays.put(key, info);
				order.add(key);
			}
			info.consumerCount += src.consumerCount * multiplier;
			info.consumers.addAll(src.consumers);
		}
	}

	private record Decision(Var barrierVar, Stmt barrierStmt, Set<Expr> consumers) {
	}

	static boolean isTaskIdArray(Expr e) {
		return e instanceof Var v && v.type() instanceof Type.Array a && a.dtype() == DType.TASK_ID;
	}

	/** The one TaskId array a Submit depends on, or null. */
	static Var singleDepTaskIdArray(Expr.Submit s) {
		if (s.deps().size() != 1 || !(s.deps().get(0) instanceof Var v) || !isTaskIdArray(v)) {
			return null;
		}
		return v;
	}

	private static final class Fences extends VarRemapMutator {
		private boolean inManualScope;
		private int barrierCounter;
		private final Map<Var, Set<Var>> arrayAliases = new HashMap<>();
		private final Map<Stmt.For, LoopIndex> summaries = new IdentityHashMap<>();

		@Override
		public Stmt scope(Stmt.Scope s) {
			if (!(s instanceof Stmt.RuntimeScope r)) {
				return super.scope(s);
			}
			boolean saved = inManualScope;
			inManualScope = r.manual();
			Stmt body = stmt(r.body());
			inManualScope = saved;
			return body == r.body() ? r : r.withBody(body);
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			List<Decision> decisions = inManualScope ? decisions(f) : List.of();
			Map<Expr, Var> consumerToBarrier = new IdentityHashMap<>();
			for (Decision d : decisions) {
				for (Expr c : d.consumers()) {
					consumerToBarrier.put(c, d.barrierVar());
				}
			}
			Stmt body = stmt(rewriteConsumers(f.body(), consumerToBarrier));
			Expr start = expr(f.start());
			Expr stop = expr(f.stop());
			Expr step = expr(f.step());
			boolean changed = body != f.body() || start != f.start() || stop != f.stop() || step != f.step();
			if (!decisions.isEmpty()) {
				Stmt.For nf = new Stmt.For(f.loopVar(), start, stop, step, f.iterArgs(), body, f.returnVars(), f.kind(),
						f.attrs(), f.span());
				List<Stmt> withBarriers = new ArrayList<>();
				for (Decision d : decisions) {
					withBarriers.add(d.barrierStmt());
				}
				withBarriers.add(nf);
				return flatten(withBarriers, f.span());
			}
			if (changed) {
				return new Stmt.For(f.loopVar(), start, stop, step, f.iterArgs(), body, f.returnVars(), f.kind(), f.attrs(),
						f.span());
			}
			return f;
		}

		private Set<Var> aliasSet(Var v) {
			return arrayAliases.computeIfAbsent(v, k -> {
				Set<Var> s = new HashSet<>();
				s.add(k);
				return s;
			});
		}

		private void addAlias(Var lhs, Var rhs) {
			if (lhs == null || rhs == null || lhs == rhs) {
				return;
			}
			Set<Var> a = aliasSet(lhs);
			Set<Var> b = aliasSet(rhs);
			if (a == b) {
				return;
			}
			if (a.size() < b.size()) {
				Set<Var> t = a;
				a = b;
				b = t;
			}
			a.addAll(b);
			for (Var v : b) {
				arrayAliases.put(v, a);
			}
		}

		/** A TaskId-array carry seeded by a TaskId array is the same array. */
		private void registerLoopAliases(Stmt.For f) {
			for (IterArg a : f.iterArgs()) {
				if (isTaskIdArray(a) && isTaskIdArray(a.init())) {
					addAlias(a, (Var) a.init());
				}
			}
		}

		private void insertWithAliases(Var v, Set<Var> out) {
			out.add(v);
			Set<Var> s = arrayAliases.get(v);
			if (s != null) {
				out.addAll(s);
			}
		}

		private LoopIndex summary(Stmt.For f) {
			LoopIndex cached = summaries.get(f);
			if (cached != null) {
				return cached;
			}
			LoopIndex idx = index(f.body(), f.kind() == Stmt.ForKind.Sequential);
			summaries.put(f, idx);
			return idx;
		}

		private void mergeNested(Stmt.For f, LoopIndex into, boolean includeConsumers) {
			registerLoopAliases(f);
			LoopIndex s = summary(f);
			into.defined.addAll(s.defined);
			into.updated.addAll(s.updated);
			if (!includeConsumers) {
				return;
			}
			Long trips = ControlFlowUtils.constTripCount(f);
			if (trips == null || trips <= 0) {
				return;
			}
			for (Var key : s.order) {
				into.merge(key, s.depArrays.get(key), trips);
			}
		}

		/** pypto's BuildLoopBodyDepIndex; nested loops contribute through their cached summaries. */
		private LoopIndex index(Stmt body, boolean nestedConsumers) {
			LoopIndex idx = new LoopIndex();
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.For f) {
						idx.defined.addAll(f.returnVars());
						idx.defined.addAll(f.iterArgs());
						mergeNested(f, idx, nestedConsumers);
						return;
					}
					if (s instanceof Stmt.Assign a) {
						idx.defined.add(a.var());
						if (a.value() instanceof Expr.Call c && c.isOp("array.update_element") && !c.args().isEmpty()
								&& c.args().get(0) instanceof Var base) {
							insertWithAliases(base, idx.updated);
						}
					} else if (s instanceof Stmt.If i) {
						idx.defined.addAll(i.returnVars());
					} else if (s instanceof Stmt.While w) {
						idx.defined.addAll(w.returnVars());
						idx.defined.addAll(w.iterArgs());
					}
					super.stmt(s);
				}

				@Override
				public void submit(Expr.Submit s) {
					Var dep = singleDepTaskIdArray(s);
					if (dep != null) {
						DepArrayInfo info = idx.depArrays.get(dep);
						if (info == null) {
							info = new DepArrayInfo();
							info.sourceVar = dep;
							idx.depArrays.put(dep, info);
							idx.order.add(dep);
						}
						info.consumerCount += 1;
						info.consumers.add(s);
					}
					super.submit(s);
				}
			}.stmt(body);
			return idx;
		}

		private List<Decision> decisions(Stmt.For f) {
			List<Decision> decisions = new ArrayList<>();
			registerLoopAliases(f);
			LoopIndex body = index(f.body(), f.kind() == Stmt.ForKind.Sequential);
			Long trips = ControlFlowUtils.constTripCount(f);
			if (f.kind() == Stmt.ForKind.Parallel && (trips == null || trips <= 0)) {
				return decisions;
			}
			if (f.kind() == Stmt.ForKind.Sequential && trips != null && trips <= 0) {
				return decisions;
			}
			Set<Var> iterArgs = new HashSet<>(f.iterArgs());
			Set<Var> decided = new HashSet<>();
			for (Var key : body.order) {
				DepArrayInfo info = body.depArrays.get(key);
				Var array = info == null ? null : info.sourceVar;
				if (array == null || iterArgs.contains(array) || body.defined.contains(array) || body.updated.contains(array)) {
					continue;
				}
				long consumers = info.consumerCount;
				if (trips != null && trips > 0) {
					consumers *= trips;
				}
				if (!decided.add(array)) {
					continue;
				}
				long producers = array.type() instanceof Type.Array a && !a.shape().isEmpty()
						&& a.shape().get(0) instanceof Expr.ConstInt c ? c.value() : 0;
				if (producers <= 0 || consumers <= 0 || producers * consumers - (producers + consumers) < 1) {
					continue;
				}
				Var barrier = new Var("phase_fence_barrier_" + barrierCounter++ + "_tid", new Type.Scalar(DType.TASK_ID),
						f.span());
				Map<String, Object> attrs = new LinkedHashMap<>();
				attrs.put("dummy_task", true);
				attrs.put("manual_dep_edges", List.of(array));
				Expr.Call dummy = new Expr.Call(new Expr.Callee.Op("system.task_dummy"), List.of(), Map.of(), attrs,
						new Type.Scalar(DType.TASK_ID), f.span());
				if (!info.consumers.isEmpty()) {
					decisions.add(new Decision(barrier, new Stmt.Assign(barrier, dummy, f.span()), info.consumers));
				}
			}
			return decisions;
		}

		private static Stmt rewriteConsumers(Stmt body, Map<Expr, Var> consumerToBarrier) {
			if (consumerToBarrier.isEmpty()) {
				return body;
			}
			return new IrMutator() {
				@Override
				public Expr submit(Expr.Submit s) {
					Var barrier = consumerToBarrier.get(s);
					if (barrier != null) {
						return new Expr.Submit(s.callee(), s.args(), List.of(barrier), s.coreNum(), s.syncStart(), s.attrs(),
								s.type(), s.span());
					}
					return super.submit(s);
				}
			}.stmt(body);
		}
	}
}
