package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.CallDirections.Arg;
import dev.ptotools.analyzer.facts.ReturnLineage;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Kernel calls as task blocks (pypto's GenerateFunctionCallCode and its dispatch plans): the
 * {@code CoreTaskArgs params_t<N>} block with tensors before scalars, the kernel id in first-call order,
 * the submit of the core type, and the aliasing of call results onto the arguments they write.
 */
final class ChipTasks {

	private record Param(Arg direction, String value, boolean dump) {
	}

	private final ChipState st;

	ChipTasks(ChipState st) {
		this.st = st;
	}

	void call(OExpr.Call call) {
		Function callee = call.callee();
		FunctionType type = st.ctx.info(callee).type();
		if (type == FunctionType.Group) {
			groupCall(call, callee);
			return;
		}
		if (type == FunctionType.Graph) {
			throw new CodegenException("Graph function '" + callee.name() + "' cannot be compiled yet: "
					+ "type=pl.FunctionType.Graph is authorable, but the orchestration codegen that emits a graph "
					+ "launch is not in place yet.", call.span());
		}
		if (type != FunctionType.AIC && type != FunctionType.AIV) {
			throw new CodegenException("orchestration codegen dispatches AIC or AIV kernels (or Groups of them); '"
					+ callee.name() + "' is " + type + ". Declare it with @pl.function(type=pl.FunctionType.AIC|AIV) "
					+ "(pypto splits InCore kernels with ExpandMixedKernel, which this compiler does not run).",
					call.span());
		}
		boolean cube = type == FunctionType.AIC;
		st.coreTypes.put(callee.name(), cube ? "aic" : "aiv");
		int id = st.funcId(callee.name());
		List<Param> params = params(call);
		recordSignature(callee.name(), params);
		String taskVar = "params_t" + st.taskCounter;
		List<String> pre = new ArrayList<>();
		String submit;
		if (!cube && dualAiv(callee)) {
			String mixed = "mixed_" + st.taskCounter;
			pre.add("MixedKernels " + mixed + " = {INVALID_KERNEL_ID, " + id + ", " + id + "};");
			submit = "rt_submit_task(" + mixed + ", " + taskVar + ")";
		} else {
			submit = (cube ? "rt_submit_aic_task(" : "rt_submit_aiv_task(") + id + ", " + taskVar + ")";
		}
		emitTask("// Task " + st.taskCounter + ": " + callee.name(), taskVar, params, pre, submit);
	}

	private void groupCall(OExpr.Call call, Function group) {
		Expr.Call inner = null;
		Function aic = null;
		Function aiv = null;
		for (Expr.Call c : Walk.allCalls(group.body())) {
			Function f = st.ctx.calls().target(c);
			if (f == null) {
				continue;
			}
			FunctionType t = st.ctx.info(f).type();
			if (t == FunctionType.AIC && aic == null) {
				aic = f;
				inner = inner == null ? c : inner;
			} else if (t == FunctionType.AIV && aiv == null) {
				aiv = f;
				inner = inner == null ? c : inner;
			} else if (t == FunctionType.InCore && inner == null) {
				inner = c;
			}
		}
		if (aiv == null || inner == null) {
			throw new CodegenException("Group '" + group.name() + "' must call an AIV kernel (and optionally an AIC "
					+ "kernel)", call.span());
		}
		List<Param> params = wrapperParams(call, group, inner);
		String taskVar = "params_t" + st.taskCounter;
		if (aic == null) {
			st.coreTypes.put(aiv.name(), "aiv");
			int aivId = st.funcId(aiv.name());
			recordSignature(aiv.name(), params);
			List<String> pre = new ArrayList<>();
			String submit;
			if (dualAiv(aiv)) {
				String mixed = "mixed_" + st.taskCounter;
				pre.add("MixedKernels " + mixed + " = {INVALID_KERNEL_ID, " + aivId + ", " + aivId + "};");
				submit = "rt_submit_task(" + mixed + ", " + taskVar + ")";
			} else {
				submit = "rt_submit_aiv_task(" + aivId + ", " + taskVar + ")";
			}
			emitTask("// Group " + group.name() + ": AIV-only SPMD", taskVar, params, pre, submit);
			return;
		}
		st.coreTypes.put(aic.name(), "aic");
		st.coreTypes.put(aiv.name(), "aiv");
		recordSignature(aic.name(), params);
		recordSignature(aiv.name(), params);
		int aicId = st.funcId(aic.name());
		int aivId = st.funcId(aiv.name());
		String mixed = "mixed_" + st.taskCounter;
		String third = dualAiv(aiv) ? Integer.toString(aivId) : "INVALID_KERNEL_ID";
		List<String> pre = List.of("MixedKernels " + mixed + " = {" + aicId + ", " + aivId + ", " + third + "};");
		emitTask("// Group " + group.name() + ": MixedKernels (AIC + AIV lanes)", taskVar, params, pre,
				"rt_submit_task(" + mixed + ", " + taskVar + ")");
	}

	/** AIV kernels stamped dual_aiv_dispatch run on both vector lanes of a cluster. */
	private static boolean dualAiv(Function f) {
		String text = f.decl().decoratorText();
		String t = text == null ? "" : text.replace(" ", "").replace('\'', '"');
		return t.contains("\"dual_aiv_dispatch\":True");
	}

	private void emitTask(String comment, String taskVar, List<Param> params, List<String> pre, String submit) {
		st.out.blank();
		st.out.line(comment);
		st.out.line("CoreTaskArgs " + taskVar + ";");
		List<String> dumps = new ArrayList<>();
		for (Param p : params) {
			st.out.line(taskVar + "." + method(p.direction()) + "(" + p.value() + ");");
			if (p.dump() && p.direction() != Arg.SCALAR) {
				dumps.add(p.value());
			}
		}
		if (!dumps.isEmpty()) {
			st.out.line(taskVar + ".dump(" + String.join(", ", dumps) + ");");
		}
		pre.forEach(st.out::line);
		st.out.line(submit + ";");
		st.taskCounter++;
	}

	private static String method(Arg d) {
		return switch (d) {
		case INPUT -> "add_input";
		case OUTPUT, OUTPUT_EXISTING -> "add_output";
		case IN_OUT -> "add_inout";
		case NO_DEP -> "add_no_dep";
		case SCALAR -> "add_scalar";
		};
	}

	private void recordSignature(String kernel, List<Param> params) {
		if (st.signatures.containsKey(kernel)) {
			return;
		}
		List<String> sig = new ArrayList<>();
		for (Param p : params) {
			if (p.direction() != Arg.SCALAR) {
				sig.add(p.direction().signatureName());
			}
		}
		st.signatures.put(kernel, List.copyOf(sig));
	}

	/** BuildTaskParams: one entry per argument in order, then tensors before scalars (stable). */
	private List<Param> params(OExpr.Call call) {
		if (call.args().size() != call.callee().params().size() + distCount(call.callee())) {
			throw new CodegenException("Call to '" + call.callee().name() + "' has " + call.args().size()
					+ " args but callee declares " + call.callee().params().size() + " params", call.span());
		}
		List<Param> params = new ArrayList<>();
		for (int i = 0; i < call.args().size(); i++) {
			params.add(param(call.args().get(i), call.directions().get(i), call.dumps(), call));
		}
		return tensorsFirst(params);
	}

	private static int distCount(Function f) {
		int n = 0;
		for (dev.ptotools.analyzer.ir.Param p : f.params()) {
			if (p.type() instanceof dev.ptotools.analyzer.ir.TypeSpec.Tensor t
					&& t.kind() == dev.ptotools.analyzer.ir.TypeSpec.TensorKind.DISTRIBUTED) {
				n++;
			}
		}
		return n;
	}

	private Param param(OExpr arg, Arg dir, java.util.Set<OVar> dumps, OExpr.Call call) {
		String var = st.names.tryVarName(arg);
		if (!var.isEmpty()) {
			OVar v = ((OExpr.Ref) arg).var();
			if (arg.type() instanceof OType.CommCtx) {
				return new Param(Arg.SCALAR, var, false);
			}
			if (arg.type() instanceof OType.Scalar s) {
				return new Param(Arg.SCALAR, s.dtype().ctype().equals("float") ? "to_u64(" + var + ")" : var, false);
			}
			return new Param(dir, st.names.external(var), dumps.contains(v));
		}
		if (arg instanceof OExpr.ConstInt c) {
			String ctype = c.dtype().ctype();
			String v = ctype.equals("int64_t") ? Long.toString(c.value()) : "static_cast<" + ctype + ">(" + c.value() + ")";
			return new Param(Arg.SCALAR, "(uint64_t)" + v, false);
		}
		if (arg instanceof OExpr.ConstFloat c) {
			String ctype = c.dtype().ctype();
			return new Param(Arg.SCALAR, ctype.equals("float") ? "to_u64(" + CppExprs.toStringFloat(c.value()) + "f)"
					: "(uint64_t)" + CppExprs.toStringDouble(c.value()), false);
		}
		if (arg instanceof OExpr.ConstBool b) {
			return new Param(Arg.SCALAR, b.value() ? "(uint64_t)1" : "(uint64_t)0", false);
		}
		throw new CodegenException("Call to '" + call.op() + "' has an argument that is neither a variable nor a "
				+ "recognized constant literal; bind it to a name first (pypto's FlattenCallExpr does this in its "
				+ "full pipeline)", call.span());
	}

	private static List<Param> tensorsFirst(List<Param> params) {
		List<Param> out = new ArrayList<>();
		for (Param p : params) {
			if (p.direction() != Arg.SCALAR) {
				out.add(p);
			}
		}
		for (Param p : params) {
			if (p.direction() == Arg.SCALAR) {
				out.add(p);
			}
		}
		return out;
	}

	/** BuildWrapperReorderedParams: the Group's params in the inner kernel call's argument order. */
	private List<Param> wrapperParams(OExpr.Call outer, Function group, Expr.Call inner) {
		List<Param> params = new ArrayList<>();
		for (Expr a : inner.args()) {
			int idx = -1;
			if (a instanceof Expr.Name n) {
				for (int i = 0; i < group.params().size(); i++) {
					if (group.params().get(i).name().equals(n.id())) {
						idx = i;
					}
				}
			}
			if (idx < 0) {
				Object v = st.ctx.eval().eval(a);
				OExpr c = ChipExprLowering.constant(v, a);
				if (c == null) {
					throw new CodegenException("Group '" + group.name() + "' passes an argument that is neither one "
							+ "of its parameters nor a constant", a.span());
				}
				params.add(param(c, Arg.SCALAR, java.util.Set.of(), outer));
				continue;
			}
			params.add(param(outer.args().get(idx), outer.directions().get(idx), outer.dumps(), outer));
		}
		return tensorsFirst(params);
	}

	// ---- results: alias the result Var onto the argument the callee writes ----

	void singleReturnAlias(OVar result, OExpr.Call call, String name) {
		Function callee = call.callee();
		List<Integer> outs = outIndices(callee);
		if (outs.isEmpty()) {
			return;
		}
		int returned = ReturnLineage.returnedParam(callee, st.ctx.calls());
		if (returned < 0 && outs.size() != 1) {
			throw new CodegenException("cannot map the return of '" + callee.name() + "' to one of its "
					+ outs.size() + " Out/InOut params: its return statement does not name a parameter", call.span());
		}
		tensorAlias(result, name, call, returned >= 0 ? returned : outs.get(0));
	}

	void tupleReturnAliases(OExpr.Call call, OVar tupleVar) {
		String key = st.analysis.tupleKeys.get(tupleVar);
		List<ChipAnalysis.TupleElement> elements = key == null ? null : st.analysis.tupleElements.get(key);
		if (elements == null) {
			return;
		}
		Function callee = call.callee();
		List<Integer> map = ReturnLineage.returnedParams(callee, st.ctx.calls());
		OType.Tuple tt = (OType.Tuple) call.type();
		boolean precise = map.size() >= tt.elements().size();
		for (int j = 0; precise && j < tt.elements().size(); j++) {
			if (tt.elements().get(j) instanceof OType.Tensor && map.get(j) < 0) {
				precise = false;
			}
		}
		List<Integer> outs = outIndices(callee);
		int arity = elements.stream().mapToInt(ChipAnalysis.TupleElement::index).max().orElse(-1) + 1;
		int base = arity >= outs.size() ? arity - outs.size() : 0;
		for (ChipAnalysis.TupleElement e : elements) {
			int param = -1;
			if (precise) {
				param = e.index() < map.size() ? map.get(e.index()) : -1;
			} else if (e.index() >= base && e.index() - base < outs.size()) {
				param = outs.get(e.index() - base);
			}
			if (param < 0) {
				if (st.analysis.uses.contains(e.var()) && e.var().type instanceof OType.Scalar s) {
					st.out.line(s.dtype().ctype() + " " + st.names.reserve(e.var()) + " = 0;");
				}
				continue;
			}
			if (!st.analysis.uses.contains(e.var())) {
				continue;
			}
			tensorAlias(e.var(), st.names.reserve(e.var()), call, param);
		}
	}

	private void tensorAlias(OVar result, String alias, OExpr.Call call, int argIdx) {
		String outArg = st.names.tryVarName(call.args().get(argIdx));
		if (outArg.isEmpty() || alias.equals(outArg)) {
			return;
		}
		String source = st.names.external(outArg);
		if (st.mutableInCurrentScope(alias)) {
			st.out.line(alias + " = " + source + ";");
			return;
		}
		st.names.emit.put(result, source);
	}

	private static List<Integer> outIndices(Function callee) {
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < callee.params().size(); i++) {
			Direction d = callee.params().get(i).direction();
			if (d == Direction.Out || d == Direction.InOut) {
				out.add(i);
			}
		}
		return out;
	}
}
