package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.catalog.Builtins;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Imports;

/**
 * Folds expressions to compile-time values the way pypto's parser evaluates closure variables:
 * literals, names bound to constants, arithmetic with Python's semantics (floor division, modulo
 * with the divisor's sign), tuples and lists, {@code pl.<DTYPE>.get_byte()}, {@code len/min/max/abs},
 * dtypes and enum members. Anything else is {@link Values.Unknown}.
 */
public final class ConstEval {

	private final Map<String, Object> env;
	private final Imports imports;
	/** Folds calls of the module's own helper functions (null: such calls are unknown). */
	private final java.util.function.Function<Expr.Call, Object> calls;

	public ConstEval(Map<String, Object> env, String pl, String pld) {
		this(env, Imports.of(pl, pld));
	}

	/**
	 * An evaluator that asks {@code calls} for the value of a call it does not know itself (a call of a
	 * plain Python helper of the module); {@code calls} returns {@link Values.Unknown} when it cannot.
	 */
	public ConstEval(Map<String, Object> env, String pl, String pld, java.util.function.Function<Expr.Call, Object> calls) {
		this(env, Imports.of(pl, pld), calls);
	}

	/** Resolving pl.FP32, pl.Level.HOST and the like through what the module's imports bind. */
	public ConstEval(Map<String, Object> env, Imports imports) {
		this(env, imports, null);
	}

	public ConstEval(Map<String, Object> env, Imports imports, java.util.function.Function<Expr.Call, Object> calls) {
		this.env = env;
		this.imports = imports;
		this.calls = calls;
	}

	public Object eval(Expr e) {
		try {
			return evalOrThrow(e);
		} catch (ArithmeticException | ClassCastException | IndexOutOfBoundsException ex) {
			return Values.Unknown.INSTANCE;
		}
	}

	/** The value as a long, or null when it is not a known integer. */
	public Long asLong(Expr e) {
		Object v = eval(e);
		if (v instanceof Long l) {
			return l;
		}
		if (v instanceof Boolean b) {
			return b ? 1L : 0L;
		}
		return null;
	}

