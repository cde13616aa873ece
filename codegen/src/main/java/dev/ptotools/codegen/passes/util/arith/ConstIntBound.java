package dev.ptotools.codegen.passes.util.arith;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.types.DType;

/**
 * Interval bounds of integer expressions, a port of pypto's ConstIntBoundAnalyzer
 * (src/ir/arith/const_int_bound.cpp): bound variables, INDEX variables non-negative by default, interval
 * arithmetic with infinities, and bounds tightened by the comparisons of an enclosing branch condition.
 */
public final class ConstIntBound {

	public static final long POS_INF = Long.MAX_VALUE;
	public static final long NEG_INF = -Long.MAX_VALUE;

	/** A closed interval [min, max]; infinities are POS_INF / NEG_INF. */
	public record Bound(long min, long max) {
		public boolean isConst() {
			return min == max;
		}

		public boolean isConst(long v) {
			return min == v && max == v;
		}

		public boolean nonNegative() {
			return min >= 0;
		}

		public boolean everything() {
			return min == NEG_INF && max == POS_INF;
		}
	}

	static final Bound EVERYTHING = new Bound(NEG_INF, POS_INF);

	private final Map<Var, Bound> vars = new HashMap<>();

	public void bind(Var v, Bound b) {
		vars.put(v, b);
	}

	public void unbind(Var v) {
		vars.remove(v);
	}

	static long add(long a, long b) {
		if (a == POS_INF || b == POS_INF) {
			return POS_INF;
		}
		if (a == NEG_INF || b == NEG_INF) {
			return NEG_INF;
		}
		try {
			return Math.addExact(a, b);
		} catch (ArithmeticException e) {
			return b > 0 ? POS_INF : NEG_INF;
		}
	}

	static long mul(long a, long b) {
		if (a == 0 || b == 0) {
			return 0;
		}
		boolean pos = (a > 0) == (b > 0);
		if (a == POS_INF || a == NEG_INF || b == POS_INF || b == NEG_INF) {
			return pos ? POS_INF : NEG_INF;
		}
		try {
			return Math.multiplyExact(a, b);
		} catch (ArithmeticException e) {
			return pos ? POS_INF : NEG_INF;
		}
	}

	static long neg(long a) {
		if (a == POS_INF) {
			return NEG_INF;
		}
		if (a == NEG_INF) {
			return POS_INF;
		}
		if (a == Long.MIN_VALUE) {
			return POS_INF;
		}
		return -a;
	}

	private static Bound boundMul(Bound a, Bound b) {
		long v0 = mul(a.min, b.min);
		long v1 = mul(a.min, b.max);
		long v2 = mul(a.max, b.min);
		long v3 = mul(a.max, b.max);
		return new Bound(Math.min(Math.min(v0, v1), Math.min(v2, v3)), Math.max(Math.max(v0, v1), Math.max(v2, v3)));
	}

	private static Bound floorDivPositive(Bound a, Bound b) {
		long min = a.min >= 0 ? Math.floorDiv(a.min, b.max) : Math.floorDiv(a.min, b.min);
		long max = a.max >= 0 ? Math.floorDiv(a.max, b.min) : Math.floorDiv(a.max, b.max);
		return new Bound(min, max);
	}

	private static Bound boundFloorDiv(Bound a, Bound b) {
		if (b.min > 0) {
			return floorDivPositive(a, b);
		}
		if (b.max < 0) {
			return floorDivPositive(new Bound(neg(a.max), neg(a.min)), new Bound(neg(b.max), neg(b.min)));
		}
		return EVERYTHING;
	}

	private static Bound boundFloorMod(Bound a, Bound b) {
		if (b.min > 0) {
			if (a.nonNegative()) {
				return new Bound(0, Math.min(a.max, b.max - 1));
			}
			return new Bound(0, b.max - 1);
		}
		return EVERYTHING;
	}

	static Bound defaultBound(Expr e) {
		if (e.type() instanceof Type.Scalar s && s.dtype() == DType.INDEX) {
			return new Bound(0, POS_INF);
		}
		return EVERYTHING;
	}

