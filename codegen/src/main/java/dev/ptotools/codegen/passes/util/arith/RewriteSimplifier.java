package dev.ptotools.codegen.passes.util.arith;

import static dev.ptotools.codegen.passes.util.arith.Pat.C1;
import static dev.ptotools.codegen.passes.util.arith.Pat.C2;
import static dev.ptotools.codegen.passes.util.arith.Pat.C3;
import static dev.ptotools.codegen.passes.util.arith.Pat.X;
import static dev.ptotools.codegen.passes.util.arith.Pat.Y;
import static dev.ptotools.codegen.passes.util.arith.Pat.Z;
import static dev.ptotools.codegen.passes.util.arith.Pat.add;
import static dev.ptotools.codegen.passes.util.arith.Pat.and;
import static dev.ptotools.codegen.passes.util.arith.Pat.bool;
import static dev.ptotools.codegen.passes.util.arith.Pat.eq;
import static dev.ptotools.codegen.passes.util.arith.Pat.fdiv;
import static dev.ptotools.codegen.passes.util.arith.Pat.fmod;
import static dev.ptotools.codegen.passes.util.arith.Pat.ge;
import static dev.ptotools.codegen.passes.util.arith.Pat.gt;
import static dev.ptotools.codegen.passes.util.arith.Pat.i;
import static dev.ptotools.codegen.passes.util.arith.Pat.le;
import static dev.ptotools.codegen.passes.util.arith.Pat.leftConst;
import static dev.ptotools.codegen.passes.util.arith.Pat.lt;
import static dev.ptotools.codegen.passes.util.arith.Pat.max;
import static dev.ptotools.codegen.passes.util.arith.Pat.min;
import static dev.ptotools.codegen.passes.util.arith.Pat.mul;
import static dev.ptotools.codegen.passes.util.arith.Pat.ne;
import static dev.ptotools.codegen.passes.util.arith.Pat.neg;
import static dev.ptotools.codegen.passes.util.arith.Pat.not;
import static dev.ptotools.codegen.passes.util.arith.Pat.or;
import static dev.ptotools.codegen.passes.util.arith.Pat.sub;
import static dev.ptotools.codegen.passes.util.arith.Pat.zero;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Expr.UnaryOp;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's RewriteSimplifier (src/ir/arith/rewrite_simplify.cpp): post-order constant folding, then the
 * first matching rule of the node's kind, whose result is rewritten again (depth at most 5). Float-typed
 * expressions are left alone; {@code a > b} becomes {@code b < a} and {@code a >= b} becomes {@code b <= a}
 * always. The rules are pypto's, in pypto's order, since the first match decides the printed form.
 */
public final class RewriteSimplifier {

	private static final int MAX_DEPTH = 5;

	private final ConstIntBound bounds;
	private final Map<Var, Expr> vars = new HashMap<>();
	private int depth;

	RewriteSimplifier(ConstIntBound bounds) {
		this.bounds = bounds;
	}

	/** Substitutes var by value from now on (null forgets it). */
	void update(Var var, Expr value) {
		if (value == null) {
			vars.remove(var);
		} else {
			vars.put(var, value);
		}
	}

	/** One rewrite pass over e. */
	public Expr apply(Expr e) {
		if (Arith.isFloat(e)) {
			return e;
		}
		if (e instanceof Var v) {
			Expr bound = vars.get(v);
			return bound != null ? bound : e;
		}
		if (e instanceof Expr.Binary b) {
			return binary(b);
		}
		if (e instanceof Expr.Unary u) {
			return unary(u);
		}
		return e; // constants, calls, tuples
	}

	private Expr recursive(Expr e) {
		if (depth >= MAX_DEPTH) {
			return e;
		}
		depth++;
		try {
			return apply(e);
		} finally {
			depth--;
		}
	}

	// ── comparisons against constants through bounds (TryCompare) ──────────

	boolean proveGE(Expr e, long v) {
		ConstIntBound.Bound b = bounds.of(e);
		return b.min() >= v;
	}

	boolean proveLE(Expr e, long v) {
		ConstIntBound.Bound b = bounds.of(e);
		return b.max() <= v;
	}

	boolean proveLess(Expr e, long v) {
		ConstIntBound.Bound b = bounds.of(e);
		// pypto's TryCompare answers kLT only when no stronger-looking answer (EQ, GT, GE) came first.
		if (b.min() == v && b.max() == v) {
			return false;
		}
		if (b.min() > v || b.min() == v) {
			return false;
		}
		return b.max() < v;
	}

	private boolean nonZero(Expr e) {
		return proveGE(e, 1) || proveLE(e, -1);
	}

	// ── rules ──────────────────────────────────────────────────────────────

	/** A rule: when its pattern matches, the rewritten expression, else null. */
	interface Rule {
		Expr apply(Pat.Binding b, RewriteSimplifier s);
	}

