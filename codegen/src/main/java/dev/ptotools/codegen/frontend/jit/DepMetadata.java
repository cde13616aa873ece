package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.facts.jit.JitParams;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.codegen.support.CodegenException;

/**
 * A dependency's parameter metadata from its first caller (pypto's {@code _resolve_dep_call_metadata}):
 * the arguments of the first call site mapped to the parameters (a name gives that local's meta, a
 * per-rank subscript {@code x[r]} the base's meta without its leading dims, a specialized scalar its
 * value), falling back to matching names when there is no call site; then the dynamic dims and the
 * layouts the dependency declares itself.
 */
final class DepMetadata {

	/** Tensor metas and scalar values of one function's parameters, in pypto's insertion order. */
	record Meta(Map<String, TensorMeta> tensors, Map<String, Object> scalars) {
	}

	private DepMetadata() {
	}

	static Meta resolve(JitGraph graph, Function dep, Function caller, JitKind callerKind, Meta callerMeta,
			Map<String, Map<Integer, DynDim>> depDyn, Map<String, Object> globals, JitGraph.Names names) {
		List<String> depParams = JitGraph.paramNames(dep);
		List<JitGraph.CallArg> callArgs = graph.callArgs(caller, dep.name());
		Map<String, TensorMeta> all = LocalMetas.extract(caller, callerKind, callerMeta.tensors(), callerMeta.scalars(),
				globals, names, callArgs != null ? dep.name() : null);
		Map<String, TensorMeta> tensors = new LinkedHashMap<>();
		Map<String, Object> scalars = new LinkedHashMap<>();
		if (callArgs != null) {
			for (Map.Entry<String, JitGraph.CallArg> e : JitGraph.paramMapping(depParams, callArgs).entrySet()) {
				JitGraph.ArgRef ref = e.getValue().ref();
				if (ref == null) {
					continue;
				}
				if (ref instanceof JitGraph.SlicedRef s) {
					TensorMeta base = all.get(s.base());
					if (base != null && s.drop() < base.rank()) {
						tensors.put(e.getKey(), base.withShape(base.shape().subList(s.drop(), base.rank())));
					}
					continue;
				}
				String name = ((JitGraph.NameRef) ref).name();
				if (all.containsKey(name)) {
					tensors.put(e.getKey(), all.get(name));
				} else if (callerMeta.scalars().containsKey(name)) {
					scalars.put(e.getKey(), callerMeta.scalars().get(name));
				}
			}
		} else {
			for (String p : depParams) {
				if (all.containsKey(p)) {
					tensors.put(p, all.get(p));
				}
			}
			for (String p : depParams) {
				if (callerMeta.scalars().containsKey(p)) {
					scalars.put(p, callerMeta.scalars().get(p));
				}
			}
		}
		for (Map.Entry<String, Map<Integer, DynDim>> e : depDyn.entrySet()) {
			TensorMeta m = tensors.get(e.getKey());
			if (m == null) {
				continue;
			}
			List<Object> shape = new ArrayList<>(m.shape());
			boolean changed = false;
			for (Map.Entry<Integer, DynDim> d : e.getValue().entrySet()) {
				int i = d.getKey();
				if (i >= shape.size() || shape.get(i) instanceof DynDim) {
					continue;
				}
				shape.set(i, new DynDim(d.getValue().name(), d.getValue().literal(), (Long) shape.get(i)));
				changed = true;
			}
			if (changed) {
				tensors.put(e.getKey(), m.withShape(shape));
			}
		}
		for (JitParams.ParamClass c : JitParams.of(dep)) {
			String layout = declaredLayout(dep, c);
			TensorMeta m = tensors.get(c.name());
			if (layout != null && m != null && m.layout() == null) {
				tensors.put(c.name(), m.withLayout(layout));
			}
		}
		return new Meta(tensors, scalars);
	}

	/** The layout slot a parameter's annotation declares ("NZ", "ND"), or null. */
	static String declaredLayout(Function f, JitParams.ParamClass c) {
		Expr slot = c.layout();
		if (slot == null || !JitParams.tensorLike(c.param().annotation())) {
			return null;
		}
		String dotted = ExprLowering.dotted(slot);
		String name = dotted == null ? null : dotted.substring(dotted.lastIndexOf('.') + 1);
		if (name != null && JitParams.LAYOUTS.contains(name)) {
			return name;
		}
		if (slot instanceof Expr.Call) {
			throw new CodegenException("@pl.jit function '" + f.name() + "': parameter '" + c.name() + "' annotates a"
					+ " TensorView in its layout slot, which @pl.jit does not yet support", slot.span());
		}
		return null;
	}
}
