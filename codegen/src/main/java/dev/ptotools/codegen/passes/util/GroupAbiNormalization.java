package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Phase 4 of pypto's ExpandMixedKernel (NormalizeHandWrittenGroupAbis in
 * src/ir/transforms/expand_mixed_kernel_pass.cpp): the runtime hands a mixed task one argument payload
 * for both lanes, so a hand-written Group whose AIC and AIV member calls do not pass exactly the Group's
 * parameters, or whose no-split AIV member needs inferred dual dispatch, gets members rebuilt onto the
 * Group's parameter list. A member used by this Group only is rebuilt in place under its own name;
 * otherwise Group-private adapters {@code <group>_aic_adapter} / {@code <group>_aiv_adapter} are added in
 * front of the program. The Group's member calls then pass its parameters. The orchestration sees the
 * result through the kernel names and their signatures (the Group's directions).
 */
public final class GroupAbiNormalization {

	private GroupAbiNormalization() {
	}

	public static List<Function> run(Program program, List<Function> functions, boolean dualOnNoSplit) {
		Map<String, Integer> callCounts = callCounts(functions);
		Set<String> used = new HashSet<>();
		functions.forEach(f -> used.add(f.name()));
		Map<String, Function> replacements = new HashMap<>();
		List<Function> adapters = new ArrayList<>();
		for (Function group : functions) {
			if (group.type() != FunctionType.Group) {
				continue;
			}
			List<Expr.Call> calls = new ArrayList<>();
			List<Function> callees = new ArrayList<>();
			ReturnLineage.innerCalls(group, program, calls, callees);
			int aic = -1;
			int aiv = -1;
			for (int i = 0; i < calls.size(); i++) {
				if (callees.get(i).type() == FunctionType.AIC && aic < 0) {
					aic = i;
				} else if (callees.get(i).type() == FunctionType.AIV && aiv < 0) {
					aiv = i;
				}
			}
			if (aic < 0 || aiv < 0) {
				continue;
			}
			Function aicCallee = callees.get(aic);
			Function aivCallee = callees.get(aiv);
			boolean normalize = !canonical(calls.get(aic), aicCallee, group) || !canonical(calls.get(aiv), aivCallee, group);
			boolean dual = dualOnNoSplit && needsInferredDual(aivCallee);
			if (!normalize && !dual) {
				continue;
			}
			if (normalize && (external(aicCallee) || external(aivCallee))) {
				throw new CodegenException("Mixed Group '" + group.name() + "' has AIC/AIV members with different argument "
						+ "layouts. External or runtime-bound members cannot be adapted; declare both members with the same "
						+ "signature and forward the Group's full parameter list.", group.span());
			}
			boolean exclusive = callCounts.getOrDefault(aicCallee.name(), 0) == 1
					&& callCounts.getOrDefault(aivCallee.name(), 0) == 1;
			String aicName = exclusive ? aicCallee.name() : reserve(group.name() + "_aic_adapter", used);
			String aivName = exclusive ? aivCallee.name() : reserve(group.name() + "_aiv_adapter", used);
			Function aicAdapter = adapter(group, calls.get(aic), aicCallee, aicName);
			Function aivAdapter = adapter(group, calls.get(aiv), aivCallee, aivName);
			if (dual) {
				aivAdapter = aivAdapter.withAttr("dual_aiv_dispatch", Boolean.TRUE);
			}
			if (exclusive) {
				replacements.put(aicName, aicAdapter);
				replacements.put(aivName, aivAdapter);
			} else {
				adapters.add(aicAdapter);
				adapters.add(aivAdapter);
			}
			Map<String, String> renames = Map.of(aicCallee.name(), aicName, aivCallee.name(), aivName);
			replacements.put(group.name(), group.withBody(new MemberCallRewriter(renames, group).stmt(group.body())));
		}
		if (replacements.isEmpty() && adapters.isEmpty()) {
			return functions;
		}
		List<Function> result = new ArrayList<>(adapters);
		for (Function f : functions) {
			result.add(replacements.getOrDefault(f.name(), f));
		}
		return result;
	}

	private static boolean canonical(Expr.Call call, Function callee, Function group) {
		if (call.args().size() != group.params().size() || callee.params().size() != group.params().size()) {
			return false;
		}
		for (int i = 0; i < group.params().size(); i++) {
			if (call.args().get(i) != group.params().get(i)) {
				return false;
			}
		}
		return true;
	}

	private static boolean external(Function f) {
		return f.attr("external_source") != null || (f.body() instanceof Stmt.Inline i && i.requiresRuntimeBinding());
	}

	/**
	 * pypto's NeedsInferredNoSplitDualAivDispatch: a backend that needs it (910B), an AIV member not already
	 * dual, not external, without a split mode, whose body talks to the cube by no-split pipes only.
	 */
	private static boolean needsInferredDual(Function v) {
		Object split = v.attr("split");
		if (Boolean.TRUE.equals(v.attr("dual_aiv_dispatch")) || external(v) || (split != null && !"None".equals(split))) {
			return false;
		}
		boolean[] found = { false };
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				found[0] |= c.isOp() && (c.name().startsWith("tile.tpush_") || c.name().startsWith("tile.tpop_"));
				super.call(c);
			}
		}.stmt(v.body());
		return found[0];
	}

	private static String reserve(String base, Set<String> used) {
		if (used.add(base)) {
			return base;
		}
		for (int suffix = 1;; suffix++) {
			String candidate = base + "_" + suffix;
			if (used.add(candidate)) {
				return candidate;
			}
		}
	}

	/** pypto's BuildGroupAbiAdapter: the Group's parameters (fresh Vars) and directions, the member's body. */
	private static Function adapter(Function group, Expr.Call call, Function callee, String name) {
		if (call.args().size() != callee.params().size()) {
			throw new CodegenException("Group '" + group.name() + "' calls member '" + callee.name() + "' with "
					+ call.args().size() + " arguments, but its signature has " + callee.params().size(), call.span());
		}
		List<Var> params = new ArrayList<>();
		Map<Var, Expr> groupToAdapter = new HashMap<>();
		for (Var p : group.params()) {
			Var fresh = new Var(p.name(), p.type(), p.span());
			params.add(fresh);
			groupToAdapter.put(p, fresh);
		}
		Map<Var, Expr> memberToAdapter = new HashMap<>();
		for (int i = 0; i < callee.params().size(); i++) {
			memberToAdapter.put(callee.params().get(i), ((Stmt.Eval) DeepClone.substitute(new Stmt.Eval(call.args().get(i), call.span()), groupToAdapter)).expr());
		}
		Stmt body = DeepClone.clone(callee.body(), memberToAdapter, true);
		return new Function(name, callee.type(), params, group.directions(), callee.returnTypes(), body, callee.level(),
				callee.role(), callee.attrs(), callee.span());
	}

	private static Map<String, Integer> callCounts(List<Function> functions) {
		Map<String, Integer> counts = new HashMap<>();
		for (Function f : functions) {
			new PyptoVisitor() {
				@Override
				protected void call(Expr.Call c) {
					if (!c.isOp()) {
						counts.merge(c.functionName(), 1, Integer::sum);
					}
					super.call(c);
				}

				@Override
				protected void submit(Expr.Submit s) {
					if (s.callee() instanceof Expr.Callee.Function fn) {
						counts.merge(fn.name(), 1, Integer::sum);
					}
					super.submit(s);
				}
			}.stmt(f.body());
		}
		return counts;
	}

	/** pypto's GroupMemberCallRewriter: member calls renamed and passed the Group's parameters. */
	private static final class MemberCallRewriter extends IrMutator {
		private final Map<String, String> renames;
		private final Function group;

		MemberCallRewriter(Map<String, String> renames, Function group) {
			this.renames = renames;
			this.group = group;
		}

		@Override
		public Expr call(Expr.Call c) {
			String to = c.isOp() ? null : renames.get(c.functionName());
			if (to == null) {
				return super.call(c);
			}
			return new Expr.Call(new Expr.Callee.Function(to), new ArrayList<>(group.params()), c.kwargs(),
					remapAttrs(c.attrs(), c.args(), c), c.type(), c.span());
		}

		@Override
		public Expr submit(Expr.Submit s) {
			String to = s.callee() instanceof Expr.Callee.Function fn ? renames.get(fn.name()) : null;
			if (to == null) {
				return super.submit(s);
			}
			return new Expr.Submit(new Expr.Callee.Function(to), new ArrayList<>(group.params()), s.deps(), s.coreNum(),
					s.syncStart(), remapAttrs(s.attrs(), s.args(), s), s.type(), s.span());
		}

		/** Directions are derived again later; no_dep indices move to the Group parameter they name. */
		private Map<String, Object> remapAttrs(Map<String, Object> attrs, List<Expr> oldArgs, Expr at) {
			Map<String, Object> out = new LinkedHashMap<>();
			for (Map.Entry<String, Object> e : attrs.entrySet()) {
				if (e.getKey().equals("arg_directions")) {
					continue;
				}
				if (!e.getKey().equals("arg_direction_overrides") || !(e.getValue() instanceof List<?> old)) {
					out.put(e.getKey(), e.getValue());
					continue;
				}
				List<Object> remapped = new ArrayList<>();
				for (Object o : old) {
					int index = ((Number) o).intValue();
					Expr arg = index >= 0 && index < oldArgs.size() ? oldArgs.get(index) : null;
					int canonical = arg instanceof Var v ? group.params().indexOf(v) : -1;
					if (canonical < 0) {
						throw new CodegenException("Cannot map pl.no_dep argument " + index + " of Group member to a canonical "
								+ "Group parameter", span(at));
					}
					remapped.add(canonical);
				}
				out.put(e.getKey(), remapped);
			}
			return out;
		}

		private static dev.ptotools.analyzer.ir.Span span(Expr e) {
			return e instanceof Expr.Call c ? c.span() : ((Expr.Submit) e).span();
		}
	}
}