	interface Cond {
		boolean test(Pat.Binding b, RewriteSimplifier s);
	}

	private static Rule r(Pat src, Pat res) {
		return r(src, res, null);
	}

	private static Rule r(Pat src, Pat res, Cond cond) {
		return (b, s) -> {
			if (!src.matches(b.ret, b)) {
				return null;
			}
			if (cond != null && !cond.test(b, s)) {
				return null;
			}
			return s.recursive(res.eval(b));
		};
	}

	private static long v(Pat.Slot c, Pat.Binding b) {
		return c.value(b);
	}

	private Expr run(List<Rule> rules, Expr ret) {
		Pat.Binding b = new Pat.Binding();
		b.ret = ret;
		for (Rule rule : rules) {
			Expr out = rule.apply(b, this);
			if (out != null) {
				return out;
			}
		}
		return ret;
	}

	private Expr binary(Expr.Binary op) {
		if (op.op() == BinaryOp.Gt) {
			return apply(Arith.make(BinaryOp.Lt, op.right(), op.left(), op.span()));
		}
		if (op.op() == BinaryOp.Ge) {
			return apply(Arith.make(BinaryOp.Le, op.right(), op.left(), op.span()));
		}
		Expr a = apply(op.left());
		Expr b = apply(op.right());
		Expr folded = Arith.foldBinary(op.op(), a, b);
		if (folded != null) {
			return folded;
		}
		Expr ret;
		if (a == op.left() && b == op.right()) {
			ret = op;
		} else if (op.op() == BinaryOp.Xor) {
			ret = new Expr.Binary(BinaryOp.Xor, a, b, op.dtype(), op.span());
		} else {
			ret = Arith.make(op.op(), a, b, op.span());
		}
		List<Rule> rules = switch (op.op()) {
		case Add -> ADD;
		case Sub -> SUB;
		case Mul -> MUL;
		case FloorDiv -> FLOOR_DIV;
		case FloorMod -> FLOOR_MOD;
		case Min -> MIN;
		case Max -> MAX;
		case Eq -> Arith.isFloat(a) ? List.of() : EQ;
		case Ne -> Arith.isFloat(a) ? List.of() : NE;
		case Lt -> Arith.isFloat(a) ? List.of() : LT;
		case Le -> Arith.isFloat(a) ? List.of() : LE;
		case And -> AND;
		case Or -> OR;
		default -> List.of();
		};
		return run(rules, ret);
	}

	private Expr unary(Expr.Unary op) {
		Expr a = apply(op.operand());
		if (op.op() == UnaryOp.Cast) {
			return a == op.operand() ? op : new Expr.Unary(UnaryOp.Cast, a, op.dtype(), op.span());
		}
		Expr folded = Arith.foldUnary(op.op(), a);
		if (folded != null) {
			return folded;
		}
		Expr ret = a == op.operand() ? op : Arith.makeUnary(op.op(), a, op.span());
		return switch (op.op()) {
		case Not -> run(NOT, ret);
		case Neg -> run(NEG, ret);
		default -> ret;
		};
	}

	private static final List<Rule> ADD = List.of(
			r(add(add(X, C1), C2), add(X, add(C1, C2))),
			r(add(add(C1, X), C2), add(X, add(C1, C2))),
			r(add(sub(X, Y), Y), X),
			r(add(X, sub(Y, X)), Y),
			r(add(sub(X, Y), sub(Y, Z)), sub(X, Z)),
			r(add(sub(X, Y), sub(Z, X)), sub(Z, Y)),
			r(add(X, X), mul(X, i(2))),
			r(add(mul(X, Y), X), mul(add(Y, i(1)), X)),
			r(add(X, mul(X, Y)), mul(add(Y, i(1)), X)),
			r(add(mul(X, Y), mul(X, Z)), mul(add(Y, Z), X)),
			r(add(mul(Y, X), mul(X, Z)), mul(add(Y, Z), X)),
			r(add(mul(X, Y), mul(Z, X)), mul(add(Y, Z), X)),
			r(add(mul(Y, X), mul(Z, X)), mul(add(Y, Z), X)),
			r(add(mul(fdiv(X, Y), Y), fmod(X, Y)), X),
			r(add(fmod(X, Y), mul(fdiv(X, Y), Y)), X),
			r(add(mul(Y, fdiv(X, Y)), fmod(X, Y)), X),
			r(add(fmod(X, Y), mul(Y, fdiv(X, Y))), X),
			r(add(min(X, sub(Y, Z)), Z), min(add(X, Z), Y)),
			r(add(min(sub(X, Z), Y), Z), min(X, add(Y, Z))),
			r(add(Z, min(X, sub(Y, Z))), min(add(X, Z), Y)),
			r(add(max(X, sub(Y, Z)), Z), max(add(X, Z), Y)),
			r(add(max(sub(X, Z), Y), Z), max(X, add(Y, Z))),
			r(add(Z, max(X, sub(Y, Z))), max(add(X, Z), Y)),
			r(add(max(X, Y), min(X, Y)), add(X, Y)),
			r(add(min(X, Y), max(X, Y)), add(X, Y)),
			r(add(max(X, Y), min(Y, X)), add(X, Y)),
			r(add(min(X, Y), max(Y, X)), add(X, Y)),
			r(add(C1, X), add(X, C1)),
			r(add(X, sub(C1, Y)), add(sub(X, Y), C1)),
			r(add(sub(C1, Y), X), add(sub(X, Y), C1)),
			r(add(add(X, C1), Y), add(add(X, Y), C1)));