	/** The bound of an expression under the current bindings. */
	public Bound of(Expr e) {
		if (e instanceof Expr.ConstInt c) {
			return new Bound(c.value(), c.value());
		}
		if (e instanceof Expr.ConstFloat f) {
			double v = f.value();
			if (Double.isNaN(v) || Double.isInfinite(v)) {
				return EVERYTHING;
			}
			double lo = Math.floor(v);
			double hi = Math.ceil(v);
			return new Bound(lo < (double) NEG_INF ? NEG_INF : (long) lo, hi > (double) POS_INF ? POS_INF : (long) hi);
		}
		if (e instanceof Expr.ConstBool b) {
			return new Bound(b.value() ? 1 : 0, b.value() ? 1 : 0);
		}
		if (e instanceof Var v) {
			Bound b = vars.get(v);
			return b != null ? b : defaultBound(v);
		}
		if (e instanceof Expr.Binary b) {
			return binary(b);
		}
		if (e instanceof Expr.Unary u) {
			return unary(u);
		}
		return EVERYTHING; // calls, tuples
	}

	private Bound binary(Expr.Binary e) {
		switch (e.op()) {
		case Eq, Ne, Lt, Le, Gt, Ge, And, Or, Xor:
			return new Bound(0, 1);
		case FloatDiv, BitXor:
			return EVERYTHING;
		default:
			break;
		}
		Bound a = of(e.left());
		Bound b = of(e.right());
		switch (e.op()) {
		case Add:
			return new Bound(add(a.min, b.min), add(a.max, b.max));
		case Sub:
			return new Bound(add(a.min, neg(b.max)), add(a.max, neg(b.min)));
		case Mul:
			return boundMul(a, b);
		case FloorDiv:
			return boundFloorDiv(a, b);
		case FloorMod:
			return boundFloorMod(a, b);
		case Min:
			return new Bound(Math.min(a.min, b.min), Math.min(a.max, b.max));
		case Max:
			return new Bound(Math.max(a.min, b.min), Math.max(a.max, b.max));
		case Pow:
			if (!b.isConst() || b.min < 0) {
				return EVERYTHING;
			}
			if (b.min == 0) {
				return new Bound(1, 1);
			}
			if (b.min == 1) {
				return a;
			}
			if (a.nonNegative()) {
				return new Bound(pow(a.min, b.min), pow(a.max, b.min));
			}
			return EVERYTHING;
		case BitAnd:
			return a.nonNegative() && b.nonNegative() ? new Bound(0, Math.min(a.max, b.max)) : EVERYTHING;
		case BitOr:
			return a.nonNegative() && b.nonNegative() ? new Bound(Math.max(a.min, b.min), add(a.max, b.max)) : EVERYTHING;
		case BitShiftLeft:
			if (a.nonNegative() && b.nonNegative() && b.max < 63) {
				return new Bound(mul(a.min, 1L << b.min), mul(a.max, 1L << b.max));
			}
			return EVERYTHING;
		case BitShiftRight:
			if (a.nonNegative() && b.nonNegative() && b.max < 63) {
				return new Bound(a.min >> b.max, a.max >> b.min);
			}
			return EVERYTHING;
		default:
			return EVERYTHING;
		}
	}

	private static long pow(long base, long exp) {
		if (exp == 0) {
			return 1;
		}
		if (base == 0) {
			return 0;
		}
		if (base == 1) {
			return 1;
		}
		long result = 1;
		long b = base;
		long e = exp;
		while (e > 0) {
			if ((e & 1) != 0) {
				result = mul(result, b);
				if (result == POS_INF || result == NEG_INF) {
					return result;
				}
			}
			e >>= 1;
			if (e > 0) {
				b = mul(b, b);
				if (b == POS_INF || b == NEG_INF) {
					return (result > 0) == (base > 0 || (exp & 1) == 0) ? POS_INF : NEG_INF;
				}
			}
		}
		return result;
	}

