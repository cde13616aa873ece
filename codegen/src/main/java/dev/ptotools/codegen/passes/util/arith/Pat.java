package dev.ptotools.codegen.passes.util.arith;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Expr.UnaryOp;

/**
 * Expression patterns for the rewrite rules, after pypto's pattern_match.h: {@code x, y, z} match any
 * expression, {@code c1, c2, c3} any integer constant; a variable seen twice must match an equal
 * expression. A pattern used as a result evaluates with constant folding ({@code c1 + c2} becomes one
 * constant), and an integer literal takes the dtype of its sibling operand.
 */
abstract class Pat {

	/** Slots: 0..2 are x, y, z; 3..5 are c1, c2, c3. */
	static final class Binding {
		final Expr[] slots = new Expr[6];
		/** The expression being rewritten (rules make constants of its dtype). */
		Expr ret;

		void clear() {
			java.util.Arrays.fill(slots, null);
		}
	}

	abstract boolean match(Expr e, Binding b);

	abstract Expr eval(Binding b);

	/** Matches e from scratch (the bindings are reset first). */
	final boolean matches(Expr e, Binding b) {
		b.clear();
		return match(e, b);
	}

	static final class Slot extends Pat {
		final int index;
		final boolean constOnly;

		Slot(int index, boolean constOnly) {
			this.index = index;
			this.constOnly = constOnly;
		}

		@Override
		boolean match(Expr e, Binding b) {
			if (constOnly && !(e instanceof Expr.ConstInt)) {
				return false;
			}
			Expr bound = b.slots[index];
			if (bound == null) {
				b.slots[index] = e;
				return true;
			}
			if (constOnly) {
				Expr.ConstInt x = (Expr.ConstInt) bound;
				Expr.ConstInt y = (Expr.ConstInt) e;
				return x.value() == y.value() && x.dtype() == y.dtype();
			}
			return Arith.equal(bound, e);
		}

		@Override
		Expr eval(Binding b) {
			return b.slots[index];
		}

		long value(Binding b) {
			return ((Expr.ConstInt) b.slots[index]).value();
		}
	}

	/** An integer literal of a rule: matches that value; evaluates with the dtype of its sibling (ref). */
	static final class Lit extends Pat {
		final long value;
		Pat ref;

		Lit(long value) {
			this.value = value;
		}

		@Override
		boolean match(Expr e, Binding b) {
			return e instanceof Expr.ConstInt c && c.value() == value;
		}

		@Override
		Expr eval(Binding b) {
			return Arith.constInt(value, Arith.dtype(ref.eval(b)));
		}
	}

	/** A constant of the dtype of the expression being rewritten (MakeConstInt(v, GetScalarDtype(ret))). */
	static final class RetConst extends Pat {
		final long value;
		final boolean ofLeftOperand;

		RetConst(long value, boolean ofLeftOperand) {
			this.value = value;
			this.ofLeftOperand = ofLeftOperand;
		}

		@Override
		boolean match(Expr e, Binding b) {
			return false;
		}

		@Override
		Expr eval(Binding b) {
			Expr ref = ofLeftOperand ? ((Expr.Binary) b.ret).left() : b.ret;
			return Arith.constInt(value, Arith.dtype(ref));
		}
	}

	static final class BoolConst extends Pat {
		final boolean value;

		BoolConst(boolean value) {
			this.value = value;
		}

		@Override
		boolean match(Expr e, Binding b) {
			return false;
		}

		@Override
		Expr eval(Binding b) {
			return Arith.constBool(value);
		}
	}

	/** A fixed expression (pypto's PExprLiteral): matched by identity, evaluates to itself. */
	static final class Fixed extends Pat {
		final Expr value;

		Fixed(Expr value) {
			this.value = value;
		}

		@Override
		boolean match(Expr e, Binding b) {
			return e == value;
		}

		@Override
		Expr eval(Binding b) {
			return value;
		}
	}