	private static final Cond C1_NZ = (b, s) -> v(C1, b) != 0;

	private static final List<Rule> SUB = List.of(
			r(sub(X, X), zero()),
			r(sub(add(X, Y), Y), X),
			r(sub(add(X, Y), X), Y),
			r(sub(add(Y, X), X), Y),
			r(sub(X, add(X, Y)), neg(Y)),
			r(sub(X, add(Y, X)), neg(Y)),
			r(sub(add(X, C1), C2), add(X, sub(C1, C2))),
			r(sub(add(C1, X), C2), add(X, sub(C1, C2))),
			r(sub(C1, sub(C2, X)), add(X, sub(C1, C2))),
			r(sub(C1, add(X, C2)), sub(sub(C1, C2), X)),
			r(sub(C1, add(C2, X)), sub(sub(C1, C2), X)),
			r(sub(sub(C1, X), sub(C2, Y)), add(sub(Y, X), sub(C1, C2))),
			r(sub(sub(X, Y), sub(X, Z)), sub(Z, Y)),
			r(sub(add(X, Y), add(X, Z)), sub(Y, Z)),
			r(sub(add(Y, X), add(X, Z)), sub(Y, Z)),
			r(sub(add(X, Y), add(Z, X)), sub(Y, Z)),
			r(sub(add(Y, X), add(Z, X)), sub(Y, Z)),
			r(sub(mul(X, Y), X), mul(sub(Y, i(1)), X)),
			r(sub(X, mul(X, Y)), mul(sub(i(1), Y), X)),
			r(sub(mul(X, Y), mul(X, Z)), mul(sub(Y, Z), X)),
			r(sub(mul(Y, X), mul(X, Z)), mul(sub(Y, Z), X)),
			r(sub(mul(X, Y), mul(Z, X)), mul(sub(Y, Z), X)),
			r(sub(mul(Y, X), mul(Z, X)), mul(sub(Y, Z), X)),
			r(sub(X, mul(fdiv(X, C1), C1)), fmod(X, C1), C1_NZ),
			r(sub(X, mul(C1, fdiv(X, C1))), fmod(X, C1), C1_NZ),
			r(sub(mul(fdiv(X, C1), C1), X), sub(zero(), fmod(X, C1)), C1_NZ),
			r(sub(X, mul(fdiv(add(X, Y), C1), C1)), sub(fmod(add(X, Y), C1), Y), C1_NZ),
			r(sub(mul(fdiv(add(X, Y), C1), C1), X), sub(Y, fmod(add(X, Y), C1)), C1_NZ),
			r(sub(X, mul(fdiv(sub(X, Y), C1), C1)), add(fmod(sub(X, Y), C1), Y), C1_NZ),
			r(sub(mul(fdiv(sub(X, Y), C1), C1), X), sub(sub(zero(), fmod(sub(X, Y), C1)), Y), C1_NZ),
			r(sub(min(X, Y), X), min(zero(), sub(Y, X))),
			r(sub(min(X, Y), Y), min(sub(X, Y), zero())),
			r(sub(max(X, Y), X), max(zero(), sub(Y, X))),
			r(sub(max(X, Y), Y), max(sub(X, Y), zero())),
			r(sub(X, min(X, Y)), max(zero(), sub(X, Y))),
			r(sub(X, max(X, Y)), min(zero(), sub(X, Y))),
			r(sub(min(add(X, Y), Z), X), min(Y, sub(Z, X))),
			r(sub(min(add(Y, X), Z), X), min(Y, sub(Z, X))),
			r(sub(min(Z, add(X, Y)), X), min(sub(Z, X), Y)),
			r(sub(min(Z, add(Y, X)), X), min(sub(Z, X), Y)),
			r(sub(max(add(X, Y), Z), X), max(Y, sub(Z, X))),
			r(sub(max(add(Y, X), Z), X), max(Y, sub(Z, X))),
			r(sub(max(Z, add(X, Y)), X), max(sub(Z, X), Y)),
			r(sub(max(Z, add(Y, X)), X), max(sub(Z, X), Y)),
			r(sub(X, min(add(X, Y), Z)), max(sub(zero(), Y), sub(X, Z))),
			r(sub(X, min(add(Y, X), Z)), max(sub(zero(), Y), sub(X, Z))),
			r(sub(X, min(Z, add(X, Y))), max(sub(X, Z), sub(zero(), Y))),
			r(sub(X, min(Z, add(Y, X))), max(sub(X, Z), sub(zero(), Y))),
			r(sub(X, max(add(X, Y), Z)), min(sub(zero(), Y), sub(X, Z))),
			r(sub(X, max(add(Y, X), Z)), min(sub(zero(), Y), sub(X, Z))),
			r(sub(X, max(Z, add(X, Y))), min(sub(X, Z), sub(zero(), Y))),
			r(sub(X, max(Z, add(Y, X))), min(sub(X, Z), sub(zero(), Y))),
			r(sub(min(X, Y), min(Y, X)), zero()),
			r(sub(max(X, Y), max(Y, X)), zero()),
			r(sub(X, add(Y, C1)), add(sub(X, Y), sub(i(0), C1))),
			r(sub(add(X, C1), Y), add(sub(X, Y), C1)),
			r(sub(X, sub(Y, Z)), sub(add(X, Z), Y)));