	private Bound unary(Expr.Unary e) {
		Bound a = of(e.operand());
		switch (e.op()) {
		case Neg:
			return new Bound(neg(a.max), neg(a.min));
		case Abs:
			if (a.min >= 0) {
				return a;
			}
			if (a.max <= 0) {
				return new Bound(neg(a.max), neg(a.min));
			}
			return new Bound(0, Math.max(neg(a.min), a.max));
		case Not:
			return new Bound(0, 1);
		case BitNot:
			return EVERYTHING;
		case Cast:
			DType d = e.dtype();
			if (!d.isInteger()) {
				return EVERYTHING;
			}
			int bits = d.bits();
			if (bits == 0 || bits >= 64) {
				return a;
			}
			long lo = d.name().startsWith("UINT") ? 0 : -(1L << (bits - 1));
			long hi = d.name().startsWith("UINT") ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
			return new Bound(Math.max(a.min, lo), Math.min(a.max, hi));
		default:
			return EVERYTHING;
		}
	}

	/**
	 * Tightens the bounds of Vars compared with constants in a (normalised) branch condition; returns the
	 * action that restores them.
	 */
	public Runnable enterConstraint(Expr constraint) {
		List<Map.Entry<Var, Bound>> recovery = new ArrayList<>();
		parseConstraint(constraint, recovery);
		return () -> {
			for (int i = recovery.size() - 1; i >= 0; i--) {
				Map.Entry<Var, Bound> r = recovery.get(i);
				if (r.getValue().everything()) {
					vars.remove(r.getKey());
				} else {
					vars.put(r.getKey(), r.getValue());
				}
			}
		};
	}

	private void tighten(Var v, Bound nb, List<Map.Entry<Var, Bound>> recovery) {
		Bound old = vars.containsKey(v) ? vars.get(v) : defaultBound(v);
		recovery.add(Map.entry(v, old));
		vars.put(v, new Bound(Math.max(old.min, nb.min), Math.min(old.max, nb.max)));
	}

	/** pypto checks the exact Var kind: an IterArg operand does not tighten. */
	private static Var plainVar(Expr e) {
		return e instanceof Var v && !(v instanceof dev.ptotools.codegen.ir.IterArg) ? v : null;
	}

	private void parseConstraint(Expr e, List<Map.Entry<Var, Bound>> recovery) {
		if (!(e instanceof Expr.Binary b)) {
			return;
		}
		Var l = plainVar(b.left());
		Var r = plainVar(b.right());
		switch (b.op()) {
		case Ge:
			if (l != null) {
				Bound rb = of(b.right());
				if (rb.isConst()) {
					tighten(l, new Bound(rb.min, POS_INF), recovery);
				}
			} else if (r != null) {
				Bound lb = of(b.left());
				if (lb.isConst()) {
					tighten(r, new Bound(NEG_INF, lb.max), recovery);
				}
			}
			break;
		case Gt:
			if (l != null) {
				Bound rb = of(b.right());
				if (rb.isConst()) {
					tighten(l, new Bound(add(rb.min, 1), POS_INF), recovery);
				}
			} else if (r != null) {
				Bound lb = of(b.left());
				if (lb.isConst()) {
					tighten(r, new Bound(NEG_INF, add(lb.max, -1)), recovery);
				}
			}
			break;
		case Le:
			if (l != null) {
				Bound rb = of(b.right());
				if (rb.isConst()) {
					tighten(l, new Bound(NEG_INF, rb.max), recovery);
				}
			} else if (r != null) {
				Bound lb = of(b.left());
				if (lb.isConst()) {
					tighten(r, new Bound(lb.min, POS_INF), recovery);
				}
			}
			break;
		case Lt:
			if (l != null) {
				Bound rb = of(b.right());
				if (rb.isConst()) {
					tighten(l, new Bound(NEG_INF, add(rb.max, -1)), recovery);
				}
			} else if (r != null) {
				Bound lb = of(b.left());
				if (lb.isConst()) {
					tighten(r, new Bound(add(lb.min, 1), POS_INF), recovery);
				}
			}
			break;
		case Eq:
			if (l != null) {
				Bound rb = of(b.right());
				if (rb.isConst()) {
					tighten(l, rb, recovery);
				}
			} else if (r != null) {
				Bound lb = of(b.left());
				if (lb.isConst()) {
					tighten(r, lb, recovery);
				}
			}
			break;
		case And:
			parseConstraint(b.left(), recovery);
			parseConstraint(b.right(), recovery);
			break;
		default:
			break;
		}
	}
}
