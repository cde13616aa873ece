package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;

/**
 * What the interpreter knows of Python's builtins and of the libraries a sample script uses: torch (see
 * {@link Torch}), argparse (an option is its default in the run under way, or one of its other values in
 * the runs the interpreter makes for them), pypto.language
 * ({@code pl.RUNTIME}, dtypes, {@code pl.dynamic}), the methods of lists, dicts and strings; any other
 * library object is opaque.
 */
final class Builtins {

	private static final Set<String> NAMES = Set.of("int", "float", "bool", "str", "len", "min", "max", "abs", "range",
			"list", "tuple", "dict", "sum", "round", "print", "enumerate", "zip", "sorted", "reversed", "isinstance",
			"any", "all", "divmod", "pow", "getattr", "hasattr", "type", "id", "repr", "set", "map", "filter", "open",
			"super", "vars", "format", "callable", "iter", "next", "object", "Exception", "ValueError", "TypeError",
			"RuntimeError", "SystemExit", "KeyError", "AssertionError", "NotImplementedError");

	private static final Set<String> DTYPES = Set.of("FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16", "FP32", "BF16",
			"HF4", "HF8", "INT4", "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16", "UINT32", "UINT64", "BOOL",
			"INDEX", "TASK_ID");

	private final ScriptInterpreter interp;
	private final Exprs exprs;

	Builtins(ScriptInterpreter interp, Exprs exprs) {
		this.interp = interp;
		this.exprs = exprs;
	}

	static Object named(String name) {
		return NAMES.contains(name) ? new Py.Builtin(name) : null;
	}

	/** The value an import binds ("torch", "pypto.runtime.RunConfig", ".config.BATCH"). */
	Object imported(String what) {
		Object project = projectValue(what);
		if (project != null) {
			return project;
		}
		if (what.startsWith(".")) {
			return new Py.Unknown("'" + what.substring(what.lastIndexOf('.') + 1) + "' is imported from another module");
		}
		for (String module : List.of("pypto.language.distributed", "pypto.language", "torch", "argparse", "sys", "os",
				"math", "numpy")) {
			if (what.equals(module)) {
				return new Py.Module(module);
			}
			if (what.startsWith(module + ".")) {
				Object base = new Py.Module(module);
				for (String part : what.substring(module.length() + 1).split("\\.")) {
					base = attribute(base, part);
				}
				return base;
			}
		}
		int dot = what.lastIndexOf('.');
		return dot < 0 ? new Py.Module(what) : new Py.Builtin(what.substring(dot + 1));
	}

	/**
	 * What an import binds when it names a module of the project ({@link ScriptInterpreter#imported}): a
	 * folded constant, or a module as a namespace; null when the project has no such module or value.
	 */
	private Object projectValue(String what) {
		dev.ptotools.analyzer.project.ImportedModules project = interp.importedModules();
		if (project == null || what.startsWith("pypto") || what.startsWith("torch")) {
			return null;
		}
		Object v = what.indexOf('.') < 0 ? project.module(what)
				: project.value(dev.ptotools.analyzer.project.ImportKinds.module(what),
						dev.ptotools.analyzer.project.ImportKinds.name(what));
		if (v instanceof Values.Namespace ns) {
			return new Py.Namespace(new java.util.LinkedHashMap<>(ns.values()));
		}
		return Values.known(v) ? v : null;
	}

	Object attribute(Object base, String attr) {
		if (base instanceof Py.Module m) {
			return moduleAttribute(m.name(), attr);
		}
		if (base instanceof Py.Tensor t) {
			return Torch.ATTRIBUTES.contains(attr) ? Torch.attribute(t, attr) : new Py.Bound(t, attr);
		}
		if (base instanceof Py.JitRef j) {
			if (attr.equals("compile") || attr.equals("lower")) {
				return new Py.Bound(j, attr);
			}
			return attr.equals("__name__") ? j.function().name() : new Py.Opaque(j.function().name() + "." + attr);
		}
		if (base instanceof Py.Namespace ns) {
			Object v = ns.values().get(attr);
			return v != null ? v : new Py.Unknown("the option '" + attr + "' is not known");
		}
		if (base instanceof Py.DefRef d && attr.equals("__name__")) {
			return d.def().name();
		}
		if (base instanceof Py.ArgParser || base instanceof Py.Dict || base instanceof List<?> || base instanceof String
				|| base instanceof Py.Opaque) {
			return new Py.Bound(base, attr);
		}
		if (base instanceof Values.DType d && attr.equals("get_byte")) {
			return new Py.Bound(base, attr);
		}
		return new Py.Unknown(Py.show(base) + "." + attr + " is not known");
	}