	private static final List<Rule> MUL = List.of(
			r(mul(mul(X, C1), C2), mul(X, mul(C1, C2))),
			r(mul(mul(C1, X), C2), mul(X, mul(C1, C2))),
			r(mul(min(X, Y), max(X, Y)), mul(X, Y)),
			r(mul(max(X, Y), min(X, Y)), mul(X, Y)),
			r(mul(C1, X), mul(X, C1)),
			r(mul(X, mul(C1, Y)), mul(mul(X, Y), C1)),
			r(mul(add(X, C1), C2), add(mul(X, C2), mul(C1, C2))),
			r(mul(sub(X, Y), C1), mul(sub(Y, X), sub(i(0), C1)), (b, s) -> v(C1, b) < 0));

	/** c2 > 0 and c1 % c2 == 0 (C++ remainder). */
	private static final Cond DIVISIBLE = (b, s) -> v(C2, b) > 0 && v(C1, b) % v(C2, b) == 0;

	private static final List<Rule> FLOOR_DIV = List.of(
			r(fdiv(mul(X, C1), C2), mul(X, fdiv(C1, C2)), DIVISIBLE),
			r(fdiv(mul(C1, X), C2), mul(X, fdiv(C1, C2)), DIVISIBLE),
			r(fdiv(mul(X, C1), C2), fdiv(X, fdiv(C2, C1)),
					(b, s) -> v(C1, b) > 0 && v(C2, b) % v(C1, b) == 0 && v(C2, b) / v(C1, b) > 0),
			r(fdiv(fdiv(X, C1), C2), fdiv(X, mul(C1, C2)), (b, s) -> v(C1, b) > 0 && v(C2, b) > 0),
			r(fdiv(add(fdiv(X, C1), C2), C3), fdiv(add(X, mul(C1, C2)), mul(C1, C3)),
					(b, s) -> v(C1, b) > 0 && v(C3, b) > 0),
			r(fdiv(X, X), Pat.retConst(1), (b, s) -> s.nonZero(X.eval(b))),
			r(fdiv(mul(X, C1), X), C1, (b, s) -> s.nonZero(X.eval(b))),
			r(fdiv(mul(C1, X), X), C1, (b, s) -> s.nonZero(X.eval(b))),
			r(fdiv(add(X, C1), C2), add(fdiv(X, C2), fdiv(C1, C2)), DIVISIBLE),
			r(fdiv(add(C1, X), C2), add(fdiv(X, C2), fdiv(C1, C2)), DIVISIBLE),
			r(fdiv(add(mul(X, C1), Y), C2), add(mul(X, fdiv(C1, C2)), fdiv(Y, C2)), DIVISIBLE),
			r(fdiv(add(mul(C1, X), Y), C2), add(mul(X, fdiv(C1, C2)), fdiv(Y, C2)), DIVISIBLE),
			r(fdiv(add(Y, mul(X, C1)), C2), add(fdiv(Y, C2), mul(X, fdiv(C1, C2))), DIVISIBLE),
			r(fdiv(add(Y, mul(C1, X)), C2), add(fdiv(Y, C2), mul(X, fdiv(C1, C2))), DIVISIBLE),
			r(fdiv(min(mul(X, C1), Y), C2), min(mul(X, fdiv(C1, C2)), fdiv(Y, C2)), DIVISIBLE),
			r(fdiv(max(mul(X, C1), Y), C2), max(mul(X, fdiv(C1, C2)), fdiv(Y, C2)), DIVISIBLE),
			r(fdiv(min(Y, mul(X, C1)), C2), min(fdiv(Y, C2), mul(X, fdiv(C1, C2))), DIVISIBLE),
			r(fdiv(max(Y, mul(X, C1)), C2), max(fdiv(Y, C2), mul(X, fdiv(C1, C2))), DIVISIBLE),
			r(fdiv(sub(X, fmod(X, C1)), C1), fdiv(X, C1), C1_NZ),
			r(fdiv(mul(X, Y), Y), X, (b, s) -> s.nonZero(Y.eval(b))),
			r(fdiv(mul(Y, X), Y), X, (b, s) -> s.nonZero(Y.eval(b))),
			r(fdiv(add(mul(X, Z), Y), Z), add(X, fdiv(Y, Z)), (b, s) -> s.proveGE(Z.eval(b), 0)),
			r(fdiv(add(mul(Z, X), Y), Z), add(X, fdiv(Y, Z)), (b, s) -> s.proveGE(Z.eval(b), 0)),
			r(fdiv(add(Y, mul(X, Z)), Z), add(fdiv(Y, Z), X), (b, s) -> s.proveGE(Z.eval(b), 0)),
			r(fdiv(add(Y, mul(Z, X)), Z), add(fdiv(Y, Z), X), (b, s) -> s.proveGE(Z.eval(b), 0)),
			r(fdiv(X, C1), zero(),
					(b, s) -> v(C1, b) > 0 && s.proveGE(X.eval(b), 0) && s.proveLess(X.eval(b), v(C1, b))));

