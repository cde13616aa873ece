package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.graph.TaskGraph;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.CallLike;
import dev.ptotools.codegen.passes.util.WrapperCalls;
import dev.ptotools.codegen.support.CodegenException;

/**
 * A call of a kernel or wrapper as a task (pypto's GenerateFunctionCallCode and its dispatch plans): the
 * {@code CoreTaskArgs params_t<N>} block (tensors first, then scalars), the kernel id in first-dispatch
 * order, dependencies, launch spec and predicate, and the submit of the core type, a MixedKernels
 * group or both vector lanes.
 */
final class TaskEmitter {

	/** One task argument: its direction, its C++ value, and whether it is marked for dumping. */
	record Param(ArgDirection dir, String value, boolean dump) {
	}

	/** A Group dispatched through a Spmd wrapper: the Group call inside the wrapper, and the wrapper. */
	record Bridge(CallLike call, Function func) {
	}

	private record Submit(String expr, List<String> preLines) {
	}

	private final OrchState st;
	private final CppExprs exprs;
	private final Deps deps;

	TaskEmitter(OrchState st, CppExprs exprs) {
		this.st = st;
		this.exprs = exprs;
		this.deps = new Deps(st);
	}

	Deps deps() {
		return deps;
	}

	void call(CallView call) {
		Function callee = st.callee(call.name());
		if (callee == null) {
			throw new CodegenException("Internal error: function '" + call.name() + "' not found after validation.",
					call.span());
		}
		if (callee.type() == FunctionType.Spmd) {
			spmd(call, callee);
			return;
		}
		if (callee.type() == FunctionType.Group) {
			group(call, callee, callee, null);
			return;
		}
		if (callee.type() == FunctionType.Graph) {
			throw new CodegenException("Graph function '" + callee.name() + "' cannot be compiled yet: "
					+ "type=pl.FunctionType.Graph is authorable, but the orchestration codegen that emits a graph launch is "
					+ "not in place yet.", call.span());
		}
		CoreType core = coreType(callee, call);
		st.coreTypes.put(callee.name(), core);
		int id = st.funcId(callee.name());
		List<Param> params = taskParams(call, callee);
		recordSignature(callee.name(), params);
		String taskVar = taskVar();
		Submit submit = singleKernelSubmit(core, callee, id, taskVar);
		LaunchSpec spec = launchSpec(call, callee);
		emit("// Task " + st.taskCounter + ": " + callee.name(), taskVar, params, submit.preLines(), call, spec,
				submit.expr(), call.isSubmitCall(), true, callee.name(), graphKind(core));
	}

	private static CoreType coreType(Function f, CallView call) {
		if (f.type() == FunctionType.AIC) {
			return CoreType.CUBE;
		}
		if (f.type() == FunctionType.AIV) {
			return CoreType.VECTOR;
		}
		throw new CodegenException("InferFunctionCoreType expects AIC or AIV (Spmd/Group are filtered upstream); got "
				+ f.type() + " on function '" + f.name() + "'. Either run ExpandMixedKernel before codegen or declare the "
				+ "function with @pl.function(type=pl.FunctionType.AIC|AIV) directly.", call.span());
	}

	private String taskVar() {
		return "params_t" + st.taskCounter;
	}

	private void spmd(CallView call, Function spmdFunc) {
		WrapperCalls.InnerCall inner = WrapperCalls.firstInnerCall(spmdFunc, st.program);
		if (inner == null) {
			throw new CodegenException("Internal error: no inner call found in Spmd function '" + spmdFunc.name() + "'",
					call.span());
		}
		if (inner.callee().type() == FunctionType.Group) {
			group(call, inner.callee(), spmdFunc, new Bridge(inner.call(), spmdFunc));
			return;
		}
		Function kernel = inner.callee();
		CoreType core = coreType(kernel, call);
		st.coreTypes.put(kernel.name(), core);
		int id = st.funcId(kernel.name());
		List<Param> params = wrapperParams(call, spmdFunc, inner.call(), null);
		recordSignature(kernel.name(), params);
		String taskVar = taskVar();
		LaunchSpec spec = launchSpec(call, spmdFunc);
		Submit submit = singleKernelSubmit(core, kernel, id, taskVar);
		emit("// Spmd " + spmdFunc.name() + ": " + kernel.name(), taskVar, params, submit.preLines(), call, spec,
				submit.expr(), call.isSubmitCall(), false, spmdFunc.name(), graphKind(core));
	}

