package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;

/** Expression evaluation for the {@link ScriptInterpreter}, with Python's semantics where it is known. */
final class Exprs {

	private final ScriptInterpreter interp;
	private final Builtins builtins;

	Exprs(ScriptInterpreter interp) {
		this.interp = interp;
		this.builtins = new Builtins(interp, this);
	}

	Object eval(Expr e, Frame f) {
		if (e == null) {
			return Values.None.INSTANCE;
		}
		if (e instanceof Expr.Literal l) {
			return l.value() == null ? Values.None.INSTANCE : l.value();
		}
		if (e instanceof Expr.Name n) {
			Object v = f.lookup(n.id());
			if (v != null) {
				return v;
			}
			v = interp.global(n.id());
			return v != null ? v : new Py.Unknown("'" + n.id() + "' is not known");
		}
		if (e instanceof Expr.Attribute a) {
			return map1(eval(a.value(), f), base -> builtins.attribute(base, a.attr()));
		}
		if (e instanceof Expr.Call c) {
			return call(c, f);
		}
		if (e instanceof Expr.Subscript s) {
			Object base = eval(s.value(), f);
			List<Object> idx = new ArrayList<>();
			for (Expr i : s.indices()) {
				idx.add(index(i, f));
			}
			return subscript(base, idx, s.indices().size() != 1);
		}
		if (e instanceof Expr.BinOp b) {
			return binary(b.op(), eval(b.left(), f), eval(b.right(), f));
		}
		if (e instanceof Expr.UnaryOp u) {
			return unary(u.op(), eval(u.operand(), f));
		}
		if (e instanceof Expr.Compare c) {
			return compare(c, f);
		}
		if (e instanceof Expr.BoolOp b) {
			Object last = null;
			for (Expr x : b.values()) {
				last = eval(x, f);
				Boolean t = truth(last);
				if (t == null) {
					return Py.unknownOf(last, "a condition that is not known");
				}
				if (b.op().equals("and") ? !t : t) {
					return last;
				}
			}
			return last;
		}
		if (e instanceof Expr.Conditional c) {
			Boolean t = truth(eval(c.test(), f));
			if (t != null) {
				return eval(t ? c.body() : c.orelse(), f);
			}
			return Py.choice(java.util.Arrays.asList(eval(c.body(), f), eval(c.orelse(), f)));
		}
		if (e instanceof Expr.TupleExpr t) {
			List<Object> items = elements(t.elts(), f);
			return items == null ? new Py.Unknown("a starred element") : List.copyOf(items);
		}
		if (e instanceof Expr.ListExpr l) {
			List<Object> items = elements(l.elts(), f);
			return items == null ? new Py.Unknown("a starred element") : items;
		}
		if (e instanceof Expr.DictExpr d) {
			Map<Object, Object> m = new LinkedHashMap<>();
			for (int i = 0; i < d.values().size(); i++) {
				Expr k = i < d.keys().size() ? d.keys().get(i) : null;
				Object v = eval(d.values().get(i), f);
				if (k == null) {
					if (!(v instanceof Py.Dict other)) {
						return new Py.Unknown("a dict unpacking");
					}
					m.putAll(other.map());
				} else {
					Object key = eval(k, f);
					if (Py.unknown(key)) {
						return key;
					}
					m.put(key, v);
				}
			}
			return new Py.Dict(m);
		}
		if (e instanceof Expr.Opaque o) {
			if (o.kind().startsWith("import:")) {
				return builtins.imported(o.kind().substring("import:".length()));
			}
			if (o.kind().equals("ellipsis")) {
				return Torch.Ellipsis.INSTANCE;
			}
			if ((o.kind().equals("list comprehension") || o.kind().equals("generator expression"))
					&& o.children().size() == 3) {
				return comprehension(o.children().get(0), o.children().get(1), o.children().get(2), f);
			}
			return new Py.Unknown("a " + o.kind());
		}
		return new Py.Unknown("an expression the analyzer does not evaluate");
	}

	/** {@code [elt for target in iter]} with one generator and no condition. */
	private Object comprehension(Expr elt, Expr target, Expr iter, Frame f) {
		List<Object> items = iterate(eval(iter, f));
		if (items == null || items.size() > ScriptInterpreter.MAX_UNROLL) {
			return new Py.Unknown("a comprehension over values that are not known");
		}
		Frame inner = new Frame(f, f.def);
		List<Object> out = new ArrayList<>();
		for (Object item : items) {
			interp.assign(target, item, inner);
			out.add(eval(elt, inner));
		}
		return out;
	}