	private static final List<Rule> FLOOR_MOD = List.of(
			r(fmod(mul(X, C1), C2), zero(), DIVISIBLE),
			r(fmod(mul(C1, X), C2), zero(), DIVISIBLE),
			r(fmod(add(X, C1), C2), fmod(X, C2), DIVISIBLE),
			r(fmod(add(C1, X), C2), fmod(X, C2), DIVISIBLE),
			r(fmod(add(mul(X, C1), Y), C2), fmod(Y, C2), DIVISIBLE),
			r(fmod(add(mul(C1, X), Y), C2), fmod(Y, C2), DIVISIBLE),
			r(fmod(add(Y, mul(X, C1)), C2), fmod(Y, C2), DIVISIBLE),
			r(fmod(add(Y, mul(C1, X)), C2), fmod(Y, C2), DIVISIBLE),
			r(fmod(mul(X, C1), C2), fmod(mul(X, fmod(C1, C2)), C2),
					(b, s) -> v(C2, b) != 0 && Math.floorMod(v(C1, b), v(C2, b)) != v(C1, b)),
			r(fmod(mul(X, Y), Y), zero(), (b, s) -> s.nonZero(Y.eval(b))),
			r(fmod(mul(Y, X), Y), zero(), (b, s) -> s.nonZero(Y.eval(b))),
			r(fmod(add(X, mul(Y, C1)), C2), fmod(add(X, mul(Y, fmod(C1, C2))), C2),
					(b, s) -> v(C2, b) > 0 && Math.floorMod(v(C1, b), v(C2, b)) != v(C1, b)),
			r(fmod(mul(X, C1), mul(X, C2)), mul(X, fmod(C1, C2)), (b, s) -> v(C2, b) != 0 && s.nonZero(X.eval(b))),
			r(fmod(add(X, C1), C2), fmod(add(X, fmod(C1, C2)), C2),
					(b, s) -> v(C2, b) > 0 && v(C1, b) % v(C2, b) != 0 && (v(C1, b) >= v(C2, b) || v(C1, b) < 0)),
			r(fmod(X, C1), X, (b, s) -> v(C1, b) > 0 && s.proveGE(X.eval(b), 0) && s.proveLess(X.eval(b), v(C1, b))));

	/** min(x + c1, x + c2) and similar: pick the smaller (larger for max) constant. */
	private static Rule pick(Pat src, Pat ifFirst, Pat otherwise, boolean forMin, Pat.Slot a, Pat.Slot b) {
		return (bd, s) -> {
			if (!src.matches(bd.ret, bd)) {
				return null;
			}
			boolean first = forMin ? v(a, bd) < v(b, bd) : v(a, bd) > v(b, bd);
			return s.recursive((first ? ifFirst : otherwise).eval(bd));
		};
	}

	/** min/max(x + c1, x) and (x, x + c1): x + c1 when c1 moves the extreme, else x (not rewritten again). */
	private static Rule offset(boolean forMin) {
		Pat p1 = forMin ? min(add(X, C1), X) : max(add(X, C1), X);
		Pat p2 = forMin ? min(X, add(X, C1)) : max(X, add(X, C1));
		Pat res = add(X, C1);
		return (bd, s) -> {
			if (!p1.matches(bd.ret, bd) && !p2.matches(bd.ret, bd)) {
				return null;
			}
			boolean moves = forMin ? v(C1, bd) < 0 : v(C1, bd) > 0;
			return moves ? s.recursive(res.eval(bd)) : X.eval(bd);
		};
	}