	private Object moduleAttribute(String module, String attr) {
		switch (module) {
		case "torch": {
			String dt = Torch.dtypeAttr(attr);
			if (dt != null) {
				return new Py.TorchDtype(dt);
			}
			if (attr.equals("cuda") || attr.equals("npu") || attr.equals("testing") || attr.equals("nn")) {
				return new Py.Module("torch." + attr);
			}
			return new Py.Builtin("torch." + attr);
		}
		case "pypto.language":
			if (attr.equals("RUNTIME")) {
				return Py.Runtime.INSTANCE;
			}
			if (DTYPES.contains(attr)) {
				return new Values.DType(attr, 0);
			}
			if (attr.equals("dynamic")) {
				return new Py.Builtin("pl.dynamic");
			}
			if (attr.equals("distributed")) {
				return new Py.Module("pypto.language.distributed");
			}
			return new Py.Opaque("pl." + attr);
		case "argparse":
			return new Py.Builtin("argparse." + attr);
		case "sys":
			return attr.equals("argv") ? new Py.Unknown("sys.argv is only known when the script runs")
					: new Py.Builtin("sys." + attr);
		case "os":
			return attr.equals("environ") ? new Py.Unknown("os.environ is only known when the script runs")
					: new Py.Builtin("os." + attr);
		default:
			return new Py.Builtin(module + "." + attr);
		}
	}

	Object call(Object fn, List<Object> args, Map<String, Object> kwargs, Expr.Call at) {
		if (fn instanceof Py.JitRef j) {
			return interp.sample(j.function(), JitSamples.CallKind.CALL, args, kwargs, at.span());
		}
		if (fn instanceof Py.Bound b && b.self() instanceof Py.JitRef j) {
			return interp.sample(j.function(), b.method().equals("compile") ? JitSamples.CallKind.COMPILE
					: JitSamples.CallKind.LOWER, args, kwargs, at.span());
		}
		if (fn instanceof Py.DefRef d) {
			return interp.invoke(d, args, kwargs, false);
		}
		if (fn instanceof Py.Bound b) {
			return method(b.self(), b.method(), args, kwargs);
		}
		if (fn instanceof Py.Builtin b) {
			return builtin(b.name(), args, kwargs);
		}
		return new Py.Unknown("a call of " + Py.show(fn));
	}

