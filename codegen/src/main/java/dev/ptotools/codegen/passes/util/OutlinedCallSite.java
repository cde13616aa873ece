package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The statements that replace an outlined scope in its parent (the call-site half of pypto's
 * ScopeOutliner::OutlineScope): a Call of the new function — a Submit when the scope binds a task id
 * ({@code as tid}) or has dependencies, early resolve or a predicate — and the bindings of its results:
 * none, one Var, or {@code ret__tmp_v0} and one projection per result (plus the task id). A store
 * target is bound to a fresh SSA version of its name, which later statements use.
 */
final class OutlinedCallSite {

	private final ScopeOutliner outliner;
	private final Stmt.Scope scope;
	private final String callee;
	private final List<Var> inputs;
	private final List<Var> outputs;
	private final Set<Var> storeOutputs;
	private final List<Type> returnTypes;

	OutlinedCallSite(ScopeOutliner outliner, Stmt.Scope scope, String callee, List<Var> inputs, List<Var> outputs,
			Set<Var> storeOutputs, List<Type> returnTypes) {
		this.outliner = outliner;
		this.scope = scope;
		this.callee = callee;
		this.inputs = inputs;
		this.outputs = outputs;
		this.storeOutputs = storeOutputs;
		this.returnTypes = returnTypes;
	}

	@SuppressWarnings("unchecked")
	private List<Var> varList(String key) {
		Object v = ScopeOutliner.scopeAttrs(scope).get(key);
		return v instanceof List<?> l ? (List<Var>) l : List.of();
	}

	private Object attr(String key) {
		return ScopeOutliner.scopeAttrs(scope).get(key);
	}

	Stmt build() {
		var span = scope.span();
		List<Expr> args = new ArrayList<>();
		for (Var in : inputs) {
			args.add(outliner.renamedOrSelf(in));
		}
		Var taskId = ScopeOutliner.taskIdVar(scope);
		List<Var> deps = varList("manual_dep_edges");
		List<Var> noDep = varList("arg_direction_overrides_vars");
		List<Var> dumps = varList("dump_vars");
		boolean early = Boolean.TRUE.equals(attr("allow_early_resolve"));
		Expr predicate = attr("predicate") instanceof Expr p ? p : null;
		if ((!deps.isEmpty() || early || predicate != null) && taskId == null) {
			taskId = outliner.syntheticTaskId(span);
		}
		Map<Var, Integer> argIndex = new IdentityHashMap<>();
		for (int i = 0; i < inputs.size(); i++) {
			argIndex.put(inputs.get(i), i);
		}
		List<Long> overrideIndices = new ArrayList<>();
		for (Var v : noDep) {
			Integer i = argIndex.get(v);
			if (i == null) {
				throw new CodegenException("pl.at(no_dep_args=[...]) references tensor '" + v.name()
						+ "', which is not captured by the scope body. Only tensors actually read or written inside "
						+ "`with pl.at(...):` can appear in no_dep_args=.", span);
			}
			overrideIndices.add((long) i);
		}
		overrideIndices.sort(null);
		TreeSet<Integer> dumpIndices = new TreeSet<>();
		for (Var v : dumps) {
			Integer i = argIndex.get(v);
			if (i != null) {
				dumpIndices.add(i);
			}
		}
		List<Expr> dumpArgs = new ArrayList<>();
		for (int i : dumpIndices) {
			dumpArgs.add(args.get(i));
		}

		List<Type> effective = new ArrayList<>(returnTypes);
		if (taskId != null) {
			effective.add(new Type.Scalar(DType.TASK_ID));
		}
		Type callType = effective.isEmpty() ? Type.UNKNOWN
				: taskId == null && effective.size() == 1 ? effective.get(0) : new Type.Tuple(effective);

		Map<String, Object> callAttrs = new LinkedHashMap<>();
		if (!dumpArgs.isEmpty()) {
			callAttrs.put("dump_vars", dumpArgs);
		}
		if (!overrideIndices.isEmpty()) {
			callAttrs.put("arg_direction_overrides", overrideIndices);
		}
		Expr.Callee fn = new Expr.Callee.Function(callee);
		Expr call;
		Stmt.SpmdScope spmd = scope instanceof Stmt.SpmdScope s ? s : null;
		if (taskId != null) {
			// Submit carries early-resolve and the predicate as attributes: the IR's Submit has no fields for them.
			if (early) {
				callAttrs.put("allow_early_resolve", true);
			}
			if (predicate != null) {
				callAttrs.put("predicate", predicate);
			}
			call = new Expr.Submit(fn, args, new ArrayList<>(deps), spmd != null ? spmd.coreNum() : null,
					spmd != null && spmd.syncStart(), callAttrs, callType, span);
		} else {
			if (spmd != null) {
				callAttrs.put("core_num", spmd.coreNum());
				if (spmd.syncStart()) {
					callAttrs.put("sync_start", true);
				}
			}
			call = new Expr.Call(fn, args, Map.of(), callAttrs, callType, span);
		}

		if (taskId != null) {
			Var ret = new Var(OutlineNames.build("ret", "", "tmp", 0), callType, span);
			List<Stmt> stmts = new ArrayList<>();
			stmts.add(new Stmt.Assign(ret, call, span));
			for (int i = 0; i < outputs.size(); i++) {
				stmts.add(new Stmt.Assign(callSiteVar(outputs.get(i)), new Expr.TupleGetItem(ret, i, span), span));
			}
			stmts.add(new Stmt.Assign(taskId, new Expr.TupleGetItem(ret, outputs.size(), span), span));
			return new Stmt.Seq(stmts, span);
		}
		if (outputs.isEmpty()) {
			return new Stmt.Eval(call, span);
		}
		if (outputs.size() == 1) {
			return new Stmt.Assign(callSiteVar(outputs.get(0)), call, span);
		}
		Var ret = new Var(OutlineNames.build("ret", "", "tmp", 0), callType, span);
		List<Stmt> stmts = new ArrayList<>();
		stmts.add(new Stmt.Assign(ret, call, span));
		for (int i = 0; i < outputs.size(); i++) {
			stmts.add(new Stmt.Assign(callSiteVar(outputs.get(i)), new Expr.TupleGetItem(ret, i, span), span));
		}
		return new Stmt.Seq(stmts, span);
	}

	/** A scope-defined output keeps its Var; a store target gets a fresh SSA name. */
	private Var callSiteVar(Var out) {
		return storeOutputs.contains(out) ? outliner.newStoreTargetName(out, scope.span()) : out;
	}
}
