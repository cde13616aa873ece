package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.JitSamples.Arg;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.DynDims;
import dev.ptotools.analyzer.facts.jit.JitParams;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ExprLowering;

/**
 * Binds one sample call to an entry's parameters as pypto's {@code _resolve_specialization} does: a
 * {@code RunConfig} in {@code config=} is set aside; {@code compile()} / {@code lower()} without tensors
 * specializes from the signature, anything else from the sample values (sample tensors by shape and dtype,
 * dynamic dims as declared, scalars by value). A sample that cannot be evaluated falls back to the
 * parameter's full annotation when it has one.
 */
public final class SampleBinder {

	/** The specialization, or what stopped it. */
	public record Result(JitSamples.Specialization specialization, List<JitSamples.Problem> problems) {
	}

	private final Function entry;
	private final Script.Def def;
	private final Map<String, Map<Integer, DynDim>> dyn;
	private final DynDims.Evaluator eval;
	private final List<JitParams.ParamClass> params;

	public SampleBinder(Function entry, Script.Def def, Map<String, Map<Integer, DynDim>> dyn, DynDims.Evaluator eval) {
		this.entry = entry;
		this.def = def;
		this.dyn = dyn;
		this.eval = eval;
		this.params = JitParams.of(entry);
	}

	/** Binds a call; a choice among argument values gives one result per combination. */
	public List<Result> bind(ScriptInterpreter.SampleCall call) {
		Map<String, Object> kwargs = new LinkedHashMap<>(call.kwargs());
		kwargs.remove("config");
		List<Result> out = new ArrayList<>();
		for (List<Object> combo : combinations(new ArrayList<>(call.args()), kwargs)) {
			List<Object> args = combo.subList(0, call.args().size());
			Map<String, Object> kw = new LinkedHashMap<>();
			int i = call.args().size();
			for (String k : kwargs.keySet()) {
				kw.put(k, combo.get(i++));
			}
			boolean signature = call.kind() != JitSamples.CallKind.CALL && args.isEmpty() && !tensorKeyword(kw);
			out.add(signature ? signature(kw, call) : sample(args, kw, call));
		}
		return out;
	}

	/** The specialization of an entry nothing calls: from its signature, scalars at their defaults. */
	public Result unCalled(Map<String, Object> globals) {
		Result r = signature(Map.of(), null);
		if (r.specialization() == null) {
			return r;
		}
		JitSamples.Specialization s = r.specialization();
		return new Result(new JitSamples.Specialization(s.entry(), true, s.args(), globals, s.kind(), null, 0, s.runConfig()),
				List.of());
	}

	private boolean tensorKeyword(Map<String, Object> kw) {
		for (Map.Entry<String, Object> e : kw.entrySet()) {
			if (e.getValue() instanceof Py.Tensor) {
				return true;
			}
			JitParams.ParamClass c = param(e.getKey());
			if (Py.unknown(e.getValue()) && c != null && c.kind() == JitParams.Kind.TENSOR) {
				return true;
			}
		}
		return false;
	}

	private static List<List<Object>> combinations(List<Object> args, Map<String, Object> kwargs) {
		List<Object> all = new ArrayList<>(args);
		all.addAll(kwargs.values());
		List<List<Object>> out = new ArrayList<>();
		out.add(new ArrayList<>());
		for (Object v : all) {
			List<Object> options = v instanceof Py.Choice c ? c.options() : java.util.Collections.singletonList(v);
			List<List<Object>> next = new ArrayList<>();
			for (List<Object> prefix : out) {
				for (Object o : options) {
					List<Object> l = new ArrayList<>(prefix);
					l.add(o);
					next.add(l);
				}
			}
			out = next.size() > 16 ? out : next;
		}
		return out;
	}

	private JitParams.ParamClass param(String name) {
		for (JitParams.ParamClass c : params) {
			if (c.name().equals(name)) {
				return c;
			}
		}
		return null;
	}

	private Result problem(String param, String reason, ScriptInterpreter.SampleCall call) {
		return new Result(null, List.of(new JitSamples.Problem(entry, param, reason, call == null ? null : call.span())));
	}

	// ---- sample mode ------------------------------------------------------------------------