	private Object builtin(String name, List<Object> args, Map<String, Object> kwargs) {
		if (name.startsWith("torch.")) {
			String f = name.substring("torch.".length());
			return switch (f) {
			case "manual_seed", "set_printoptions", "set_default_dtype" -> Values.None.INSTANCE;
			case "Size" -> args.size() == 1 && args.get(0) instanceof List<?> l ? List.copyOf(l) : new Py.Unknown("torch.Size");
			case "no_grad", "device", "Generator", "inference_mode" -> new Py.Opaque(name);
			default -> Torch.call(f, args, kwargs);
			};
		}
		if (name.equals("pl.dynamic")) {
			return args.size() == 1 && args.get(0) instanceof String s ? new Values.DynVar(s)
					: new Py.Unknown("pl.dynamic of a name that is not known");
		}
		if (name.equals("argparse.ArgumentParser")) {
			return new Py.ArgParser();
		}
		for (Object a : args) {
			if (Py.unknown(a)) {
				return NAMES.contains(name) ? Py.unknownOf(a, name + "() of a value that is not known")
						: new Py.Opaque(name + "(...)");
			}
		}
		Object a0 = args.isEmpty() ? null : args.get(0);
		switch (name) {
		case "int":
			if (a0 instanceof Long || a0 == null) {
				return a0 == null ? (Object) 0L : a0;
			}
			if (a0 instanceof Double d) {
				return (long) d.doubleValue();
			}
			if (a0 instanceof Boolean b) {
				return b ? 1L : 0L;
			}
			if (a0 instanceof String s) {
				try {
					return Long.parseLong(s.strip());
				} catch (NumberFormatException e) {
					return new Py.Unknown("int() of " + Py.show(s));
				}
			}
			break;
		case "float":
			if (a0 instanceof Long || a0 instanceof Double) {
				return ((Number) a0).doubleValue();
			}
			if (a0 instanceof String s) {
				try {
					return Double.parseDouble(s.strip());
				} catch (NumberFormatException e) {
					return new Py.Unknown("float() of " + Py.show(s));
				}
			}
			break;
		case "bool": {
			Boolean t = a0 == null ? Boolean.FALSE : exprs.truth(a0);
			return t == null ? new Py.Unknown("bool() of a value that is not known") : t;
		}
		case "str":
			if (a0 instanceof Long || a0 instanceof String) {
				return String.valueOf(a0);
			}
			break;
		case "len": {
			if (a0 instanceof Py.Tensor t) {
				return t.shape().isEmpty() ? new Py.Unknown("len() of a 0-d tensor") : t.shape().get(0);
			}
			if (a0 instanceof Py.Dict d) {
				return (long) d.map().size();
			}
			List<Object> items = exprs.iterate(a0);
			return items == null ? new Py.Unknown("len() of a value that is not known") : (Object) (long) items.size();
		}
		case "min":
		case "max":
		case "sum": {
			List<Object> items = args.size() == 1 ? exprs.iterate(a0) : args;
			if (items == null || items.isEmpty() && !name.equals("sum")) {
				return new Py.Unknown(name + "() of a value that is not known");
			}
			Object best = name.equals("sum") ? (Object) 0L : null;
			for (Object o : items) {
				if (name.equals("sum")) {
					best = exprs.binary("+", best, o);
				} else if (best == null || Boolean.TRUE.equals(exprs.binary("-", o, best) instanceof Number n
						&& (name.equals("min") ? n.doubleValue() < 0 : n.doubleValue() > 0))) {
					best = o;
				}
			}
			return best;
		}
		case "abs":
			return a0 instanceof Long l ? (Object) Math.abs(l) : a0 instanceof Double d ? (Object) Math.abs(d)
					: new Py.Unknown("abs()");
		case "round":
			return a0 instanceof Double d && args.size() == 1 ? (Object) Math.round(d) : a0 instanceof Long ? a0
					: new Py.Unknown("round()");
		case "range": {
			if (args.isEmpty() || args.size() > 3 || !args.stream().allMatch(x -> x instanceof Long)) {
				return new Py.Unknown("a range of values that are not known");
			}
			long start = args.size() == 1 ? 0 : (Long) args.get(0);
			long stop = args.size() == 1 ? (Long) args.get(0) : (Long) args.get(1);
			long step = args.size() == 3 ? (Long) args.get(2) : 1;
			return step == 0 ? new Py.Unknown("a range with step 0") : new Py.Range(start, stop, step);
		}
		case "list":
		case "tuple":
		case "sorted":
		case "reversed": {
			List<Object> items = a0 == null ? new ArrayList<>() : exprs.iterate(a0);
			if (items == null) {
				return new Py.Unknown(name + "() of a value that is not known");
			}
			if (name.equals("reversed")) {
				java.util.Collections.reverse(items);
			}
			if (name.equals("sorted")) {
				try {
					items.sort((x, y) -> x instanceof String sx && y instanceof String sy ? sx.compareTo(sy)
							: Double.compare(((Number) x).doubleValue(), ((Number) y).doubleValue()));
				} catch (ClassCastException e) {
					return new Py.Unknown("sorted() of mixed values");
				}
			}
			return name.equals("tuple") ? List.copyOf(items) : items;
		}
		case "enumerate": {
			List<Object> items = exprs.iterate(a0);
			if (items == null) {
				return new Py.Unknown("enumerate() of a value that is not known");
			}
			long start = args.size() > 1 && args.get(1) instanceof Long s ? s : 0;
			List<Object> out = new ArrayList<>();
			for (int i = 0; i < items.size(); i++) {
				out.add(List.of(start + i, items.get(i)));
			}
			return out;
		}
		case "zip": {
			List<List<Object>> lists = new ArrayList<>();
			int n = Integer.MAX_VALUE;
			for (Object a : args) {
				List<Object> items = exprs.iterate(a);
				if (items == null) {
					return new Py.Unknown("zip() of a value that is not known");
				}
				lists.add(items);
				n = Math.min(n, items.size());
			}
			List<Object> out = new ArrayList<>();
			for (int i = 0; i < (lists.isEmpty() ? 0 : n); i++) {
				List<Object> row = new ArrayList<>();
				for (List<Object> l : lists) {
					row.add(l.get(i));
				}
				out.add(List.copyOf(row));
			}
			return out;
		}
		case "dict":
			return new Py.Dict(new LinkedHashMap<>(kwargs));
		case "print":
			return Values.None.INSTANCE;
		default:
			break;
		}
		if (NAMES.contains(name)) {
			return new Py.Unknown(name + "() is not evaluated");
		}
		String simple = name.substring(name.lastIndexOf('.') + 1);
		if (simple.equals("RunConfig") || simple.equals("DistributedConfig")) {
			return new Py.Config(simple, new LinkedHashMap<>(kwargs));
		}
		// a class or function from a library (a compiled program's constructor...): an object we only name
		return new Py.Opaque(name + "(...)");
	}