	private void group(CallView call, Function group, Function launchFunc, Bridge bridge) {
		WrapperCalls.GroupCallees info = WrapperCalls.groupCallees(group, st.program);
		if (info.aicName() == null && info.aivName() != null) {
			Function aiv = st.callee(info.aivName());
			st.coreTypes.put(aiv.name(), CoreType.VECTOR);
			int aivId = st.funcId(aiv.name());
			if (info.innerCall() == null) {
				throw new CodegenException("Internal error: no inner call found in AIV-only Group '" + group.name() + "'",
						call.span());
			}
			List<Param> params = wrapperParams(call, group, info.innerCall(), bridge);
			recordSignature(aiv.name(), params);
			String taskVar = taskVar();
			LaunchSpec spec = launchSpec(call, launchFunc);
			Submit submit = singleKernelSubmit(CoreType.VECTOR, aiv, aivId, taskVar);
			emit("// Group " + group.name() + ": AIV-only SPMD", taskVar, params, submit.preLines(), call, spec,
					submit.expr(), call.isSubmitCall(), false, group.name(), TaskGraph.Kind.AIV);
			return;
		}
		if (info.aicName() == null || info.aivName() == null) {
			throw new CodegenException("Internal error: no " + (info.aicName() == null ? "AIC" : "AIV")
					+ " callee found in Group '" + group.name() + "' body", call.span());
		}
		Function aiv = st.callee(info.aivName());
		st.coreTypes.put(info.aicName(), CoreType.CUBE);
		st.coreTypes.put(info.aivName(), CoreType.VECTOR);
		List<Param> params = wrapperParams(call, group, info.innerCall(), bridge);
		recordSignature(info.aicName(), params);
		recordSignature(info.aivName(), params);
		int aicId = st.funcId(info.aicName());
		int aivId = st.funcId(info.aivName());
		String taskVar = taskVar();
		LaunchSpec spec = launchSpec(call, launchFunc);
		String mixed = "mixed_" + st.taskCounter;
		String third = dualAiv(aiv) ? Integer.toString(aivId) : "INVALID_KERNEL_ID";
		emit("// Group " + group.name() + ": MixedKernels (AIC + AIV lanes)", taskVar, params,
				List.of("MixedKernels " + mixed + " = {" + aicId + ", " + aivId + ", " + third + "};"), call, spec,
				"rt_submit_task(" + mixed + ", " + taskVar + ")", call.isSubmitCall(), false, group.name(),
				TaskGraph.Kind.MIXED);
	}

	private static TaskGraph.Kind graphKind(CoreType core) {
		return core == CoreType.CUBE ? TaskGraph.Kind.AIC : TaskGraph.Kind.AIV;
	}

	/** An AIV kernel stamped {@code dual_aiv_dispatch} runs on both vector lanes of a cluster. */
	static boolean dualAiv(Function f) {
		return f != null && Boolean.TRUE.equals(f.attr("dual_aiv_dispatch"));
	}

	private Submit singleKernelSubmit(CoreType core, Function kernel, int id, String taskVar) {
		if (core == CoreType.VECTOR && dualAiv(kernel)) {
			String mixed = "mixed_" + st.taskCounter;
			return new Submit("rt_submit_task(" + mixed + ", " + taskVar + ")",
					List.of("MixedKernels " + mixed + " = {INVALID_KERNEL_ID, " + id + ", " + id + "};"));
		}
		return new Submit((core == CoreType.CUBE ? "rt_submit_aic_task(" : "rt_submit_aiv_task(") + id + ", " + taskVar
				+ ")", List.of());
	}

