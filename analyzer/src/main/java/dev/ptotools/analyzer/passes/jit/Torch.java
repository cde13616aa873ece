package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;

/**
 * The part of torch a sample call uses, by shape and dtype only: the constructors
 * ({@code torch.randn(64, 128, dtype=torch.float16)}, {@code torch.zeros((m, n))}, {@code torch.tensor([...])}),
 * the {@code *_like} ones, dtype conversions ({@code .to(torch.bfloat16)}, {@code .half()}), views
 * ({@code x[0]}, {@code .view(...)}, {@code .t()}), and elementwise arithmetic with broadcasting.
 */
final class Torch {

	private Torch() {
	}

	/** torch dtype names pypto maps to a DataType (pypto's {@code _TORCH_DTYPE_MAP}). */
	static String pyptoDtype(String torch) {
		return switch (torch) {
		case "float16" -> "FP16";
		case "float32" -> "FP32";
		case "bfloat16" -> "BF16";
		case "int8" -> "INT8";
		case "int16" -> "INT16";
		case "int32" -> "INT32";
		case "int64" -> "INT64";
		case "uint8" -> "UINT8";
		case "bool" -> "BOOL";
		case "float8_e4m3fn" -> "FP8E4M3FN";
		case "float8_e5m2" -> "FP8E5M2";
		case "float8_e8m0fnu" -> "FP8E8M0";
		case "float4_e2m1fn_x2" -> "FP4";
		default -> null;
		};
	}

	/** {@code torch.<attr>} as a dtype (aliases resolved), or null. */
	static String dtypeAttr(String attr) {
		return switch (attr) {
		case "float16", "half" -> "float16";
		case "float32", "float" -> "float32";
		case "float64", "double" -> "float64";
		case "bfloat16" -> "bfloat16";
		case "int8" -> "int8";
		case "int16", "short" -> "int16";
		case "int32", "int" -> "int32";
		case "int64", "long" -> "int64";
		case "uint8" -> "uint8";
		case "bool" -> "bool";
		case "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn_x2", "complex64", "uint16", "uint32",
				"uint64" ->
			attr;
		default -> null;
		};
	}

	/** The dtype a conversion method gives ({@code .half()}), or null when it is not one. */
	static String conversion(String method) {
		return switch (method) {
		case "float" -> "float32";
		case "half" -> "float16";
		case "bfloat16" -> "bfloat16";
		case "double" -> "float64";
		case "int" -> "int32";
		case "long" -> "int64";
		case "short" -> "int16";
		case "char" -> "int8";
		case "byte" -> "uint8";
		case "bool" -> "bool";
		default -> null;
		};
	}

	static final java.util.Set<String> SIZED = java.util.Set.of("randn", "rand", "zeros", "ones", "empty");
	static final java.util.Set<String> LIKE = java.util.Set.of("zeros_like", "ones_like", "empty_like", "rand_like",
			"randn_like", "full_like", "randint_like");
	/** Methods that keep a tensor's shape and dtype. */
	static final java.util.Set<String> SAME = java.util.Set.of("clone", "contiguous", "detach", "cpu", "cuda", "npu",
			"requires_grad_", "zero_", "fill_", "uniform_", "normal_", "abs", "neg", "exp", "sqrt", "relu", "sigmoid",
			"tanh", "pin_memory", "share_memory_", "copy_", "add_", "mul_", "sub_", "div_", "clamp", "clamp_", "round");

	/** A shape from {@code (2, 3)}, {@code [2, 3]}, {@code 2, 3} or a single int. */
	static Object shape(List<Object> args) {
		if (args.size() == 1 && args.get(0) instanceof List<?> l) {
			return longs(l);
		}
		return longs(args);
	}

	static Object longs(List<?> items) {
		List<Long> out = new ArrayList<>();
		for (Object o : items) {
			if (o instanceof Long l) {
				out.add(l);
			} else if (o instanceof Boolean) {
				return new Py.Unknown("a shape holds a bool");
			} else {
				return Py.unknownOf(o, "a dimension is not known: " + Py.show(o));
			}
		}
		return out;
	}

	/** The dtype= keyword, or the default. */
	static Object dtype(Map<String, Object> kwargs, String fallback) {
		Object d = kwargs.get("dtype");
		if (d == null || d == Values.None.INSTANCE) {
			return fallback;
		}
		if (d instanceof Py.TorchDtype t) {
			return t.name();
		}
		return Py.unknownOf(d, "the dtype is not known");
	}

