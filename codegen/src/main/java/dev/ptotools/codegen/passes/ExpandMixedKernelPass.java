package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.CoreAffinity;
import dev.ptotools.codegen.passes.util.MixedKernelSplit;
import dev.ptotools.codegen.passes.util.GroupAbiNormalization;
import dev.ptotools.codegen.passes.util.ReturnLineage;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's ExpandMixedKernel (src/ir/transforms/expand_mixed_kernel_pass.cpp): classifies every InCore
 * function by the core affinity of its statements ({@link CoreAffinity}). All-cube becomes an
 * {@code AIC} function, all-vector or shared an {@code AIV} function (same name, {@code split} attr
 * dropped). A mixed kernel {@code K} splits into {@code K_aic} (AIC, no returns), {@code K_aiv} (AIV,
 * {@code dual_aiv_dispatch} on a no-split 910B kernel) and, unless only Group functions call it, a
 * Group {@code K} calling both with the same parameters; a Group that called {@code K} calls the pair
 * instead.
 *
 * <p>Not ported: normalization of hand-written Group ABIs (a {@code pl.cluster} Group calling
 * user-declared AIC/AIV functions whose arguments are not the Group's parameters) and the
 * kernel-internal vector→cube push adaptation.
 */
public final class ExpandMixedKernelPass implements Pass {

	@Override
	public String name() {
		return "ExpandMixedKernel";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch,
				IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded, IrProperty.NormalizedStmtStructure);
	}

	/** pypto's FunctionCallsFunction: a call of the callee among the top-level (flattened) statements. */
	static boolean callsAtTopLevel(Function f, String callee) {
		for (Stmt s : ScopeOutliner.flatten(Stmt.flatten(f.body()))) {
			Expr v = s instanceof Stmt.Assign a ? a.value() : s instanceof Stmt.Eval e ? e.expr() : null;
			if (v instanceof Expr.Call c && callee.equals(c.functionName())) {
				return true;
			}
		}
		return false;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		for (Function f : program.functions()) {
			if (VarCollectors.containsDeferWait(f.body()) && !Boolean.TRUE.equals(f.attr("deferred_completion_waiter"))) {
				throw new CodegenException("pld.system.defer_wait in function '" + f.name()
						+ "' bypasses the deferred-waiter task contract. Use a task-level `with pl.at(level=pl.Level.CORE_GROUP)` "
						+ "scope", f.span());
			}
		}
		Set<String> incore = new HashSet<>();
		program.functions().stream().filter(f -> f.type() == FunctionType.InCore).forEach(f -> incore.add(f.name()));
		Set<String> groupCaller = new HashSet<>();
		Set<String> otherCaller = new HashSet<>();
		for (Function f : program.sortedByName()) {
			for (String k : incore) {
				if (callsAtTopLevel(f, k)) {
					(f.type() == FunctionType.Group ? groupCaller : otherCaller).add(k);
				}
			}
		}
		Map<String, String[]> rewrites = new LinkedHashMap<>();
		List<Function> out = new ArrayList<>();
		boolean dualOnNoSplit = ctx.backend() == Backend.ASCEND_910B;
		for (Function f : program.sortedByName()) {
			if (f.type() != FunctionType.InCore) {
				out.add(f);
				continue;
			}
			List<Stmt> stmts = ScopeOutliner.flatten(Stmt.flatten(f.body()));
			CoreAffinity combined = CoreAffinity.stmts(stmts, CoreAffinity.tpopDefs(stmts));
			boolean waiter = Boolean.TRUE.equals(f.attr("deferred_completion_waiter"));
			if (waiter && (combined == CoreAffinity.CUBE || combined == CoreAffinity.MIXED)) {
				throw new CodegenException("deferred waiter '" + f.name()
						+ "' must lower to a pure AIV kernel; AIC and mixed AIC/AIV waiters are not supported", f.span());
			}
			if (combined != CoreAffinity.MIXED) {
				FunctionType t = combined == CoreAffinity.CUBE ? FunctionType.AIC : FunctionType.AIV;
				Map<String, Object> attrs = new LinkedHashMap<>(f.attrs());
				attrs.remove("split");
				out.add(new Function(f.name(), t, f.params(), f.directions(), f.returnTypes(), f.body(), t.impliedLevel(),
						Role.SubWorker, attrs, f.span()));
				continue;
			}
			boolean hasGroupCaller = groupCaller.contains(f.name());
			boolean createGroup = otherCaller.contains(f.name()) || !hasGroupCaller;
			expand(f, createGroup, dualOnNoSplit, out);
			if (hasGroupCaller) {
				rewrites.put(f.name(), new String[] { f.name() + "_aic", f.name() + "_aiv" });
			}
		}
		for (int i = 0; i < out.size(); i++) {
			Function f = out.get(i);
			if (f.type() != FunctionType.Group) {
				continue;
			}
			for (Map.Entry<String, String[]> r : rewrites.entrySet()) {
				if (callsAtTopLevel(f, r.getKey())) {
					f = rewriteGroupCaller(f, r.getKey(), r.getValue()[0], r.getValue()[1]);
				}
			}
			out.set(i, stripCorePlacement(f));
		}
		for (int i = 0; i < out.size(); i++) {
			out.set(i, stripCorePlacement(out.get(i)));
		}
		// Phase 4: hand-written mixed Groups onto one shared argument payload, looked up in the rewritten program.
		return program.withFunctions(GroupAbiNormalization.run(program.withFunctions(out), out, dualOnNoSplit));
	}

	/** Fresh parameters with the same names and types (pypto's make_param_map) and the body renamed onto them. */
	private static List<Var> freshParams(Function f) {
		List<Var> out = new ArrayList<>();
		for (Var p : f.params()) {
			out.add(new Var(p.name(), p.type(), p.span()));
		}
		return out;
	}

	private static Stmt onParams(Stmt body, List<Var> from, List<Var> to) {
		Map<Var, Var> m = new java.util.IdentityHashMap<>();
		for (int i = 0; i < from.size(); i++) {
			m.put(from.get(i), to.get(i));
		}
		return new dev.ptotools.codegen.passes.util.RemapMutator(m).stmt(body);
	}

	private static void expand(Function f, boolean createGroup, boolean dualOnNoSplit, List<Function> out) {
		String aicName = f.name() + "_aic";
		String aivName = f.name() + "_aiv";
		List<Var> aicParams = freshParams(f);
		Stmt aicBody = onParams(MixedKernelSplit.half(f.body(), true, f.attr("slot_num"), f.span()), f.params(), aicParams);
		out.add(new Function(aicName, FunctionType.AIC, aicParams, f.directions(), List.of(), aicBody,
				FunctionType.AIC.impliedLevel(), Role.SubWorker, f.attrs(), f.span()));
		List<Var> aivParams = freshParams(f);
		Stmt aivBody = onParams(MixedKernelSplit.half(f.body(), false, f.attr("slot_num"), f.span()), f.params(), aivParams);
		Map<String, Object> aivAttrs = new LinkedHashMap<>(f.attrs());
		Object split = f.attr("split");
		if (dualOnNoSplit && (split == null || "None".equals(split))) {
			aivAttrs.remove("dual_aiv_dispatch");
			aivAttrs.put("dual_aiv_dispatch", true);
		}
		out.add(new Function(aivName, FunctionType.AIV, aivParams, f.directions(), f.returnTypes(), aivBody,
				FunctionType.AIV.impliedLevel(), Role.SubWorker, aivAttrs, f.span()));
		if (!createGroup) {
			return;
		}
		List<Var> gp = freshParams(f);
		List<Expr> args = new ArrayList<>(gp);
		List<Stmt> body = new ArrayList<>();
		body.add(new Stmt.Eval(Expr.Call.function(aicName, args, Type.UNKNOWN, f.span()), f.span()));
		Type aivType = ConvertTensorToTileOpsPass.callType(f.returnTypes());
		Expr.Call aivCall = Expr.Call.function(aivName, args, aivType, f.span());
		if (f.returnTypes().isEmpty()) {
			body.add(new Stmt.Eval(aivCall, f.span()));
		} else {
			List<Integer> idx = ReturnLineage.returnedParamIndices(f, null);
			boolean allParams = idx.size() == f.returnTypes().size() && idx.stream().allMatch(i -> i != null && i < gp.size());
			if (allParams) {
				body.add(new Stmt.Eval(aivCall, f.span()));
				List<Expr> rets = new ArrayList<>();
				idx.forEach(i -> rets.add(gp.get(i)));
				body.add(new Stmt.Return(rets, f.span()));
			} else {
				Var result = new Var("result", aivType, f.span());
				body.add(new Stmt.Assign(result, aivCall, f.span()));
				body.add(new Stmt.Return(List.of(result), f.span()));
			}
		}
		out.add(new Function(f.name(), FunctionType.Group, gp, f.directions(), f.returnTypes(), new Stmt.Seq(body, f.span()),
				FunctionType.Group.impliedLevel(), Role.SubWorker, f.attrs(), f.span()));
	}

	/** pypto's RewriteGroupCaller: {@code v = K(args)} → {@code K_aic(args)} then {@code v = K_aiv(args)}. */
	private static Function rewriteGroupCaller(Function g, String k, String aic, String aiv) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : ScopeOutliner.flatten(Stmt.flatten(g.body()))) {
			Stmt.Assign assign = s instanceof Stmt.Assign a ? a : null;
			Expr v = assign != null ? assign.value() : s instanceof Stmt.Eval e ? e.expr() : null;
			if (v instanceof Expr.Call c && k.equals(c.functionName())) {
				out.add(new Stmt.Eval(new Expr.Call(new Expr.Callee.Function(aic), c.args(), c.kwargs(), c.attrs(), Type.UNKNOWN,
						s.span()), s.span()));
				if (assign != null) {
					out.add(new Stmt.Assign(assign.var(), new Expr.Call(new Expr.Callee.Function(aiv), c.args(), c.kwargs(),
							c.attrs(), c.type(), s.span()), s.span()));
				} else {
					out.add(new Stmt.Eval(new Expr.Call(new Expr.Callee.Function(aiv), c.args(), c.kwargs(), c.attrs(),
							Type.UNKNOWN, s.span()), s.span()));
				}
				continue;
			}
			out.add(s);
		}
		return g.withBody(new Stmt.Seq(out, g.span()));
	}

	/** Removes the {@code core_placement} call attrs LowerAutoVectorSplit stamped on split-region calls. */
	private static Function stripCorePlacement(Function f) {
		Stmt body = new IrMutator() {
			@Override
			public Expr call(Expr.Call c) {
				Expr v = super.call(c);
				return v instanceof Expr.Call n && n.attr("core_placement") != null ? n.withoutAttr("core_placement") : v;
			}
		}.stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}
}