	/**
	 * pypto's TaskDispatchPlan::Emit. Direct calls put the dependencies before the launch spec, wrapper
	 * dispatches after the predicate.
	 */
	private void emit(String comment, String taskVar, List<Param> params, List<String> preLines, CallView call,
			LaunchSpec spec, String submitExpr, boolean capture, boolean depsBeforeLaunch, String graphName,
			TaskGraph.Kind graphKind) {
		List<TaskGraph.Access> accesses = new ArrayList<>();
		for (Param p : params) {
			TaskGraph.Mode mode = switch (p.dir()) {
			case Input -> TaskGraph.Mode.IN;
			case Output, OutputExisting -> TaskGraph.Mode.OUT;
			case InOut -> TaskGraph.Mode.INOUT;
			case NoDep, Scalar -> null;
			};
			if (mode != null) {
				accesses.add(new TaskGraph.Access(p.value(), mode));
			}
		}
		List<String> depNames = deps.names(call);
		st.graph.task(graphName, graphKind, call.span(), "", accesses, depNames);
		st.blank();
		st.line(comment);
		st.line("CoreTaskArgs " + taskVar + ";");
		List<String> dumps = new ArrayList<>();
		for (Param p : params) {
			st.line(taskVar + "." + method(p.dir()) + "(" + p.value() + ");");
			if (p.dir() != ArgDirection.Scalar && p.dump()) {
				dumps.add(p.value());
			}
		}
		if (!dumps.isEmpty()) {
			st.line(taskVar + ".dump(" + String.join(", ", dumps) + ");");
		}
		preLines.forEach(st::line);
		if (depsBeforeLaunch) {
			deps.emit(depNames, taskVar);
		}
		emitLaunchSpec(taskVar, spec);
		if (call.boolAttr("allow_early_resolve")) {
			st.line(taskVar + ".set_allow_early_resolve(true);");
		}
		new Predicates(st, exprs).emit(taskVar, call);
		if (!depsBeforeLaunch) {
			deps.emit(depNames, taskVar);
		}
		if (capture) {
			st.line("TaskOutputTensors task_" + st.taskCounter + "_outs = " + submitExpr + ";");
		} else {
			st.line(submitExpr + ";");
		}
		st.taskCounter++;
	}

	static String method(ArgDirection d) {
		return switch (d) {
		case Input -> "add_input";
		case Output, OutputExisting -> "add_output";
		case InOut -> "add_inout";
		case NoDep -> "add_no_dep";
		case Scalar -> "add_scalar";
		};
	}

	/** The runtime signature name; NoDep tensors are INOUT so a dump captures them at both stages. */
	static String runtimeName(ArgDirection d) {
		return switch (d) {
		case Input -> "IN";
		case Output, OutputExisting -> "OUT";
		case InOut, NoDep -> "INOUT";
		case Scalar -> "SCALAR";
		};
	}

	/** The kernel's tensor directions in task order, scalars excluded; the first dispatch wins. */
	private void recordSignature(String kernel, List<Param> params) {
		if (st.signatures.containsKey(kernel)) {
			return;
		}
		List<String> sig = new ArrayList<>();
		for (Param p : params) {
			if (p.dir() != ArgDirection.Scalar) {
				sig.add(runtimeName(p.dir()));
			}
		}
		st.signatures.put(kernel, List.copyOf(sig));
	}

	// ---- launch spec ----

	private record LaunchSpec(Expr coreNum, boolean syncStart) {
	}

	/** The call's core_num / sync_start, else the launched function's (pypto's EffectiveLaunchSpec). */
	LaunchSpec launchSpec(CallView call, Function launchFunc) {
		Expr coreNum = asExpr(call.attr("core_num"));
		boolean syncStart = call.boolAttr("sync_start");
		if (coreNum == null && launchFunc != null) {
			coreNum = asExpr(launchFunc.attr("core_num"));
			syncStart = Boolean.TRUE.equals(launchFunc.attr("sync_start"));
		}
		return new LaunchSpec(coreNum, syncStart);
	}

	/** The core count of a call's launch, rendered, or "" (used to size GM pipe workspaces). */
	String renderedCoreNum(CallView call, Function launchFunc) {
		Expr c = launchSpec(call, launchFunc).coreNum();
		return c == null ? "" : renderCoreNum(c);
	}

	Expr coreNumExpr(CallView call, Function launchFunc) {
		return launchSpec(call, launchFunc).coreNum();
	}