	/** torch.&lt;name&gt;(args, kwargs) for a tensor-making function, or Unknown. */
	@SuppressWarnings("unchecked")
	static Object call(String name, List<Object> args, Map<String, Object> kwargs) {
		for (Object a : args) {
			if (Py.unknown(a)) {
				return Py.unknownOf(a, "an argument of torch." + name + " is not known");
			}
		}
		if (SIZED.contains(name)) {
			Object shape = kwargs.containsKey("size") ? shape(List.of(kwargs.get("size"))) : shape(args);
			return tensor(shape, dtype(kwargs, "float32"));
		}
		switch (name) {
		case "full": {
			Object size = !args.isEmpty() ? args.get(0) : kwargs.get("size");
			Object fill = args.size() > 1 ? args.get(1) : kwargs.get("fill_value");
			String def = fill instanceof Boolean ? "bool" : fill instanceof Long ? "int64" : "float32";
			return tensor(size instanceof List<?> l ? longs(l) : new Py.Unknown("the size of torch.full is not known"),
					dtype(kwargs, def));
		}
		case "randint": {
			Object size = kwargs.get("size");
			if (size == null) {
				size = args.isEmpty() ? null : args.get(args.size() - 1);
			}
			return tensor(size instanceof List<?> l ? longs(l) : new Py.Unknown("the size of torch.randint is not known"),
					dtype(kwargs, "int64"));
		}
		case "arange": {
			boolean floats = args.stream().anyMatch(a -> a instanceof Double);
			long start = 0;
			long end;
			long step = 1;
			if (floats || args.isEmpty()) {
				return new Py.Unknown("torch.arange with float bounds");
			}
			if (args.size() == 1) {
				end = (Long) args.get(0);
			} else {
				start = (Long) args.get(0);
				end = (Long) args.get(1);
				if (args.size() > 2) {
					step = (Long) args.get(2);
				}
			}
			long n = step == 0 ? 0 : Math.max(0, Math.floorDiv(end - start + step - Long.signum(step), step));
			return tensor(List.of(n), dtype(kwargs, "int64"));
		}
		case "randperm":
			return args.size() == 1 && args.get(0) instanceof Long n ? tensor(List.of(n), dtype(kwargs, "int64"))
					: new Py.Unknown("torch.randperm");
		case "eye": {
			if (args.isEmpty() || !(args.get(0) instanceof Long n)) {
				return new Py.Unknown("torch.eye");
			}
			long m = args.size() > 1 && args.get(1) instanceof Long mm ? mm : n;
			return tensor(List.of(n, m), dtype(kwargs, "float32"));
		}
		case "linspace":
			return args.size() >= 3 && args.get(2) instanceof Long n ? tensor(List.of(n), dtype(kwargs, "float32"))
					: new Py.Unknown("torch.linspace");
		case "tensor":
		case "as_tensor": {
			if (args.isEmpty()) {
				return new Py.Unknown("torch.tensor without data");
			}
			List<Long> shape = new ArrayList<>();
			String inferred = nested(args.get(0), shape, 0);
			if (inferred == null) {
				return new Py.Unknown("the data of torch.tensor is not known");
			}
			return tensor(shape, dtype(kwargs, inferred));
		}
		case "cat":
		case "concat":
		case "stack":
			return join(name, args, kwargs);
		default:
			break;
		}
		if (LIKE.contains(name)) {
			if (args.isEmpty() || !(args.get(0) instanceof Py.Tensor t)) {
				return new Py.Unknown("torch." + name + " of an unknown tensor");
			}
			return tensor(t.shape(), dtype(kwargs, t.dtype()));
		}
		return new Py.Unknown("torch." + name + " is not a tensor constructor the analyzer knows");
	}

	private static Object tensor(Object shape, Object dtype) {
		if (!(shape instanceof List<?>)) {
			return shape;
		}
		if (!(dtype instanceof String d)) {
			return dtype;
		}
		@SuppressWarnings("unchecked")
		List<Long> s = (List<Long>) shape;
		for (Long x : s) {
			if (x < 0) {
				return new Py.Unknown("a negative dimension");
			}
		}
		return new Py.Tensor(s, d);
	}