	private Object index(Expr i, Frame f) {
		if (i instanceof Expr.SliceExpr s) {
			return new Torch.Slice(s.lower() == null ? null : eval(s.lower(), f), s.upper() == null ? null : eval(s.upper(), f),
					s.step() == null ? null : eval(s.step(), f));
		}
		return eval(i, f);
	}

	/** Elements of a tuple or list display, starred ones spread; null when one cannot be. */
	private List<Object> elements(List<Expr> elts, Frame f) {
		List<Object> out = new ArrayList<>();
		for (Expr x : elts) {
			if (x instanceof Expr.Starred s) {
				List<Object> items = iterate(eval(s.value(), f));
				if (items == null) {
					return null;
				}
				out.addAll(items);
			} else {
				out.add(eval(x, f));
			}
		}
		return out;
	}

	private Object call(Expr.Call c, Frame f) {
		Object callee = eval(c.func(), f);
		List<Object> args = elements(c.args(), f);
		Map<String, Object> kwargs = new LinkedHashMap<>();
		for (Expr.Keyword k : c.keywords()) {
			Object v = eval(k.value(), f);
			if (k.name() != null) {
				kwargs.put(k.name(), v);
			} else if (v instanceof Py.Dict d) {
				for (Map.Entry<Object, Object> e : d.map().entrySet()) {
					kwargs.put(String.valueOf(e.getKey()), e.getValue());
				}
			} else {
				args = null;
			}
		}
		if (args == null) {
			return new Py.Unknown("a call with unpacked arguments that are not known");
		}
		final List<Object> a = args;
		return map1(callee, fn -> builtins.call(fn, a, kwargs, c));
	}

	/** Applies op to each option of a choice (or to the value). */
	Object map1(Object v, java.util.function.Function<Object, Object> op) {
		if (v instanceof Py.Choice ch) {
			List<Object> out = new ArrayList<>();
			for (Object o : ch.options()) {
				out.add(op.apply(o));
			}
			return Py.choice(out);
		}
		if (Py.unknown(v)) {
			return v;
		}
		return op.apply(v);
	}

	private Object map2(Object l, Object r, java.util.function.BiFunction<Object, Object, Object> op) {
		if (Py.unknown(l)) {
			return l;
		}
		if (Py.unknown(r)) {
			return r;
		}
		if (l instanceof Py.Choice || r instanceof Py.Choice) {
			List<Object> out = new ArrayList<>();
			for (Object a : l instanceof Py.Choice c ? c.options() : List.of(l)) {
				for (Object b : r instanceof Py.Choice c ? c.options() : List.of(r)) {
					out.add(op.apply(a, b));
				}
			}
			return Py.choice(out);
		}
		return op.apply(l, r);
	}

	Object subscript(Object base, List<Object> idx, boolean tuple) {
		if (idx.size() == 1) {
			return map2(base, idx.get(0), (b, i) -> subscript1(b, List.of(i), tuple));
		}
		for (Object i : idx) {
			if (Py.unknown(i) || i instanceof Py.Choice) {
				return Py.unknownOf(i, "an index that is not known");
			}
		}
		return map1(base, b -> subscript1(b, idx, tuple));
	}

	private Object subscript1(Object base, List<Object> idx, boolean tuple) {
		if (base instanceof Py.Tensor t) {
			return Torch.index(t, idx);
		}
		if (tuple) {
			return base instanceof Py.Dict d ? d.map().getOrDefault(List.copyOf(idx), new Py.Unknown("a missing key"))
					: new Py.Unknown("a tuple index");
		}
		Object i = idx.get(0);
		if (base instanceof Py.Dict d) {
			Object v = d.map().get(i);
			return v != null ? v : new Py.Unknown("the key " + Py.show(i) + " is not in the dict");
		}
		if (base instanceof List<?> l || base instanceof String) {
			List<?> items = base instanceof List<?> ll ? ll : chars((String) base);
			if (i instanceof Long k) {
				long at = k < 0 ? k + items.size() : k;
				if (at < 0 || at >= items.size()) {
					return new Py.Unknown("an index out of range");
				}
				return items.get((int) at);
			}
			if (i instanceof Torch.Slice s) {
				if (s.step() != null && s.step() != Values.None.INSTANCE && !Long.valueOf(1).equals(s.step())) {
					return new Py.Unknown("a slice with a step");
				}
				Long n = s.length(items.size());
				Long lo = new Torch.Slice(s.lower(), null, null).length(items.size());
				if (n == null || lo == null) {
					return new Py.Unknown("a slice with unknown bounds");
				}
				int from = (int) (items.size() - lo);
				List<Object> out = new ArrayList<>(items.subList(from, (int) (from + n)));
				return base instanceof String ? String.join("", out.stream().map(String::valueOf).toList())
						: base instanceof ArrayList ? out : List.copyOf(out);
			}
		}
		if (base instanceof Py.Namespace || base instanceof Py.Opaque || base instanceof Py.Module) {
			return new Py.Unknown("a subscript of " + Py.show(base));
		}
		return new Py.Unknown("a subscript the analyzer does not evaluate");
	}