	private static Expr asExpr(Object v) {
		if (v instanceof Expr e) {
			return e;
		}
		if (v instanceof Number n) {
			return new Expr.ConstInt(n.longValue(), dev.ptotools.codegen.types.DType.INDEX);
		}
		return null;
	}

	private void emitLaunchSpec(String taskVar, LaunchSpec spec) {
		if (spec.coreNum() != null) {
			st.line(taskVar + ".launch_spec." + st.options.backend().launchCoreCountMethod() + "("
					+ renderCoreNum(spec.coreNum()) + ");");
		}
		if (spec.syncStart()) {
			st.line(taskVar + ".launch_spec.set_require_sync_start(true);");
		}
	}

	String renderCoreNum(Expr e) {
		if (e instanceof Expr.ConstInt c) {
			return Long.toString(c.value());
		}
		if (e instanceof Expr.Call c && (c.isOp("system.available_cluster_count") || c.isOp("system.available_aiv_count"))) {
			return availableCoreCount(c.name());
		}
		if (!(e instanceof Var) && !(e instanceof Expr.Binary) && !(e instanceof Expr.Unary)) {
			throw new CodegenException("Unsupported core_num expression kind for orchestration codegen: expected ConstInt, "
					+ "Var, a launch-shape query, or composite index arithmetic", e.span());
		}
		return exprs.render(e);
	}

	static String availableCoreCount(String op) {
		return op.equals("system.available_aiv_count") ? "rt_available_aiv_count()" : "rt_available_cluster_count()";
	}

	// ---- task arguments ----

	/** pypto's BuildTaskParams: positional args, Submit runtime-allocated outputs, tensors before scalars. */
	private List<Param> taskParams(CallView call, Function callee) {
		List<ArgDirection> dirs = call.argDirections();
		if (dirs.size() != call.args().size()) {
			throw new CodegenException("Call to '" + callee.name() + "' has arg_directions size " + dirs.size()
					+ " but args size " + call.args().size() + ". DeriveCallDirections must run before orchestration codegen.",
					call.span());
		}
		Set<Var> dumpVars = new HashSet<>(call.varListAttr("dump_vars"));
		List<Param> params = new ArrayList<>();
		if (call.isSubmitCall()) {
			if (call.args().size() > callee.params().size()) {
				throw new CodegenException("Submit to '" + callee.name() + "' has args_ size " + call.args().size()
						+ " but callee has only " + callee.params().size() + " params.", call.span());
			}
			int ctx = trailingCommCtxParams(callee);
			if (call.args().size() < ctx) {
				throw new CodegenException("Submit to '" + callee.name() + "' has " + call.args().size()
						+ " args, fewer than the materialized CommCtx suffix size " + ctx + ".", call.span());
			}
			int originalArgs = call.args().size() - ctx;
			int originalParams = callee.params().size() - ctx;
			for (int i = 0; i < originalArgs; i++) {
				params.add(argParam(call, callee.name(), dirs, i, dumpVars));
			}
			for (int p = originalArgs; p < originalParams; p++) {
				if (callee.directions().get(p) != Direction.Out) {
					throw new CodegenException("Submit to '" + callee.name() + "' missing positional arg for callee param["
							+ p + "] which is declared " + callee.directions().get(p)
							+ " (only Out params may be runtime-allocated).", callee.params().get(p).span());
				}
				params.add(synthOutput(callee, p));
			}
			for (int i = originalArgs; i < call.args().size(); i++) {
				params.add(argParam(call, callee.name(), dirs, i, dumpVars));
			}
		} else {
			for (int i = 0; i < call.args().size(); i++) {
				params.add(argParam(call, callee.name(), dirs, i, dumpVars));
			}
			if (call.args().size() != callee.params().size()) {
				throw new CodegenException("Call to '" + callee.name() + "' has " + call.args().size()
						+ " args but callee declares " + callee.params().size()
						+ " params (Call requires full coverage; only Submit may be a prefix).", call.span());
			}
		}
		return tensorsFirst(params);
	}

	static int trailingCommCtxParams(Function f) {
		int n = 0;
		while (n < f.params().size() && f.params().get(f.params().size() - 1 - n).type() instanceof Type.CommCtx) {
			n++;
		}
		return n;
	}