	/** The shape of nested lists of numbers, and the dtype torch infers for them; null when not known. */
	private static String nested(Object data, List<Long> shape, int depth) {
		if (data instanceof List<?> l) {
			if (shape.size() == depth) {
				shape.add((long) l.size());
			} else if (shape.get(depth) != l.size()) {
				return null;
			}
			String kind = "int64";
			boolean any = false;
			for (Object o : l) {
				String k = nested(o, shape, depth + 1);
				if (k == null) {
					return null;
				}
				kind = any ? wider(kind, k) : k;
				any = true;
			}
			return any ? kind : "float32";
		}
		if (shape.size() > depth) {
			return null;
		}
		if (data instanceof Boolean) {
			return "bool";
		}
		if (data instanceof Long) {
			return "int64";
		}
		if (data instanceof Double) {
			return "float32";
		}
		return null;
	}

	private static String wider(String a, String b) {
		if (a.equals("float32") || b.equals("float32")) {
			return "float32";
		}
		if (a.equals("int64") || b.equals("int64")) {
			return "int64";
		}
		return a;
	}

	private static Object join(String name, List<Object> args, Map<String, Object> kwargs) {
		if (args.isEmpty() || !(args.get(0) instanceof List<?> parts) || parts.isEmpty()) {
			return new Py.Unknown("torch." + name + " of unknown tensors");
		}
		Object dimArg = args.size() > 1 ? args.get(1) : kwargs.getOrDefault("dim", 0L);
		if (!(dimArg instanceof Long dim)) {
			return new Py.Unknown("torch." + name + " along an unknown dim");
		}
		List<Py.Tensor> ts = new ArrayList<>();
		for (Object p : parts) {
			if (!(p instanceof Py.Tensor t)) {
				return Py.unknownOf(p, "torch." + name + " of an unknown tensor");
			}
			ts.add(t);
		}
		List<Long> first = ts.get(0).shape();
		if (name.equals("stack")) {
			int d = (int) (dim < 0 ? dim + first.size() + 1 : dim);
			List<Long> out = new ArrayList<>(first);
			out.add(d, (long) ts.size());
			return new Py.Tensor(out, ts.get(0).dtype());
		}
		int d = (int) (dim < 0 ? dim + first.size() : dim);
		long total = 0;
		for (Py.Tensor t : ts) {
			total += t.shape().get(d);
		}
		List<Long> out = new ArrayList<>(first);
		out.set(d, total);
		return new Py.Tensor(out, ts.get(0).dtype());
	}