	private static List<Object> chars(String s) {
		List<Object> out = new ArrayList<>();
		for (char c : s.toCharArray()) {
			out.add(String.valueOf(c));
		}
		return out;
	}

	Object binary(String op, Object l, Object r) {
		return map2(l, r, (a, b) -> binary1(op, a, b));
	}

	private Object binary1(String op, Object a, Object b) {
		if (a instanceof Py.Tensor || b instanceof Py.Tensor) {
			return tensorOp(op, a, b);
		}
		if (op.equals("*") && (a instanceof List<?> || b instanceof List<?>)) {
			List<?> l = a instanceof List<?> x ? x : (List<?>) b;
			Object n = a instanceof List<?> ? b : a;
			if (n instanceof Long k && k * l.size() <= 4096) {
				List<Object> out = new ArrayList<>();
				for (long i = 0; i < k; i++) {
					out.addAll(l);
				}
				return a instanceof ArrayList || b instanceof ArrayList ? out : List.copyOf(out);
			}
		}
		if (op.equals("%") && a instanceof String) {
			return new Py.Unknown("a formatted string");
		}
		try {
			Object v = ConstEval.binary(op, a, b);
			return v == Values.Unknown.INSTANCE ? new Py.Unknown("an operation the analyzer does not evaluate") : v;
		} catch (ArithmeticException e) {
			return new Py.Unknown("an arithmetic error");
		}
	}

	private Object tensorOp(String op, Object a, Object b) {
		if (op.equals("@")) {
			return a instanceof Py.Tensor x && b instanceof Py.Tensor y ? Torch.matmul(x, y)
					: new Py.Unknown("a matmul with a non-tensor");
		}
		List<Long> sa = a instanceof Py.Tensor x ? x.shape() : List.of();
		List<Long> sb = b instanceof Py.Tensor y ? y.shape() : List.of();
		if (!(a instanceof Py.Tensor) && !(a instanceof Long || a instanceof Double || a instanceof Boolean)
				|| !(b instanceof Py.Tensor) && !(b instanceof Long || b instanceof Double || b instanceof Boolean)) {
			return new Py.Unknown("a tensor operation with a non-number");
		}
		List<Long> shape = Torch.broadcast(sa, sb);
		if (shape == null) {
			return new Py.Unknown("tensors that do not broadcast");
		}
		String dtype = a instanceof Py.Tensor x ? x.dtype() : ((Py.Tensor) b).dtype();
		return new Py.Tensor(shape, dtype);
	}

	Object unary(String op, Object v) {
		return map1(v, x -> {
			if (x instanceof Py.Tensor) {
				return op.equals("not") ? new Py.Unknown("the truth of a tensor") : x;
			}
			switch (op) {
			case "not": {
				Boolean t = truth(x);
				return t == null ? new Py.Unknown("a condition that is not known") : (Object) !t;
			}
			case "-":
				return x instanceof Long l ? (Object) (-l) : x instanceof Double d ? (Object) (-d)
						: x instanceof Boolean b ? (Object) (b ? -1L : 0L) : new Py.Unknown("a negation");
			case "+":
				return x instanceof Long || x instanceof Double ? x : new Py.Unknown("a unary plus");
			case "~":
				return x instanceof Long l ? (Object) (~l) : new Py.Unknown("an inversion");
			default:
				return new Py.Unknown("an operator");
			}
		});
	}

	private Object compare(Expr.Compare c, Frame f) {
		Object left = eval(c.left(), f);
		Object result = Boolean.TRUE;
		for (int i = 0; i < c.ops().size(); i++) {
			Object right = eval(c.comparators().get(i), f);
			String op = c.ops().get(i);
			Object r = map2(left, right, (a, b) -> compare1(op, a, b));
			if (!(r instanceof Boolean rb)) {
				return r;
			}
			if (!rb) {
				return false;
			}
			left = right;
		}
		return result;
	}