	private Object method(Object self, String m, List<Object> args, Map<String, Object> kwargs) {
		if (self instanceof Py.Tensor t) {
			return Torch.method(t, m, args, kwargs);
		}
		if (self instanceof Py.ArgParser p) {
			return argparse(p, m, args, kwargs);
		}
		if (self instanceof Values.DType d && m.equals("get_byte")) {
			return new Py.Unknown("get_byte()");
		}
		if (self instanceof Py.Dict d) {
			switch (m) {
			case "get": {
				Object v = args.isEmpty() ? null : d.map().get(args.get(0));
				return v != null ? v : args.size() > 1 ? args.get(1) : Values.None.INSTANCE;
			}
			case "keys":
				return new ArrayList<>(d.map().keySet());
			case "values":
				return new ArrayList<>(d.map().values());
			case "items": {
				List<Object> out = new ArrayList<>();
				for (Map.Entry<Object, Object> e : d.map().entrySet()) {
					out.add(List.of(e.getKey(), e.getValue()));
				}
				return out;
			}
			default:
				return new Py.Unknown("dict." + m + "()");
			}
		}
		if (self instanceof ArrayList<?> l && m.equals("append") && args.size() == 1) {
			@SuppressWarnings("unchecked")
			ArrayList<Object> list = (ArrayList<Object>) l;
			list.add(args.get(0));
			return Values.None.INSTANCE;
		}
		if (self instanceof String s) {
			return string(s, m, args);
		}
		return new Py.Unknown("." + m + "() of " + Py.show(self));
	}

	private static Object string(String s, String m, List<Object> args) {
		switch (m) {
		case "split": {
			List<Object> out = new ArrayList<>();
			if (args.isEmpty()) {
				for (String p : s.strip().split("\\s+")) {
					if (!p.isEmpty()) {
						out.add(p);
					}
				}
			} else if (args.get(0) instanceof String sep && !sep.isEmpty()) {
				int from = 0;
				while (true) {
					int at = s.indexOf(sep, from);
					if (at < 0) {
						out.add(s.substring(from));
						break;
					}
					out.add(s.substring(from, at));
					from = at + sep.length();
				}
			} else {
				return new Py.Unknown("str.split()");
			}
			return out;
		}
		case "strip":
			return s.strip();
		case "lower":
			return s.toLowerCase(java.util.Locale.ROOT);
		case "upper":
			return s.toUpperCase(java.util.Locale.ROOT);
		case "startswith":
			return args.size() == 1 && args.get(0) instanceof String p ? (Object) s.startsWith(p) : new Py.Unknown("str.startswith()");
		case "endswith":
			return args.size() == 1 && args.get(0) instanceof String p ? (Object) s.endsWith(p) : new Py.Unknown("str.endswith()");
		case "replace":
			return args.size() == 2 && args.get(0) instanceof String a && args.get(1) instanceof String b ? s.replace(a, b)
					: new Py.Unknown("str.replace()");
		default:
			return new Py.Unknown("str." + m + "()");
		}
	}

	/** argparse: an option is its default (converted by type=) or the value the run under way gives it. */
	private Object argparse(Py.ArgParser p, String m, List<Object> args, Map<String, Object> kwargs) {
		switch (m) {
		case "add_argument": {
			String dest = dev.ptotools.analyzer.facts.ArgparseFolding.destination(
					kwargs.get("dest") instanceof String d ? d : null, args);
			if (dest == null) {
				return Values.None.INSTANCE;
			}
			Object action = kwargs.get("action");
			Object value;
			if (kwargs.containsKey("default")) {
				value = kwargs.get("default");
			} else if ("store_true".equals(action)) {
				value = false;
			} else if ("store_false".equals(action)) {
				value = true;
			} else {
				value = Values.None.INSTANCE;
			}
			Object type = kwargs.get("type");
			if (value instanceof String s && type instanceof Py.Builtin b && (b.name().equals("int") || b.name().equals("float"))) {
				value = builtin(b.name(), List.of(s), Map.of());
			}
			List<Object> alternatives = new ArrayList<>();
			if (kwargs.get("choices") instanceof List<?> choices) {
				alternatives.addAll(choices);
			} else if ("store_true".equals(action) || "store_false".equals(action)) {
				alternatives.add(!(Boolean) value);
			}
			value = interp.option(dest, value, alternatives);
			p.defaults.put(dest, value);
			return Values.None.INSTANCE;
		}
		case "add_mutually_exclusive_group":
		case "add_argument_group":
			return p;
		case "set_defaults":
			p.defaults.putAll(kwargs);
			return Values.None.INSTANCE;
		case "parse_args":
		case "parse_known_args": {
			Py.Namespace ns = new Py.Namespace(new LinkedHashMap<>(p.defaults));
			return m.equals("parse_args") ? ns : List.of(ns, List.of());
		}
		default:
			return new Py.Opaque("parser." + m + "()");
		}
	}
}