	/** Broadcast shapes of an elementwise op (numpy rules); null when they do not broadcast. */
	static List<Long> broadcast(List<Long> a, List<Long> b) {
		int n = Math.max(a.size(), b.size());
		List<Long> out = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			long x = i < n - a.size() ? 1 : a.get(i - (n - a.size()));
			long y = i < n - b.size() ? 1 : b.get(i - (n - b.size()));
			if (x != y && x != 1 && y != 1) {
				return null;
			}
			out.add(x == 1 ? y : x);
		}
		return out;
	}

	/** {@code a @ b}. */
	static Object matmul(Py.Tensor a, Py.Tensor b) {
		List<Long> x = a.shape();
		List<Long> y = b.shape();
		if (x.size() < 2 || y.size() < 2 || !x.get(x.size() - 1).equals(y.get(y.size() - 2))) {
			return new Py.Unknown("a matmul of unknown shape");
		}
		List<Long> batch = broadcast(x.subList(0, x.size() - 2), y.subList(0, y.size() - 2));
		if (batch == null) {
			return new Py.Unknown("a matmul of unknown shape");
		}
		List<Long> out = new ArrayList<>(batch);
		out.add(x.get(x.size() - 2));
		out.add(y.get(y.size() - 1));
		return new Py.Tensor(out, a.dtype());
	}

	/** {@code t.<name>(args)} for a tensor, or Unknown. */
	static Object method(Py.Tensor t, String name, List<Object> args, Map<String, Object> kwargs) {
		if (SAME.contains(name)) {
			return t;
		}
		String conv = conversion(name);
		if (conv != null && args.isEmpty()) {
			return new Py.Tensor(t.shape(), conv);
		}
		switch (name) {
		case "to":
		case "type": {
			Object d = kwargs.get("dtype");
			for (Object a : args) {
				if (a instanceof Py.TorchDtype || a instanceof Py.Tensor) {
					d = a;
				}
			}
			if (d instanceof Py.TorchDtype td) {
				return new Py.Tensor(t.shape(), td.name());
			}
			if (d instanceof Py.Tensor other) {
				return new Py.Tensor(t.shape(), other.dtype());
			}
			for (Object a : args) {
				if (Py.unknown(a)) {
					return Py.unknownOf(a, "the argument of .to() is not known");
				}
			}
			return t;
		}
		case "view":
		case "reshape": {
			if (args.size() == 1 && args.get(0) instanceof Py.TorchDtype) {
				return new Py.Unknown("a view as another dtype");
			}
			Object s = shape(args);
			if (!(s instanceof List<?> l)) {
				return s;
			}
			@SuppressWarnings("unchecked")
			List<Long> dims = new ArrayList<>((List<Long>) l);
			long known = 1;
			int infer = -1;
			for (int i = 0; i < dims.size(); i++) {
				if (dims.get(i) == -1) {
					infer = i;
				} else {
					known *= dims.get(i);
				}
			}
			if (infer >= 0) {
				long total = numel(t);
				if (known == 0 || total % known != 0) {
					return new Py.Unknown("a view of unknown shape");
				}
				dims.set(infer, total / known);
			}
			return new Py.Tensor(dims, t.dtype());
		}
		case "t":
			if (t.shape().size() == 2) {
				return new Py.Tensor(List.of(t.shape().get(1), t.shape().get(0)), t.dtype());
			}
			return t;
		case "transpose":
		case "swapaxes": {
			if (args.size() != 2 || !(args.get(0) instanceof Long a) || !(args.get(1) instanceof Long b)) {
				return new Py.Unknown("a transpose of unknown dims");
			}
			List<Long> dims = new ArrayList<>(t.shape());
			int i = (int) (a < 0 ? a + dims.size() : a);
			int j = (int) (b < 0 ? b + dims.size() : b);
			Long x = dims.get(i);
			dims.set(i, dims.get(j));
			dims.set(j, x);
			return new Py.Tensor(dims, t.dtype());
		}
		case "permute": {
			Object p = shape(args);
			if (!(p instanceof List<?> l) || l.size() != t.shape().size()) {
				return new Py.Unknown("a permute of unknown dims");
			}
			List<Long> dims = new ArrayList<>();
			for (Object o : l) {
				long k = (Long) o;
				dims.add(t.shape().get((int) (k < 0 ? k + l.size() : k)));
			}
			return new Py.Tensor(dims, t.dtype());
		}
		case "unsqueeze": {
			if (args.size() != 1 || !(args.get(0) instanceof Long d)) {
				return new Py.Unknown("an unsqueeze of an unknown dim");
			}
			List<Long> dims = new ArrayList<>(t.shape());
			dims.add((int) (d < 0 ? d + dims.size() + 1 : d), 1L);
			return new Py.Tensor(dims, t.dtype());
		}
		case "squeeze": {
			List<Long> dims = new ArrayList<>(t.shape());
			if (args.isEmpty()) {
				dims.removeIf(x -> x == 1);
			} else if (args.get(0) instanceof Long d) {
				int i = (int) (d < 0 ? d + dims.size() : d);
				if (dims.get(i) == 1) {
					dims.remove(i);
				}
			} else {
				return new Py.Unknown("a squeeze of an unknown dim");
			}
			return new Py.Tensor(dims, t.dtype());
		}
		case "flatten":
			return args.isEmpty() ? new Py.Tensor(List.of(numel(t)), t.dtype()) : new Py.Unknown("a partial flatten");
		case "size":
			if (args.isEmpty()) {
				return List.copyOf(new ArrayList<Object>(t.shape()));
			}
			if (args.get(0) instanceof Long d) {
				return t.shape().get((int) (d < 0 ? d + t.shape().size() : d));
			}
			return new Py.Unknown("the size of an unknown dim");
		case "dim":
		case "ndimension":
			return (long) t.shape().size();
		case "numel":
			return numel(t);
		case "expand": {
			Object s = shape(args);
			if (!(s instanceof List<?> l)) {
				return s;
			}
			List<Long> dims = new ArrayList<>();
			int off = l.size() - t.shape().size();
			for (int i = 0; i < l.size(); i++) {
				long d = (Long) l.get(i);
				dims.add(d == -1 ? t.shape().get(i - off) : d);
			}
			return new Py.Tensor(dims, t.dtype());
		}
		default:
			return new Py.Unknown("tensor." + name + "() is not a tensor method the analyzer knows");
		}
	}

	static long numel(Py.Tensor t) {
		long n = 1;
		for (Long d : t.shape()) {
			n *= d;
		}
		return n;
	}

	static final java.util.Set<String> ATTRIBUTES = java.util.Set.of("shape", "dtype", "T", "mT", "ndim", "device",
			"data", "grad");

	/** {@code t.<attr>} (shape, dtype, T, ndim). */
	static Object attribute(Py.Tensor t, String attr) {
		return switch (attr) {
		case "shape" -> List.copyOf(new ArrayList<Object>(t.shape()));
		case "dtype" -> new Py.TorchDtype(t.dtype());
		case "T", "mT" -> t.shape().size() >= 2 ? method(t, "transpose", List.of(-2L, -1L), Map.of()) : t;
		case "ndim" -> (long) t.shape().size();
		case "device", "data", "grad" -> attr.equals("data") ? t : new Py.Opaque("tensor." + attr);
		default -> new Py.Unknown("tensor." + attr);
		};
	}

	/** {@code t[i]}, {@code t[a:b, 0]}, {@code t[None]}, {@code t[..., 1]}. */
	static Object index(Py.Tensor t, List<Object> idx) {
		int ellipsis = -1;
		int consuming = 0;
		for (int i = 0; i < idx.size(); i++) {
			Object o = idx.get(i);
			if (o instanceof Slice || o instanceof Long) {
				consuming++;
			} else if (o == Ellipsis.INSTANCE) {
				ellipsis = i;
			} else if (o != Values.None.INSTANCE) {
				return o instanceof Boolean ? new Py.Unknown("a boolean index")
						: Py.unknownOf(o, "an index that is not an int or a slice");
			}
		}
		List<Long> dims = t.shape();
		if (consuming > dims.size()) {
			return new Py.Unknown("too many indices");
		}
		List<Object> full = new ArrayList<>(idx);
		if (ellipsis >= 0) {
			full.remove(ellipsis);
			for (int k = 0; k < dims.size() - consuming; k++) {
				full.add(ellipsis, new Slice(null, null, null));
			}
		}
		List<Long> out = new ArrayList<>();
		int d = 0;
		for (Object o : full) {
			if (o == Values.None.INSTANCE) {
				out.add(1L);
			} else if (o instanceof Long) {
				d++;
			} else if (o instanceof Slice s) {
				Long n = s.length(dims.get(d++));
				if (n == null) {
					return new Py.Unknown("a slice with unknown bounds");
				}
				out.add(n);
			}
		}
		while (d < dims.size()) {
			out.add(dims.get(d++));
		}
		return new Py.Tensor(out, t.dtype());
	}

	/** {@code ...} in an index. */
	enum Ellipsis {
		INSTANCE
	}

	/** A slice with its bounds evaluated (null when omitted; Unknown values make the length unknown). */
	record Slice(Object lower, Object upper, Object step) {

		/** Python's slice length over an extent, or null when a bound is not known. */
		Long length(long extent) {
			long step1 = 1;
			if (step != null && step != Values.None.INSTANCE) {
				if (!(step instanceof Long st) || st == 0) {
					return null;
				}
				step1 = st;
			}
			Long lo = bound(lower, step1 > 0 ? 0 : extent - 1, extent, step1);
			Long hi = bound(upper, step1 > 0 ? extent : -1, extent, step1);
			if (lo == null || hi == null) {
				return null;
			}
			long n = step1 > 0 ? (hi - lo + step1 - 1) / step1 : (lo - hi - step1 - 1) / -step1;
			return Math.max(0, n);
		}

		private static Long bound(Object v, long dflt, long extent, long step) {
			if (v == null || v == Values.None.INSTANCE) {
				return dflt;
			}
			if (!(v instanceof Long x)) {
				return null;
			}
			if (x < 0) {
				x += extent;
				if (x < 0) {
					x = step > 0 ? 0L : -1L;
				}
			} else if (x >= extent) {
				x = step > 0 ? extent : extent - 1;
			}
			return x;
		}
	}
}