	private Result sample(List<Object> args, Map<String, Object> kw, ScriptInterpreter.SampleCall call) {
		if (args.size() > params.size()) {
			return problem(null, "@pl.jit function '" + entry.name() + "': too many positional arguments", call);
		}
		Map<String, Object> bound = new LinkedHashMap<>();
		for (int i = 0; i < args.size(); i++) {
			bound.put(params.get(i).name(), args.get(i));
		}
		for (Map.Entry<String, Object> e : kw.entrySet()) {
			if (param(e.getKey()) == null) {
				return problem(null, "@pl.jit function '" + entry.name() + "': got an unexpected keyword argument '"
						+ e.getKey() + "'", call);
			}
			if (bound.containsKey(e.getKey())) {
				return problem(e.getKey(), "@pl.jit function '" + entry.name() + "': multiple values for argument '"
						+ e.getKey() + "'", call);
			}
			bound.put(e.getKey(), e.getValue());
		}
		Map<String, Arg> out = new LinkedHashMap<>();
		List<JitSamples.Problem> problems = new ArrayList<>();
		for (JitParams.ParamClass c : params) {
			Object v = bound.containsKey(c.name()) ? bound.get(c.name()) : defaultOf(c.name());
			if (v == null) {
				return problem(c.name(), "@pl.jit function '" + entry.name() + "': missing a required argument: '"
						+ c.name() + "'", call);
			}
			if (v == Py.Runtime.INSTANCE) {
				return problem(c.name(), "parameter '" + c.name() + "' received pl.RUNTIME, which is a compile-time"
						+ " marker rather than a value (only compile() or lower() without tensors accept it)", call);
			}
			if (v instanceof Py.Tensor t) {
				String dt = Torch.pyptoDtype(t.dtype());
				if (dt == null) {
					return problem(c.name(), "unsupported torch dtype torch." + t.dtype(), call);
				}
				List<Long> extents = new ArrayList<>(t.shape());
				if (dt.equals("FP4") && !extents.isEmpty()) {
					extents.set(extents.size() - 1, extents.get(extents.size() - 1) * 2);
				}
				out.put(c.name(), new JitSamples.TensorArg(meta(c, extents, dt), false));
			} else if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
				out.put(c.name(), new JitSamples.ScalarArg(v));
			} else if (Py.unknown(v) || v instanceof Py.Opaque && c.kind() != JitParams.Kind.OTHER) {
				TensorMeta declared = c.kind() == JitParams.Kind.TENSOR ? annotated(c) : null;
				if (declared != null) {
					out.put(c.name(), new JitSamples.TensorArg(declared, true));
				} else {
					String why = v instanceof Py.Unknown u ? u.reason() : "it is " + Py.show(v);
					problems.add(new JitSamples.Problem(entry, c.name(), why, call.span()));
				}
			} else if (c.kind() == JitParams.Kind.TENSOR) {
				problems.add(new JitSamples.Problem(entry, c.name(), "@pl.jit: missing inferred tensor metadata for"
						+ " parameter '" + c.name() + "' (it is given " + Py.show(v) + ", not a tensor)", call.span()));
			} else {
				out.put(c.name(), new JitSamples.OtherArg(Py.show(v)));
			}
		}
		if (!problems.isEmpty()) {
			return new Result(null, problems);
		}
		return new Result(new JitSamples.Specialization(entry, false, out, call.globals(), call.kind(), call.span(), 0,
				runConfig(call.kwargs().get("config"))), List.of());
	}

	/** A parameter's default value, or null when it has none. */
	private Object defaultOf(String name) {
		Script.DefParam p = def == null ? null : def.param(name);
		if (p == null || p.defaultValue() == null) {
			return null;
		}
		Expr d = p.defaultValue();
		String dotted = ExprLowering.dotted(d);
		if (dotted != null && dotted.endsWith(".RUNTIME")) {
			return Py.Runtime.INSTANCE;
		}
		Object v = eval.eval(d);
		return Values.known(v) ? v == Values.None.INSTANCE ? Values.None.INSTANCE : v
				: new Py.Unknown("the default of '" + name + "' is not known");
	}

	private TensorMeta meta(JitParams.ParamClass c, List<Long> extents, String dtype) {
		Map<Integer, DynDim> dims = dyn.getOrDefault(c.name(), Map.of());
		List<Object> shape = new ArrayList<>();
		for (int i = 0; i < extents.size(); i++) {
			DynDim d = dims.get(i);
			shape.add(d == null ? (Object) extents.get(i) : new DynDim(d.name(), d.literal(), extents.get(i)));
		}
		return new TensorMeta(shape, dtype, layout(c));
	}

	/** The annotated layout slot ("NZ", "ND"), or null. */
	private String layout(JitParams.ParamClass c) {
		Expr slot = c.layout();
		String dotted = slot == null ? null : ExprLowering.dotted(slot);
		String name = dotted == null ? null : dotted.substring(dotted.lastIndexOf('.') + 1);
		return name != null && JitParams.LAYOUTS.contains(name) ? name : null;
	}

	/** The meta a full annotation {@code pl.Tensor[[...], dt]} gives (dynamic dims at extent 1), or null. */
	private TensorMeta annotated(JitParams.ParamClass c) {
		List<Expr> shape = c.shape();
		Expr dt = c.dtype();
		String dtype = dt == null ? null : ExprLowering.dotted(dt);
		dtype = dtype == null ? null : dtype.substring(dtype.lastIndexOf('.') + 1);
		if (shape == null || dtype == null) {
			return null;
		}
		List<Long> extents = new ArrayList<>();
		Map<Integer, DynDim> dims = new LinkedHashMap<>(dyn.getOrDefault(c.name(), Map.of()));
		for (int i = 0; i < shape.size(); i++) {
			Object v = eval.eval(shape.get(i));
			if (v instanceof Values.DynVar dv) {
				dims.putIfAbsent(i, new DynDim(dv.name(), dv.name(), 1));
				extents.add(1L);
			} else if (dims.containsKey(i)) {
				extents.add(1L);
			} else if (v instanceof Long l) {
				extents.add(l);
			} else {
				return null;
			}
		}
		List<Object> out = new ArrayList<>();
		for (int i = 0; i < extents.size(); i++) {
			DynDim d = dims.get(i);
			out.add(d == null ? (Object) extents.get(i) : new DynDim(d.name(), d.literal(), 1));
		}
		return new TensorMeta(out, dtype, layout(c));
	}

	// ---- signature mode ---------------------------------------------------------------------

	private Result signature(Map<String, Object> kw, ScriptInterpreter.SampleCall call) {
		Map<String, Arg> out = new LinkedHashMap<>();
		List<JitSamples.Problem> problems = new ArrayList<>();
		Span span = call == null ? null : call.span();
		String how = call == null ? "nothing in the file calls '" + entry.name() + "' with sample values, and " : "";
		for (JitParams.ParamClass c : params) {
			if (c.kind() == JitParams.Kind.TENSOR) {
				TensorMeta m = annotated(c);
				if (m != null) {
					out.put(c.name(), new JitSamples.TensorArg(m, false));
				} else if (c.shape() == null || c.dtype() == null) {
					problems.add(new JitSamples.Problem(entry, c.name(), how + "parameter '" + c.name()
							+ "' has a bare 'pl.Tensor' annotation with no shape", span));
				} else {
					problems.add(new JitSamples.Problem(entry, c.name(), how + "the annotation of '" + c.name()
							+ "' has a dimension that is not known statically", span));
				}
			} else if (c.kind() == JitParams.Kind.SCALAR) {
				Object v = kw.containsKey(c.name()) ? kw.get(c.name()) : defaultOf(c.name());
				if (v == Py.Runtime.INSTANCE) {
					out.put(c.name(), new JitSamples.RuntimeArg());
				} else if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
					out.put(c.name(), new JitSamples.ScalarArg(v));
				} else if (v == null) {
					problems.add(new JitSamples.Problem(entry, c.name(), how + "scalar parameter '" + c.name()
							+ "' has no value (pass it as a keyword, or pl.RUNTIME to leave it a runtime value)", span));
				} else {
					problems.add(new JitSamples.Problem(entry, c.name(), how + "the value of scalar parameter '" + c.name()
							+ "' is not known statically" + (v instanceof Py.Unknown u ? ": " + u.reason() : ""), span));
				}
			} else {
				problems.add(new JitSamples.Problem(entry, c.name(), how + "parameter '" + c.name()
						+ "' has no tensor or scalar annotation to specialize it from", span));
			}
		}
		if (!problems.isEmpty()) {
			return new Result(null, problems);
		}
		return new Result(new JitSamples.Specialization(entry, true, out, call == null ? Map.of() : call.globals(),
				call == null ? JitSamples.CallKind.NONE : call.kind(), span, 0,
				call == null ? Map.of() : runConfig(call.kwargs().get("config"))), List.of());
	}

	/**
	 * What a sample call's {@code config=RunConfig(platform=..., distributed_config=DistributedConfig(
	 * device_ids=..., num_sub_workers=...))} says, as far as each value is known.
	 */
	static Map<String, Object> runConfig(Object config) {
		Map<String, Object> out = new LinkedHashMap<>();
		if (!(config instanceof Py.Config rc) || !rc.name().equals("RunConfig")) {
			return out;
		}
		if (rc.kwargs().get("platform") instanceof String p) {
			out.put("platform", p);
		}
		if (rc.kwargs().get("distributed_config") instanceof Py.Config dc && dc.name().equals("DistributedConfig")) {
			if (dc.kwargs().get("device_ids") instanceof List<?> ids && !ids.isEmpty()
					&& ids.stream().allMatch(Long.class::isInstance)) {
				out.put("device_ids", List.copyOf(ids));
			}
			if (dc.kwargs().get("num_sub_workers") instanceof Long n) {
				out.put("num_sub_workers", n);
			}
		}
		return out;
	}
}