	/** min/max of scaled operands: divide or multiply outside, the other extreme for a negative factor. */
	private static Rule scaled(Pat src, Pat whenPositive, Pat whenNegative) {
		return (bd, s) -> {
			if (!src.matches(bd.ret, bd)) {
				return null;
			}
			long c = v(C1, bd);
			if (c > 0) {
				return s.recursive(whenPositive.eval(bd));
			}
			if (c < 0) {
				return s.recursive(whenNegative.eval(bd));
			}
			return null;
		};
	}

	private static final List<Rule> MIN = List.of(
			r(min(X, X), X),
			r(min(min(X, C1), C2), min(X, min(C1, C2))),
			r(min(C1, min(X, C2)), min(X, min(C1, C2))),
			r(min(sub(Y, X), sub(Z, X)), sub(min(Y, Z), X)),
			r(min(sub(X, Y), sub(X, Z)), sub(X, max(Y, Z))),
			r(min(add(X, Y), add(X, Z)), add(X, min(Y, Z))),
			r(min(add(Y, X), add(X, Z)), add(X, min(Y, Z))),
			r(min(add(X, Y), add(Z, X)), add(X, min(Y, Z))),
			r(min(add(Y, X), add(Z, X)), add(X, min(Y, Z))),
			pick(min(add(X, C1), add(X, C2)), add(X, C1), add(X, C2), true, C1, C2),
			offset(true),
			pick(min(sub(C1, X), sub(C2, X)), sub(C1, X), sub(C2, X), true, C1, C2),
			r(min(min(X, Y), X), min(X, Y)),
			r(min(min(X, Y), Y), min(X, Y)),
			r(min(X, min(X, Y)), min(X, Y)),
			r(min(Y, min(X, Y)), min(X, Y)),
			r(min(max(X, Y), Y), Y),
			r(min(max(Y, X), X), X),
			r(min(Y, max(X, Y)), Y),
			r(min(max(X, Y), X), X),
			r(min(X, max(X, Y)), X),
			r(min(X, max(Y, X)), X),
			r(min(max(X, Y), max(X, Z)), max(min(Y, Z), X)),
			r(min(max(X, Y), max(Z, X)), max(min(Y, Z), X)),
			r(min(max(Y, X), max(X, Z)), max(min(Y, Z), X)),
			r(min(max(Y, X), max(Z, X)), max(min(Y, Z), X)),
			r(min(min(X, Y), min(X, Z)), min(min(Y, Z), X)),
			r(min(min(X, Y), min(Z, X)), min(min(Y, Z), X)),
			r(min(min(Y, X), min(X, Z)), min(min(Y, Z), X)),
			r(min(min(Y, X), min(Z, X)), min(min(Y, Z), X)),
			scaled(min(fdiv(X, C1), fdiv(Y, C1)), fdiv(min(X, Y), C1), fdiv(max(X, Y), C1)),
			scaled(min(mul(X, C1), mul(Y, C1)), mul(min(X, Y), C1), mul(max(X, Y), C1)),
			r(min(X, Y), X, (b, s) -> s.proveLE(Arith.make(BinaryOp.Sub, X.eval(b), Y.eval(b)), 0)),
			r(min(X, Y), Y, (b, s) -> s.proveGE(Arith.make(BinaryOp.Sub, X.eval(b), Y.eval(b)), 0)),
			r(min(C1, X), min(X, C1)),
			r(min(min(X, C1), Y), min(min(X, Y), C1)));

	private static final List<Rule> MAX = List.of(
			r(max(X, X), X),
			r(max(max(X, C1), C2), max(X, max(C1, C2))),
			r(max(C1, max(X, C2)), max(X, max(C1, C2))),
			r(max(sub(Y, X), sub(Z, X)), sub(max(Y, Z), X)),
			r(max(sub(X, Y), sub(X, Z)), sub(X, min(Y, Z))),
			r(max(add(X, Y), add(X, Z)), add(X, max(Y, Z))),
			r(max(add(Y, X), add(X, Z)), add(X, max(Y, Z))),
			r(max(add(X, Y), add(Z, X)), add(X, max(Y, Z))),
			r(max(add(Y, X), add(Z, X)), add(X, max(Y, Z))),
			pick(max(add(X, C1), add(X, C2)), add(X, C1), add(X, C2), false, C1, C2),
			offset(false),
			pick(max(sub(C1, X), sub(C2, X)), sub(C1, X), sub(C2, X), false, C1, C2),
			r(max(max(X, Y), X), max(X, Y)),
			r(max(max(X, Y), Y), max(X, Y)),
			r(max(X, max(X, Y)), max(X, Y)),
			r(max(Y, max(X, Y)), max(X, Y)),
			r(max(min(X, Y), Y), Y),
			r(max(min(Y, X), X), X),
			r(max(Y, min(X, Y)), Y),
			r(max(min(X, Y), X), X),
			r(max(X, min(X, Y)), X),
			r(max(X, min(Y, X)), X),
			r(max(min(X, Y), min(X, Z)), min(max(Y, Z), X)),
			r(max(min(X, Y), min(Z, X)), min(max(Y, Z), X)),
			r(max(min(Y, X), min(X, Z)), min(max(Y, Z), X)),
			r(max(min(Y, X), min(Z, X)), min(max(Y, Z), X)),
			r(max(max(X, Y), max(X, Z)), max(max(Y, Z), X)),
			r(max(max(X, Y), max(Z, X)), max(max(Y, Z), X)),
			r(max(max(Y, X), max(X, Z)), max(max(Y, Z), X)),
			r(max(max(Y, X), max(Z, X)), max(max(Y, Z), X)),
			scaled(max(fdiv(X, C1), fdiv(Y, C1)), fdiv(max(X, Y), C1), fdiv(min(X, Y), C1)),
			scaled(max(mul(X, C1), mul(Y, C1)), mul(max(X, Y), C1), mul(min(X, Y), C1)),
			r(max(X, Y), X, (b, s) -> s.proveGE(Arith.make(BinaryOp.Sub, X.eval(b), Y.eval(b)), 0)),
			r(max(X, Y), Y, (b, s) -> s.proveLE(Arith.make(BinaryOp.Sub, X.eval(b), Y.eval(b)), 0)),
			r(max(C1, X), max(X, C1)),
			r(max(max(X, C1), Y), max(max(X, Y), C1)));

