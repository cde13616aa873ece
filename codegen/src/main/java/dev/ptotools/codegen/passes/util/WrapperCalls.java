package dev.ptotools.codegen.passes.util;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The calls inside Group and Spmd wrapper functions (pypto's wrapper_call_utils): the first inner call,
 * the AIC and AIV kernels of a Group, and the effective parameter directions of every wrapper (what
 * its inner calls do with each parameter).
 */
public final class WrapperCalls {

	/** One call of a program function inside a wrapper body and the function it calls. */
	public record InnerCall(CallLike call, Function callee) {
	}

	/** The kernels of a Group: first AIC and first AIV callee names, and the first kernel call in order. */
	public record GroupCallees(String aicName, String aivName, CallLike innerCall, Function innerCallee) {
	}

	private WrapperCalls() {
	}

	public static boolean isWrapper(FunctionType t) {
		return t == FunctionType.Group || t == FunctionType.Spmd;
	}

	/** Every Call/Submit of a program function in a body, in pre-order. */
	private static List<InnerCall> calls(Stmt body, Program program, boolean rejectSubmitMetadata) {
		List<InnerCall> out = new ArrayList<>();
		if (body == null) {
			return out;
		}
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				visit(CallLike.of(c));
				super.call(c);
			}

			@Override
			public void submit(Expr.Submit s) {
				if (rejectSubmitMetadata && (!s.deps().isEmpty() || s.coreNum() != null || s.syncStart()
						|| Boolean.TRUE.equals(s.attr("allow_early_resolve")) || s.attr("predicate") != null)) {
					throw new CodegenException("A Submit nested inside a Group function cannot carry per-task dispatch "
							+ "metadata (deps, core_num, sync_start, allow_early_resolve, or predicate). The Group is "
							+ "dispatched as one task, so metadata on an inner Submit would be ignored.", s.span());
				}
				visit(CallLike.of(s));
				s.args().forEach(this::expr);
			}

			private void visit(CallLike c) {
				String name = c.functionName();
				Function callee = name == null ? null : program.function(name);
				if (callee != null) {
					out.add(new InnerCall(c, callee));
				}
			}
		}.stmt(body);
		return out;
	}

	/** The first call of a program function in a wrapper (pypto's FindFirstInnerCall), or null. */
	public static InnerCall firstInnerCall(Function wrapper, Program program) {
		List<InnerCall> all = calls(wrapper.body(), program, false);
		return all.isEmpty() ? null : all.get(0);
	}

	/** pypto's FindGroupCallees. */
	public static GroupCallees groupCallees(Function group, Program program) {
		String aic = null;
		String aiv = null;
		InnerCall inner = null;
		for (InnerCall c : calls(group.body(), program, true)) {
			FunctionType t = c.callee().type();
			if (t == FunctionType.AIC && aic == null) {
				aic = c.callee().name();
				inner = inner == null ? c : inner;
			} else if (t == FunctionType.AIV && aiv == null) {
				aiv = c.callee().name();
				inner = inner == null ? c : inner;
			} else if (t == FunctionType.InCore && inner == null) {
				inner = c;
			}
		}
		return new GroupCallees(aic, aiv, inner == null ? null : inner.call(), inner == null ? null : inner.callee());
	}

	/** Calls of non-orchestration, non-opaque program functions in a wrapper (pypto's CollectInnerCalls). */
	public static List<InnerCall> innerCalls(Function wrapper, Program program) {
		List<InnerCall> out = new ArrayList<>();
		for (InnerCall c : calls(wrapper.body(), program, false)) {
			if (c.callee().type() != FunctionType.Orchestration && c.callee().type() != FunctionType.Opaque) {
				out.add(c);
			}
		}
		return out;
	}

	/**
	 * Every wrapper's effective parameter directions (pypto's ComputeWrapperEffectiveDirections): the
	 * declared ones promoted on In &lt; Out &lt; InOut to what inner calls do with each parameter,
	 * iterated to the least fixed point.
	 */
	public static Map<Function, List<Direction>> effectiveDirections(Program program) {
		Map<Function, List<Direction>> effective = new IdentityHashMap<>();
		Map<String, Function> byName = new java.util.HashMap<>();
		Map<Function, List<InnerCall>> inner = new IdentityHashMap<>();
		List<Function> wrappers = new ArrayList<>();
		for (Function f : program.sortedByName()) {
			if (!isWrapper(f.type())) {
				continue;
			}
			wrappers.add(f);
			byName.put(f.name(), f);
			effective.put(f, new ArrayList<>(f.directions()));
			inner.put(f, innerCalls(f, program));
		}
		if (wrappers.isEmpty()) {
			return effective;
		}
		Map<Function, List<Function>> callers = new IdentityHashMap<>();
		for (Function w : wrappers) {
			for (InnerCall c : inner.get(w)) {
				Function callee = byName.get(c.callee().name());
				if (callee != null && callee == c.callee()) {
					callers.computeIfAbsent(callee, k -> new ArrayList<>()).add(w);
				}
			}
		}
		Deque<Function> work = new ArrayDeque<>(wrappers);
		Set<Function> queued = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		queued.addAll(wrappers);
		while (!work.isEmpty()) {
			Function f = work.pollFirst();
			queued.remove(f);
			if (!mergeOnce(f, effective, inner.get(f))) {
				continue;
			}
			for (Function caller : callers.getOrDefault(f, List.of())) {
				if (queued.add(caller)) {
					work.addLast(caller);
				}
			}
		}
		return effective;
	}

	private static boolean mergeOnce(Function wrapper, Map<Function, List<Direction>> effective, List<InnerCall> calls) {
		List<Direction> dirs = effective.get(wrapper);
		boolean promoted = false;
		for (InnerCall c : calls) {
			List<Direction> innerDirs = isWrapper(c.callee().type()) && effective.containsKey(c.callee())
					? new ArrayList<>(effective.get(c.callee()))
					: c.callee().directions();
			List<Expr> args = c.call().args();
			for (int a = 0; a < args.size() && a < innerDirs.size(); a++) {
				if (!(args.get(a) instanceof Var v)) {
					continue;
				}
				int p = wrapper.paramIndex(v);
				if (p < 0) {
					continue;
				}
				Direction d = innerDirs.get(a);
				Direction merged = dirs.get(p);
				if ((d == Direction.InOut && merged != Direction.InOut) || (d == Direction.Out && merged == Direction.In)) {
					dirs.set(p, d);
					promoted = true;
				}
			}
		}
		return promoted;
	}
}