	private Object evalOrThrow(Expr e) {
		if (e == null) {
			return Values.Unknown.INSTANCE;
		}
		if (e instanceof Expr.Literal l) {
			return l.value() == null ? Values.None.INSTANCE : l.value();
		}
		if (e instanceof Expr.Name n) {
			Object v = env.get(n.id());
			return v != null ? v : mathConstant(imports.qualified(n.id())); // from math import inf
		}
		if (e instanceof Expr.TupleExpr t) {
			return list(t.elts());
		}
		if (e instanceof Expr.ListExpr l) {
			return list(l.elts());
		}
		if (e instanceof Expr.UnaryOp u) {
			Object v = evalOrThrow(u.operand());
			return switch (u.op()) {
			case "-" -> v instanceof Long l ? (Object) Math.negateExact(l)
					: v instanceof Double d ? (Object) (-d) : Values.Unknown.INSTANCE;
			case "+" -> v instanceof Long || v instanceof Double ? v : Values.Unknown.INSTANCE;
			case "~" -> v instanceof Long l ? (Object) (~l) : Values.Unknown.INSTANCE;
			case "not" -> v instanceof Boolean b ? (Object) !b : Values.Unknown.INSTANCE;
			default -> Values.Unknown.INSTANCE;
			};
		}
		if (e instanceof Expr.BinOp b) {
			return binary(b.op(), evalOrThrow(b.left()), evalOrThrow(b.right()));
		}
		if (e instanceof Expr.Attribute a) {
			return attribute(a);
		}
		if (e instanceof Expr.Opaque o && o.kind().startsWith("import:math.")) {
			return mathConstant(o.kind().substring("import:".length())); // from math import inf
		}
		if (e instanceof Expr.Subscript s && s.indices().size() == 1) {
			Object base = evalOrThrow(s.value());
			Object index = evalOrThrow(s.indices().get(0));
			if (base instanceof List<?> list && index instanceof Long i) {
				int k = (int) (i < 0 ? list.size() + i : i);
				return list.get(k);
			}
			return Values.Unknown.INSTANCE;
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		if (e instanceof Expr.Compare c) {
			return compare(c);
		}
		if (e instanceof Expr.BoolOp b) {
			Object acc = null;
			for (Expr v : b.values()) {
				Object x = evalOrThrow(v);
				if (!(x instanceof Boolean || x instanceof Long)) {
					return Values.Unknown.INSTANCE;
				}
				boolean truth = x instanceof Boolean bx ? bx : (Long) x != 0;
				acc = x;
				if (b.op().equals("and") != truth) {
					return x; // short circuit: Python returns the deciding operand
				}
			}
			return acc;
		}
		if (e instanceof Expr.Conditional c) {
			Object t = evalOrThrow(c.test());
			if (t instanceof Boolean bt) {
				return evalOrThrow(bt ? c.body() : c.orelse());
			}
			return Values.Unknown.INSTANCE;
		}
		return Values.Unknown.INSTANCE;
	}

	/** A comparison chain of numbers (or equality of any known values), Python's semantics. */
	private Object compare(Expr.Compare c) {
		Object left = evalOrThrow(c.left());
		for (int i = 0; i < c.ops().size(); i++) {
			Object right = evalOrThrow(c.comparators().get(i));
			if (!Values.known(left) || !Values.known(right)) {
				return Values.Unknown.INSTANCE;
			}
			Boolean r;
			String op = c.ops().get(i);
			if ((left instanceof Long || left instanceof Double) && (right instanceof Long || right instanceof Double)) {
				int cmp = Double.compare(((Number) left).doubleValue(), ((Number) right).doubleValue());
				if (left instanceof Long a && right instanceof Long b) {
					cmp = Long.compare(a, b);
				}
				r = switch (op) {
				case "<" -> cmp < 0;
				case "<=" -> cmp <= 0;
				case ">" -> cmp > 0;
				case ">=" -> cmp >= 0;
				case "==" -> cmp == 0;
				case "!=" -> cmp != 0;
				default -> null;
				};
			} else {
				r = switch (op) {
				case "==", "is" -> left.equals(right);
				case "!=", "is not" -> !left.equals(right);
				default -> null;
				};
			}
			if (r == null) {
				return Values.Unknown.INSTANCE;
			}
			if (!r) {
				return false;
			}
			left = right;
		}
		return true;
	}

	private Object list(List<Expr> elts) {
		List<Object> out = new ArrayList<>();
		for (Expr x : elts) {
			Object v = evalOrThrow(x);
			if (!Values.known(v)) {
				return Values.Unknown.INSTANCE;
			}
			out.add(v);
		}
		return List.copyOf(out);
	}

	private Object attribute(Expr.Attribute a) {
		if (a.value() instanceof Expr.Name n && env.get(n.id()) instanceof Values.Namespace ns) {
			Object v = ns.values().get(a.attr()); // args.platform: the option's default
			return v != null ? v : Values.Unknown.INSTANCE;
		}
		String written = dottedOf(a);
		String dotted = imports.normalize(written);
		if (dotted == null) {
			return mathConstant(imports.qualified(written));
		}
		Builtin b = Builtins.get().lookup(dotted);
		if (b != null && b.constant() != null) {
			return b.constant(); // pl.AUTO: the int pypto defines it as
		}
		if (b != null && b.category().equals("dtype")) {
			return new Values.DType(b.name().substring(b.name().lastIndexOf('.') + 1), b.bytes());
		}
		int dot = dotted.lastIndexOf('.');
		String enumName = dotted.substring(0, dot);
		Builtin en = Builtins.get().lookup(enumName);
		if (en != null && en.memberValues().containsKey(a.attr())) {
			return en.memberValues().get(a.attr()); // a class of int constants: the int, as pypto reads it
		}
		if (en != null && en.category().equals("enum") && en.members().contains(a.attr())) {
			// named after the enum, not the alias it was reached by (pl.Mem is pl.MemorySpace)
			return new Values.EnumValue(en.name().substring(en.name().lastIndexOf('.') + 1), a.attr());
		}
		return Values.Unknown.INSTANCE;
	}

	/** The constants of Python's math module (math.inf...), by their qualified name; Unknown otherwise. */
	private static Object mathConstant(String qualified) {
		if (qualified == null) {
			return Values.Unknown.INSTANCE;
		}
		return switch (qualified) {
		case "math.inf" -> Double.POSITIVE_INFINITY;
		case "math.nan" -> Double.NaN;
		case "math.pi" -> Math.PI;
		case "math.e" -> Math.E;
		case "math.tau" -> 2 * Math.PI;
		default -> Values.Unknown.INSTANCE;
		};
	}

	private static String dottedOf(Expr e) {
		if (e instanceof Expr.Name n) {
			return n.id();
		}
		if (e instanceof Expr.Attribute a) {
			String base = dottedOf(a.value());
			return base == null ? null : base + "." + a.attr();
		}
		return null;
	}

	private Object call(Expr.Call c) {
		String text = c.funcText();
		if (text == null) {
			return Values.Unknown.INSTANCE;
		}
		String normalized = imports.normalize(text);
		if (normalized != null && normalized.endsWith(".get_byte") && c.args().isEmpty()
				&& c.func() instanceof Expr.Attribute a) {
			Object dtype = evalOrThrow(a.value());
			if (dtype instanceof Values.DType d && d.bytes() > 0) {
				return (long) d.bytes();
			}
			return Values.Unknown.INSTANCE;
		}
		if ("pl.dynamic".equals(normalized) && c.args().size() == 1 && c.args().get(0) instanceof Expr.Literal l
				&& l.value() instanceof String s) {
			return new Values.DynVar(s);
		}
		List<Object> args = new ArrayList<>();
		for (Expr a : c.args()) {
			Object v = evalOrThrow(a);
			if (!Values.known(v)) {
				return Values.Unknown.INSTANCE;
			}
			args.add(v);
		}
		switch (text) {
		case "len":
			return args.size() == 1 && args.get(0) instanceof List<?> l ? (Object) (long) l.size()
					: args.size() == 1 && args.get(0) instanceof String s ? (Object) (long) s.length()
							: Values.Unknown.INSTANCE;
		case "abs":
			return args.size() == 1 && args.get(0) instanceof Long l ? (Object) Math.abs(l)
					: args.size() == 1 && args.get(0) instanceof Double d ? (Object) Math.abs(d)
							: Values.Unknown.INSTANCE;
		case "int":
			return args.size() == 1 && args.get(0) instanceof Double d ? (Object) (long) d.doubleValue()
					: args.size() == 1 && args.get(0) instanceof Long ? args.get(0) : Values.Unknown.INSTANCE;
		case "min":
		case "max": {
			List<?> items = args.size() == 1 && args.get(0) instanceof List<?> l ? l : args;
			Long best = null;
			for (Object o : items) {
				if (!(o instanceof Long v)) {
					return Values.Unknown.INSTANCE;
				}
				best = best == null ? v : text.equals("min") ? Math.min(best, v) : Math.max(best, v);
			}
			return best == null ? Values.Unknown.INSTANCE : best;
		}
		case "range":
			return range(args);
		default:
			return calls == null ? Values.Unknown.INSTANCE : calls.apply(c);
		}
	}

	/** The most elements a folded {@code range(...)} may have; a longer one is not known (a budget). */
	static final int MAX_RANGE = 10_000;

	/** {@code range(stop)}, {@code range(start, stop[, step])} of ints as a list; Unknown otherwise. */
	private static Object range(List<Object> args) {
		if (args.isEmpty() || args.size() > 3 || !args.stream().allMatch(a -> a instanceof Long)) {
			return Values.Unknown.INSTANCE;
		}
		long start = args.size() == 1 ? 0 : (Long) args.get(0);
		long stop = (Long) args.get(args.size() == 1 ? 0 : 1);
		long step = args.size() == 3 ? (Long) args.get(2) : 1;
		if (step == 0) {
			return Values.Unknown.INSTANCE; // ValueError in Python
		}
		List<Object> out = new ArrayList<>();
		for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
			if (out.size() == MAX_RANGE) {
				return Values.Unknown.INSTANCE;
			}
			out.add(i);
		}
		return List.copyOf(out);
	}