	private static final List<Rule> EQ = List.of(
			r(eq(X, X), bool(true)),
			r(eq(add(X, Y), add(X, Z)), eq(Y, Z)),
			r(eq(add(Y, X), add(X, Z)), eq(Y, Z)),
			r(eq(add(X, Y), add(Z, X)), eq(Y, Z)),
			r(eq(add(Y, X), add(Z, X)), eq(Y, Z)),
			r(eq(sub(X, C1), C2), eq(X, add(C1, C2))),
			r(eq(add(X, C1), C2), eq(X, sub(C2, C1))),
			r(eq(sub(C1, X), C2), eq(X, sub(C1, C2))),
			r(eq(C1, X), eq(X, C1)));

	private static final List<Rule> NE = List.of(
			r(ne(X, X), bool(false)),
			r(ne(add(X, Y), add(X, Z)), ne(Y, Z)),
			r(ne(add(Y, X), add(X, Z)), ne(Y, Z)),
			r(ne(add(X, Y), add(Z, X)), ne(Y, Z)),
			r(ne(add(Y, X), add(Z, X)), ne(Y, Z)),
			r(ne(sub(X, C1), C2), ne(X, add(C1, C2))),
			r(ne(add(X, C1), C2), ne(X, sub(C2, C1))),
			r(ne(C1, X), ne(X, C1)));

	private static final List<Rule> LT = List.of(
			r(lt(X, X), bool(false)),
			r(lt(add(X, Y), add(X, Z)), lt(Y, Z)),
			r(lt(add(Y, X), add(X, Z)), lt(Y, Z)),
			r(lt(add(X, Y), add(Z, X)), lt(Y, Z)),
			r(lt(add(Y, X), add(Z, X)), lt(Y, Z)),
			r(lt(sub(Y, X), sub(Z, X)), lt(Y, Z)),
			r(lt(sub(X, Y), sub(X, Z)), lt(Z, Y)),
			r(lt(X, add(X, Z)), lt(leftConst(0), Z)),
			r(lt(X, add(Z, X)), lt(leftConst(0), Z)),
			r(lt(X, sub(X, Z)), lt(Z, leftConst(0))),
			r(lt(add(X, C1), C2), lt(X, sub(C2, C1))),
			r(lt(sub(X, C1), C2), lt(X, add(C2, C1))),
			r(lt(sub(C1, X), C2), lt(sub(C1, C2), X)),
			r(lt(C1, add(X, C2)), lt(sub(C1, C2), X)),
			r(lt(C1, sub(X, C2)), lt(add(C1, C2), X)),
			r(lt(mul(X, C1), mul(Y, C1)), lt(X, Y), (b, s) -> v(C1, b) > 0),
			r(lt(mul(X, C1), mul(Y, C1)), lt(Y, X), (b, s) -> v(C1, b) < 0),
			r(lt(fdiv(X, C1), C2), lt(X, mul(C1, C2)), (b, s) -> v(C1, b) > 0),
			r(lt(C1, fdiv(X, C2)), lt(sub(mul(add(C1, i(1)), C2), i(1)), X), (b, s) -> v(C2, b) > 0),
			r(lt(mul(fdiv(X, C1), C1), X), lt(leftConst(0), fmod(X, C1)), (b, s) -> v(C1, b) > 0),
			r(lt(mul(fdiv(X, C1), C1), add(X, Y)), lt(leftConst(0), add(fmod(X, C1), Y)), (b, s) -> v(C1, b) > 0),
			r(lt(mul(fdiv(X, C1), C1), sub(X, Y)), lt(Y, fmod(X, C1)), (b, s) -> v(C1, b) > 0),
			r(lt(min(X, Y), Z), or(lt(X, Z), lt(Y, Z))),
			r(lt(max(X, Y), Z), and(lt(X, Z), lt(Y, Z))),
			r(lt(Z, min(X, Y)), and(lt(Z, X), lt(Z, Y))),
			r(lt(Z, max(X, Y)), or(lt(Z, X), lt(Z, Y))));