	private Param argParam(CallView call, String callee, List<ArgDirection> dirs, int i, Set<Var> dumpVars) {
		Expr arg = call.args().get(i);
		boolean dump = arg instanceof Var v && dumpVars.contains(v);
		Param p = valueParam(arg, dirs.get(i), dump);
		if (p == null) {
			throw new CodegenException("Call to '" + callee + "' arg " + i + " is neither a variable nor a recognized "
					+ "constant literal (unsupported expression kind for orchestration codegen).", call.span());
		}
		return p;
	}

	/** One argument value: a Var by its kind, or a constant as a scalar; null for anything else. */
	private Param valueParam(Expr arg, ArgDirection dir, boolean dump) {
		String name = st.tryVarName(arg);
		if (!name.isEmpty()) {
			if (arg.type() instanceof Type.CommCtx) {
				return new Param(ArgDirection.Scalar, name, false);
			}
			if (arg.type() instanceof Type.Scalar s) {
				return new Param(ArgDirection.Scalar, s.dtype().ctype().equals("float") ? "to_u64(" + name + ")" : name,
						false);
			}
			return new Param(dir, st.external(name), dump);
		}
		return constParam(arg);
	}

	private static Param constParam(Expr arg) {
		if (arg instanceof Expr.ConstInt c) {
			return new Param(ArgDirection.Scalar, "(uint64_t)" + CppExprs.constInt(c), false);
		}
		if (arg instanceof Expr.ConstFloat c) {
			String ctype = c.dtype().ctype();
			String v = ctype.equals("float") ? "to_u64(" + CppExprs.toStringFloat(c.value()) + "f)"
					: "(uint64_t)" + CppExprs.toStringDouble(c.value());
			return new Param(ArgDirection.Scalar, v, false);
		}
		if (arg instanceof Expr.ConstBool b) {
			return new Param(ArgDirection.Scalar, b.value() ? "(uint64_t)1" : "(uint64_t)0", false);
		}
		return null;
	}

	/** A Submit's Out parameter the caller did not pass: a TensorCreateInfo the runtime allocates. */
	private Param synthOutput(Function callee, int p) {
		Var param = callee.params().get(p);
		if (!(param.type() instanceof Type.Tensor t)) {
			throw new CodegenException("Submit synthesised output for callee '" + callee.name() + "' param[" + p
					+ "] must have TensorType", param.span());
		}
		int nd = t.shape().size();
		String ci = "params_t" + st.taskCounter + "_synth_out_" + p;
		StringBuilder b = new StringBuilder("uint32_t ").append(ci).append("_shapes[").append(nd).append("] = {");
		for (int i = 0; i < nd; i++) {
			if (i > 0) {
				b.append(", ");
			}
			Expr dim = t.shape().get(i);
			String d = exprs.render(dim);
			boolean packed = t.dtype() == dev.ptotools.codegen.types.DType.FP4 && i + 1 == nd;
			if (dim instanceof Expr.ConstInt c) {
				b.append(packed ? Long.toString(c.value() / 2) : d);
			} else {
				if (!packed) {
					d = "static_cast<uint32_t>(" + d + ")";
				}
				b.append(packed ? "([&]() -> uint32_t { const int64_t fp4_logical_dim = static_cast<int64_t>(" + d
						+ "); always_assert(fp4_logical_dim > 0 && (fp4_logical_dim & 1u) == 0u); return "
						+ "static_cast<uint32_t>(fp4_logical_dim / 2); }())" : d);
			}
		}
		st.line(b.append("};").toString());
		st.line("TensorCreateInfo " + ci + "(" + ci + "_shapes, " + nd + ", " + t.dtype().runtimeEnum() + ");");
		return new Param(ArgDirection.Output, ci, false);
	}

	static List<Param> tensorsFirst(List<Param> params) {
		List<Param> out = new ArrayList<>();
		for (Param p : params) {
			if (p.dir() != ArgDirection.Scalar) {
				out.add(p);
			}
		}
		for (Param p : params) {
			if (p.dir() == ArgDirection.Scalar) {
				out.add(p);
			}
		}
		return out;
	}