	static final class Bin extends Pat {
		final BinaryOp op;
		final Pat a;
		final Pat b;

		Bin(BinaryOp op, Pat a, Pat b) {
			this.op = op;
			this.a = a;
			this.b = b;
			if (a instanceof Lit l && l.ref == null) {
				l.ref = b;
			}
			if (b instanceof Lit l && l.ref == null) {
				l.ref = a;
			}
		}

		@Override
		boolean match(Expr e, Binding bd) {
			return e instanceof Expr.Binary x && x.op() == op && a.match(x.left(), bd) && b.match(x.right(), bd);
		}

		@Override
		Expr eval(Binding bd) {
			return Arith.foldOrMake(op, a.eval(bd), b.eval(bd));
		}
	}

	static final class Un extends Pat {
		final UnaryOp op;
		final Pat a;

		Un(UnaryOp op, Pat a) {
			this.op = op;
			this.a = a;
		}

		@Override
		boolean match(Expr e, Binding bd) {
			return e instanceof Expr.Unary x && x.op() == op && a.match(x.operand(), bd);
		}

		@Override
		Expr eval(Binding bd) {
			return Arith.foldOrMakeUnary(op, a.eval(bd));
		}
	}

	// ── builders ────────────────────────────────────────────────────────────

	static final Slot X = new Slot(0, false), Y = new Slot(1, false), Z = new Slot(2, false);
	static final Slot C1 = new Slot(3, true), C2 = new Slot(4, true), C3 = new Slot(5, true);

	/** A constant of the rewritten expression's dtype. */
	static Pat zero() {
		return new RetConst(0, false);
	}

	static Pat retConst(long v) {
		return new RetConst(v, false);
	}

	/** A constant of the dtype of the rewritten comparison's left operand. */
	static Pat leftConst(long v) {
		return new RetConst(v, true);
	}

	static Pat bool(boolean v) {
		return new BoolConst(v);
	}

	static Lit i(long v) {
		return new Lit(v);
	}

	static Fixed fixed(Expr e) {
		return new Fixed(e);
	}

	static Pat add(Pat a, Pat b) {
		return new Bin(BinaryOp.Add, a, b);
	}

	static Pat sub(Pat a, Pat b) {
		return new Bin(BinaryOp.Sub, a, b);
	}

	static Pat mul(Pat a, Pat b) {
		return new Bin(BinaryOp.Mul, a, b);
	}

	static Pat fdiv(Pat a, Pat b) {
		return new Bin(BinaryOp.FloorDiv, a, b);
	}

	static Pat fmod(Pat a, Pat b) {
		return new Bin(BinaryOp.FloorMod, a, b);
	}

	static Pat min(Pat a, Pat b) {
		return new Bin(BinaryOp.Min, a, b);
	}

	static Pat max(Pat a, Pat b) {
		return new Bin(BinaryOp.Max, a, b);
	}

	static Pat eq(Pat a, Pat b) {
		return new Bin(BinaryOp.Eq, a, b);
	}

	static Pat ne(Pat a, Pat b) {
		return new Bin(BinaryOp.Ne, a, b);
	}

	static Pat lt(Pat a, Pat b) {
		return new Bin(BinaryOp.Lt, a, b);
	}

	static Pat le(Pat a, Pat b) {
		return new Bin(BinaryOp.Le, a, b);
	}

	static Pat gt(Pat a, Pat b) {
		return new Bin(BinaryOp.Gt, a, b);
	}

	static Pat ge(Pat a, Pat b) {
		return new Bin(BinaryOp.Ge, a, b);
	}

	static Pat and(Pat a, Pat b) {
		return new Bin(BinaryOp.And, a, b);
	}

	static Pat or(Pat a, Pat b) {
		return new Bin(BinaryOp.Or, a, b);
	}

	static Pat not(Pat a) {
		return new Un(UnaryOp.Not, a);
	}

	static Pat neg(Pat a) {
		return new Un(UnaryOp.Neg, a);
	}
}