	/** A binary operator on folded values with Python's semantics; Unknown when it does not apply. */
	public static Object binary(String op, Object l, Object r) {
		if (l instanceof Boolean b) {
			l = b ? 1L : 0L;
		}
		if (r instanceof Boolean b) {
			r = b ? 1L : 0L;
		}
		if (l instanceof Long a && r instanceof Long b) {
			return switch (op) {
			case "+" -> Math.addExact(a, b);
			case "-" -> Math.subtractExact(a, b);
			case "*" -> Math.multiplyExact(a, b);
			case "//" -> Math.floorDiv(a, b);
			case "%" -> Math.floorMod(a, b);
			case "/" -> (double) a / (double) b;
			case "**" -> b >= 0 ? pow(a, b) : Math.pow(a, b);
			case "<<" -> a << b;
			case ">>" -> a >> b;
			case "&" -> a & b;
			case "|" -> a | b;
			case "^" -> a ^ b;
			default -> Values.Unknown.INSTANCE;
			};
		}
		if ((l instanceof Long || l instanceof Double) && (r instanceof Long || r instanceof Double)) {
			double a = ((Number) l).doubleValue();
			double b = ((Number) r).doubleValue();
			return switch (op) {
			case "+" -> a + b;
			case "-" -> a - b;
			case "*" -> a * b;
			case "/" -> a / b;
			case "//" -> Math.floor(a / b);
			case "%" -> a - b * Math.floor(a / b);
			case "**" -> Math.pow(a, b);
			default -> Values.Unknown.INSTANCE;
			};
		}
		if (l instanceof String a && r instanceof String b && op.equals("+")) {
			return a + b;
		}
		if (l instanceof List<?> a && r instanceof List<?> b && op.equals("+")) {
			List<Object> out = new ArrayList<>(a);
			out.addAll(b);
			return List.copyOf(out);
		}
		return Values.Unknown.INSTANCE;
	}

	private static long pow(long a, long b) {
		long result = 1;
		for (long i = 0; i < b; i++) {
			result = Math.multiplyExact(result, a);
		}
		return result;
	}
}