	private Object compare1(String op, Object a, Object b) {
		switch (op) {
		case "==":
			return equal(a, b);
		case "!=":
			return !equal(a, b);
		case "is":
			return a == b || a instanceof Values.None && b instanceof Values.None || a.equals(b) && a instanceof Boolean;
		case "is not":
			return !(a == b || a instanceof Values.None && b instanceof Values.None || a.equals(b) && a instanceof Boolean);
		case "in":
		case "not in": {
			Boolean in = contains(b, a);
			if (in == null) {
				return new Py.Unknown("a membership test the analyzer does not evaluate");
			}
			return op.equals("in") ? in : !in;
		}
		default:
			break;
		}
		if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
			double x = ((Number) a).doubleValue();
			double y = ((Number) b).doubleValue();
			if (a instanceof Long la && b instanceof Long lb) {
				int cmp = Long.compare(la, lb);
				return switch (op) {
				case "<" -> cmp < 0;
				case "<=" -> cmp <= 0;
				case ">" -> cmp > 0;
				case ">=" -> cmp >= 0;
				default -> new Py.Unknown("a comparison");
				};
			}
			return switch (op) {
			case "<" -> x < y;
			case "<=" -> x <= y;
			case ">" -> x > y;
			case ">=" -> x >= y;
			default -> new Py.Unknown("a comparison");
			};
		}
		if (a instanceof String x && b instanceof String y) {
			int cmp = x.compareTo(y);
			return switch (op) {
			case "<" -> cmp < 0;
			case "<=" -> cmp <= 0;
			case ">" -> cmp > 0;
			case ">=" -> cmp >= 0;
			default -> new Py.Unknown("a comparison");
			};
		}
		return new Py.Unknown("a comparison the analyzer does not evaluate");
	}

	static boolean equal(Object a, Object b) {
		if ((a instanceof Long || a instanceof Double || a instanceof Boolean)
				&& (b instanceof Long || b instanceof Double || b instanceof Boolean)) {
			return num(a) == num(b);
		}
		if (a instanceof List<?> x && b instanceof List<?> y) {
			if (x.size() != y.size()) {
				return false;
			}
			for (int i = 0; i < x.size(); i++) {
				if (!equal(x.get(i), y.get(i))) {
					return false;
				}
			}
			return true;
		}
		return a.equals(b);
	}

	private static double num(Object o) {
		return o instanceof Boolean b ? (b ? 1 : 0) : ((Number) o).doubleValue();
	}

	private Boolean contains(Object container, Object item) {
		if (container instanceof Py.Dict d) {
			return d.map().containsKey(item);
		}
		if (container instanceof String s && item instanceof String x) {
			return s.contains(x);
		}
		List<Object> items = iterate(container);
		if (items == null) {
			return null;
		}
		for (Object o : items) {
			if (Py.unknown(o)) {
				return null;
			}
			if (equal(o, item)) {
				return true;
			}
		}
		return false;
	}

	/** Python truthiness; null when not known (an unknown value, a choice of both, a tensor). */
	Boolean truth(Object v) {
		if (v instanceof Py.Choice c) {
			Boolean first = null;
			for (int i = 0; i < c.options().size(); i++) {
				Boolean t = truth(c.options().get(i));
				if (t == null || i > 0 && !t.equals(first)) {
					return null;
				}
				first = t;
			}
			return first;
		}
		if (Py.unknown(v) || v instanceof Py.Tensor) {
			return null;
		}
		Boolean constant = Values.truth(v);
		if (constant != null) {
			return constant;
		}
		if (v instanceof Py.Dict d) {
			return !d.map().isEmpty();
		}
		if (v instanceof Py.Range r) {
			List<Object> items = r.items(1);
			return items == null || !items.isEmpty();
		}
		if (v instanceof Py.Opaque) {
			return null;
		}
		return true;
	}

	/** The items a for loop over a value sees, or null when they are not known. */
	List<Object> iterate(Object v) {
		if (v instanceof List<?> l) {
			return new ArrayList<>(l);
		}
		if (v instanceof Py.Range r) {
			return r.items(ScriptInterpreter.MAX_UNROLL);
		}
		if (v instanceof Py.Dict d) {
			return new ArrayList<>(d.map().keySet());
		}
		if (v instanceof String s) {
			return chars(s);
		}
		if (v instanceof Py.Tensor t && !t.shape().isEmpty() && t.shape().get(0) <= ScriptInterpreter.MAX_UNROLL) {
			List<Object> out = new ArrayList<>();
			for (long i = 0; i < t.shape().get(0); i++) {
				out.add(new Py.Tensor(t.shape().subList(1, t.shape().size()), t.dtype()));
			}
			return out;
		}
		return null;
	}
}