	private static final List<Rule> LE = List.of(
			r(le(X, X), bool(true)),
			r(le(add(X, Y), add(X, Z)), le(Y, Z)),
			r(le(add(Y, X), add(X, Z)), le(Y, Z)),
			r(le(add(X, Y), add(Z, X)), le(Y, Z)),
			r(le(add(Y, X), add(Z, X)), le(Y, Z)),
			r(le(sub(Y, X), sub(Z, X)), le(Y, Z)),
			r(le(sub(X, Y), sub(X, Z)), le(Z, Y)),
			r(le(add(X, C1), C2), le(X, sub(C2, C1))),
			r(le(sub(X, C1), C2), le(X, add(C2, C1))),
			r(le(C1, add(X, C2)), le(sub(C1, C2), X)),
			r(le(C1, sub(X, C2)), le(add(C1, C2), X)),
			r(le(sub(C1, X), C2), le(sub(C1, C2), X)),
			r(le(mul(X, C1), mul(Y, C1)), le(X, Y), (b, s) -> v(C1, b) > 0),
			r(le(mul(X, C1), mul(Y, C1)), le(Y, X), (b, s) -> v(C1, b) < 0));

	private static final List<Rule> NOT = List.of(
			r(not(not(X)), X),
			r(not(lt(X, Y)), le(Y, X)),
			r(not(le(X, Y)), lt(Y, X)),
			r(not(gt(X, Y)), ge(Y, X)),
			r(not(ge(X, Y)), gt(Y, X)),
			r(not(eq(X, Y)), ne(X, Y)),
			r(not(ne(X, Y)), eq(X, Y)),
			r(not(or(X, Y)), and(not(X), not(Y))),
			r(not(and(X, Y)), or(not(X), not(Y))));

	private static final List<Rule> AND = List.of(
			r(and(X, X), X),
			r(and(X, not(X)), bool(false)),
			r(and(not(X), X), bool(false)),
			r(and(eq(X, Y), ne(X, Y)), bool(false)),
			r(and(ne(X, Y), eq(X, Y)), bool(false)),
			r(and(le(X, Y), lt(Y, X)), bool(false)),
			r(and(lt(Y, X), le(X, Y)), bool(false)),
			r(and(lt(X, C1), lt(C2, X)), bool(false), (b, s) -> v(C2, b) + 1 >= v(C1, b)),
			r(and(lt(C2, X), lt(X, C1)), bool(false), (b, s) -> v(C2, b) + 1 >= v(C1, b)),
			r(and(le(X, C1), le(C2, X)), bool(false), (b, s) -> v(C2, b) > v(C1, b)),
			r(and(le(C2, X), le(X, C1)), bool(false), (b, s) -> v(C2, b) > v(C1, b)),
			r(and(X, and(Y, Z)), and(and(X, Y), Z)));

	private static final List<Rule> OR = List.of(
			r(or(X, X), X),
			r(or(X, not(X)), bool(true)),
			r(or(not(X), X), bool(true)),
			r(or(eq(X, Y), ne(X, Y)), bool(true)),
			r(or(ne(X, Y), eq(X, Y)), bool(true)),
			r(or(le(X, Y), lt(Y, X)), bool(true)),
			r(or(lt(Y, X), le(X, Y)), bool(true)),
			r(or(lt(X, Y), lt(Y, X)), ne(X, Y)),
			r(or(lt(X, C1), lt(C2, X)), bool(true), (b, s) -> v(C2, b) < v(C1, b)),
			r(or(lt(C2, X), lt(X, C1)), bool(true), (b, s) -> v(C2, b) < v(C1, b)),
			r(or(le(X, C1), le(C2, X)), bool(true), (b, s) -> v(C2, b) <= v(C1, b) + 1),
			r(or(le(C2, X), le(X, C1)), bool(true), (b, s) -> v(C2, b) <= v(C1, b) + 1),
			r(or(lt(X, Y), eq(X, Y)), le(X, Y)),
			r(or(lt(X, Y), eq(Y, X)), le(X, Y)),
			r(or(eq(X, Y), lt(X, Y)), le(X, Y)),
			r(or(eq(Y, X), lt(X, Y)), le(X, Y)),
			r(or(X, or(Y, Z)), or(or(X, Y), Z)));

	private static final List<Rule> NEG = List.of(
			r(neg(neg(X)), X),
			r(neg(sub(X, Y)), sub(Y, X)));
}
