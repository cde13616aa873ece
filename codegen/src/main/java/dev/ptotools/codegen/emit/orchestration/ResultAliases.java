package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Kernel results after a task (pypto's Generate*ReturnAliases and EmitTensorAlias): a result that is
 * the buffer of an argument the kernel writes gets no C++ name of its own, later uses print the
 * argument's name; a loop carry or phi that receives it is assigned; a Submit's TaskId becomes a
 * {@code PTO2TaskId} variable and a runtime-allocated output a reference into the task's outputs.
 */
final class ResultAliases {

	private final OrchState st;

	ResultAliases(OrchState st) {
		this.st = st;
	}

	/** The result of a call with one (non-tuple) value. */
	void single(Var result, CallView call, String varName) {
		Function callee = st.callee(call.name());
		if (callee == null) {
			return;
		}
		List<Integer> outs = outIndices(callee);
		if (outs.isEmpty()) {
			return;
		}
		List<Integer> map = st.returnedParams(callee);
		Integer returned = map.isEmpty() ? null : map.get(0);
		if (returned == null && outs.size() != 1) {
			throw new CodegenException("Internal error: cannot map return of callee '" + callee.name() + "' to one of its "
					+ outs.size() + " Out/InOut params; its ReturnStmt does not reference a param directly, so the IR violates "
					+ "IRProperty::ReturnParamsExplicit (run NormalizeReturnOrder). Aliasing would be a guess", call.span());
		}
		tensorAlias(result, varName, call, returned != null ? returned : outs.get(0));
	}

	private static List<Integer> outIndices(Function callee) {
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < callee.directions().size(); i++) {
			Direction d = callee.directions().get(i);
			if (d == Direction.Out || d == Direction.InOut) {
				out.add(i);
			}
		}
		return out;
	}

	/** pypto's EmitTensorAlias: remap the result to the written argument, or assign/declare it. */
	void tensorAlias(Var result, String alias, CallView call, int argIdx) {
		String outArg = st.tryVarName(call.args().get(argIdx));
		if (outArg.isEmpty() || alias.equals(outArg)) {
			return;
		}
		String out = st.external(outArg);
		st.graph.view(alias, out);
		boolean mutable = st.isMutableInCurrentScope(alias);
		boolean sourceInScope = st.manualLocalNames == null || st.isEnclosingScopeValid(outArg);
		if (result != null && !mutable && sourceInScope) {
			st.emitNames.put(result, out);
			return;
		}
		st.line(mutable ? alias + " = " + out + ";" : "const ChipTensor& " + alias + " = " + out + ";");
	}

	/**
	 * A return map usable as is: non-empty, covering every kernel result, every tensor result mapped to
	 * a parameter.
	 */
	private static boolean precise(List<Integer> map, CallView call) {
		if (map.isEmpty() || !(call.type() instanceof Type.Tuple t)) {
			return false;
		}
		int expected = t.elements().size();
		if (call.isSubmitCall() && expected > 0) {
			expected--;
		}
		if (map.size() < expected) {
			return false;
		}
		for (int j = 0; j < expected; j++) {
			if (t.elements().get(j) instanceof Type.Tensor && map.get(j) == null) {
				return false;
			}
		}
		return true;
	}

	/** The parameter each tuple position writes back: the return map, else outputs aligned to the tail. */
	private Integer paramFor(int pos, boolean precise, List<Integer> map, List<Integer> outs, int outBase) {
		if (precise) {
			return pos < map.size() ? map.get(pos) : null;
		}
		if (pos >= outBase && pos - outBase < outs.size()) {
			return outs.get(pos - outBase);
		}
		return null;
	}

	/** A scalar element no parameter backs gets a zero default if it is used. */
	private void scalarDefault(Var element) {
		if (st.effectiveUses.contains(element)) {
			String name = st.reserve(element);
			if (element.type() instanceof Type.Scalar s) {
				st.line(s.dtype().ctype() + " " + name + " = 0;");
			}
		}
	}

	/** The elements of a multi-result call. */
	void tuple(CallView call, Var result) {
		List<OrchAnalysis.TupleElement> elements = elements(result);
		Function callee = st.callee(call.name());
		if (elements == null || callee == null) {
			return;
		}
		List<Integer> map = st.returnedParams(callee);
		boolean precise = precise(map, call);
		List<Integer> outs = precise ? List.of() : outIndices(callee);
		int arity = 0;
		for (OrchAnalysis.TupleElement e : elements) {
			arity = Math.max(arity, e.index() + 1);
		}
		int outBase = arity >= outs.size() ? arity - outs.size() : 0;
		for (OrchAnalysis.TupleElement e : elements) {
			if (e.index() < 0) {
				continue;
			}
			Integer p = paramFor(e.index(), precise, map, outs, outBase);
			if (p == null) {
				scalarDefault(e.var());
				continue;
			}
			if (p >= call.args().size()) {
				throw new CodegenException("Internal error: resolved param_idx " + p + " out of range for " + call.name(),
						call.span());
			}
			Object binding = st.taskIds.get(result);
			if (binding == null && call.args().get(p) instanceof Var arg) {
				binding = st.taskIds.get(arg);
			}
			if (binding != null) {
				st.taskIds.put(e.var(), binding);
			}
			if (st.effectiveUses.contains(e.var())) {
				tensorAlias(e.var(), st.reserve(e.var()), call, p);
			}
		}
	}

	/** The elements of a Submit: kernel results, then the producer TaskId. */
	void submit(CallView call, int taskIdx, Var result) {
		List<OrchAnalysis.TupleElement> elements = elements(result);
		if (elements == null) {
			return;
		}
		int nOuts = ((Type.Tuple) call.type()).elements().size() - 1;
		Function callee = st.callee(call.name());
		if (callee == null) {
			throw new CodegenException("Internal error: submit callee '" + call.name() + "' not found", call.span());
		}
		int ctx = TaskEmitter.trailingCommCtxParams(callee);
		int originalArgs = call.args().size() - ctx;
		List<Integer> map = st.returnedParams(callee);
		boolean precise = precise(map, call);
		List<Integer> outs = precise ? List.of() : outIndices(callee);
		int outBase = nOuts >= outs.size() ? nOuts - outs.size() : 0;
		for (OrchAnalysis.TupleElement e : elements) {
			if (e.index() < 0) {
				continue;
			}
			if (e.index() == nOuts) {
				if (st.effectiveUses.contains(e.var())) {
					String tid = bindVarTaskId(e.var(), "task_" + taskIdx + "_outs.task_id()");
					st.graph.bindTaskId(tid, st.graph.nextTask() - 1);
					st.taskIds.put(e.var(), tid);
				}
				continue;
			}
			if (e.index() > nOuts) {
				continue;
			}
			Integer p = paramFor(e.index(), precise, map, outs, outBase);
			if (p == null) {
				scalarDefault(e.var());
				continue;
			}
			if (!st.effectiveUses.contains(e.var())) {
				continue;
			}
			String name = st.reserve(e.var());
			if (p < originalArgs) {
				tensorAlias(e.var(), name, call, p);
			} else {
				String source = "task_" + taskIdx + "_outs.get_ref(" + (p - originalArgs) + ")";
				st.graph.view(name, "params_t" + taskIdx + "_synth_out_" + p);
				st.line(st.isMutableInCurrentScope(name) ? name + " = " + source + ";"
						: "const ChipTensor& " + name + " = " + source + ";");
			}
		}
	}

	/** A fresh {@code PTO2TaskId x = task_N_outs.task_id();}: always valid. */
	private String bindVarTaskId(Var v, String value) {
		String name = st.reserve(v);
		st.line("PTO2TaskId " + name + " = " + value + ";");
		st.guaranteedValid.add(name);
		return name;
	}

	private List<OrchAnalysis.TupleElement> elements(Var result) {
		String key = st.tuples.keys.get(result);
		return key == null ? null : st.tuples.elements.get(key);
	}
}