	/**
	 * pypto's BuildWrapperReorderedParams: the wrapper's arguments in the order of the inner kernel
	 * call's arguments (the order the kernel binary expects), with the outer call's directions.
	 */
	private List<Param> wrapperParams(CallView outer, Function wrapper, CallLike inner, Bridge bridge) {
		List<ArgDirection> outerDirs = outer.argDirections();
		if (outerDirs.size() != outer.args().size()) {
			throw new CodegenException("Outer call to wrapper '" + wrapper.name() + "' has arg_directions size "
					+ outerDirs.size() + " but args size " + outer.args().size()
					+ ". DeriveCallDirections must run before orchestration codegen.", outer.span());
		}
		Map<Var, Integer> outerParamIdx = new HashMap<>();
		if (bridge != null) {
			for (int i = 0; i < bridge.func().params().size(); i++) {
				outerParamIdx.put(bridge.func().params().get(i), i);
			}
		}
		Set<Var> dumpVars = new HashSet<>(outer.varListAttr("dump_vars"));
		Set<Var> innerDumpVars = new HashSet<>(CallView.of(inner.node()).varListAttr("dump_vars"));
		List<Param> params = new ArrayList<>();
		for (int k = 0; k < inner.args().size(); k++) {
			Expr innerArg = inner.args().get(k);
			if (!(innerArg instanceof Var innerVar)) {
				Param c = constParam(innerArg);
				if (c == null) {
					throw new CodegenException("Internal error: inner call arg " + k
							+ " is neither a variable nor a recognized constant", inner.span());
				}
				params.add(c);
				continue;
			}
			int w = wrapper.paramIndex(innerVar);
			if (w < 0) {
				if (innerArg.type() instanceof Type.Scalar) {
					continue; // a wrapper-internal scalar, not an orchestration argument
				}
				throw new CodegenException("Internal error: inner call arg " + k + " does not map to any wrapper parameter",
						inner.span());
			}
			int dirIdx = w;
			Expr outerArg;
			if (bridge == null) {
				if (w >= outer.args().size()) {
					throw new CodegenException("Internal error: wrapper param index " + w + " out of range for call to '"
							+ wrapper.name() + "'", outer.span());
				}
				outerArg = outer.args().get(w);
			} else {
				Expr bridgeArg = bridge.call().args().get(w);
				if (bridgeArg instanceof Var bv) {
					Integer o = outerParamIdx.get(bv);
					if (o == null || o >= outer.args().size()) {
						throw new CodegenException("Internal error: Spmd-wrapper arg for Group '" + wrapper.name() + "' param "
								+ w + " does not map to any Spmd-wrapper parameter", bridge.call().span());
					}
					dirIdx = o;
					outerArg = outer.args().get(o);
				} else {
					dirIdx = -1; // a constant baked into the Spmd wrapper
					outerArg = bridgeArg;
				}
			}
			String name = st.tryVarName(outerArg);
			if (!name.isEmpty()) {
				if (outerArg.type() instanceof Type.CommCtx || outerArg.type() instanceof Type.Scalar) {
					params.add(valueParam(outerArg, ArgDirection.Scalar, false));
					continue;
				}
				boolean dump = (outerArg instanceof Var ov && dumpVars.contains(ov)) || innerDumpVars.contains(innerVar);
				if (dirIdx < 0 || dirIdx >= outerDirs.size()) {
					throw new CodegenException("Internal error: resolved direction index " + dirIdx
							+ " out of range for tensor arg of '" + wrapper.name() + "'", outer.span());
				}
				params.add(new Param(outerDirs.get(dirIdx), st.external(name), dump));
				continue;
			}
			Param c = constParam(outerArg);
			if (c == null) {
				throw new CodegenException("Outer call to wrapper '" + wrapper.name() + "' arg " + w + " is neither a "
						+ "variable nor a recognized constant literal (unsupported expression kind for orchestration "
						+ "codegen).", outer.span());
			}
			params.add(c);
		}
		if (params.size() != inner.args().size()) {
			throw new CodegenException("Wrapper '" + wrapper.name() + "' built " + params.size() + " params for "
					+ inner.args().size() + " inner-call args (1:1 invariant violated).", inner.span());
		}
		return tensorsFirst(params);
	}
}
