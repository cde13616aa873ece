package dev.ptotools.codegen.passes.util.arith;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Var;

/**
 * The comparisons known to hold (from enclosing branch conditions and constant bindings), a reduced form
 * of pypto's TransitiveComparisonAnalyzer: each fact relates two expressions up to constant offsets
 * ({@code a + c1 < b + c2}); a query is answered from a fact about the same pair of expressions. pypto
 * also chains facts transitively; that is not ported.
 */
final class Comparisons {

	/** pypto's CompareResult bits: EQ=1, LT=2, GT=4. */
	enum Result {
		INCONSISTENT(0), EQ(1), LT(2), LE(3), GT(4), GE(5), NE(6), UNKNOWN(7);

		final int bits;

		Result(int bits) {
			this.bits = bits;
		}

		static Result of(int bits) {
			for (Result r : values()) {
				if (r.bits == bits) {
					return r;
				}
			}
			return UNKNOWN;
		}

		/** pypto's ResultImplies: this result is known and at least as strong as required. */
		boolean implies(Result required) {
			return (bits & required.bits) == bits && this != UNKNOWN && this != INCONSISTENT;
		}

		Result reverse() {
			return switch (this) {
			case LT -> GT;
			case LE -> GE;
			case GT -> LT;
			case GE -> LE;
			default -> this;
			};
		}
	}

	/** lhs OP rhs + offset. */
	private record Fact(Expr lhs, Expr rhs, long offset, Result result, Var boundVar) {
	}

	private final List<Fact> facts = new ArrayList<>();

	/** (inner, offset) with expr == inner + offset; inner is null for a constant. */
	private record Offset(Expr inner, long offset) {
	}

	private static Offset offset(Expr e) {
		if (e instanceof Expr.Binary b && b.op() == BinaryOp.Add) {
			if (b.right() instanceof Expr.ConstInt c) {
				return new Offset(b.left(), c.value());
			}
			if (b.left() instanceof Expr.ConstInt c) {
				return new Offset(b.right(), c.value());
			}
		}
		if (e instanceof Expr.Binary b && b.op() == BinaryOp.Sub && b.right() instanceof Expr.ConstInt c) {
			return new Offset(b.left(), -c.value());
		}
		if (e instanceof Expr.ConstInt c) {
			return new Offset(null, c.value());
		}
		return new Offset(e, 0);
	}

	private void add(Expr lhs, Expr rhs, Result r, Var boundVar, List<Fact> added) {
		Offset l = offset(lhs);
		Offset rr = offset(rhs);
		if (l.inner() == null || rr.inner() == null) {
			return; // comparisons with constants are the interval analysis's business
		}
		Fact f = new Fact(l.inner(), rr.inner(), rr.offset() - l.offset(), r, boundVar);
		facts.add(f);
		added.add(f);
	}

	void bindEqual(Var var, Expr value) {
		add(var, value, Result.EQ, var, new ArrayList<>());
	}

	void unbind(Var var) {
		facts.removeIf(f -> f.boundVar() == var);
	}

	Runnable enterConstraint(Expr constraint) {
		List<Fact> added = new ArrayList<>();
		parse(constraint, added);
		return () -> facts.removeAll(added);
	}

	private void parse(Expr e, List<Fact> added) {
		if (!(e instanceof Expr.Binary b)) {
			return;
		}
		switch (b.op()) {
		case Lt -> add(b.left(), b.right(), Result.LT, null, added);
		case Le -> add(b.left(), b.right(), Result.LE, null, added);
		case Gt -> add(b.left(), b.right(), Result.GT, null, added);
		case Ge -> add(b.left(), b.right(), Result.GE, null, added);
		case Eq -> add(b.left(), b.right(), Result.EQ, null, added);
		case Ne -> add(b.left(), b.right(), Result.NE, null, added);
		case And -> {
			parse(b.left(), added);
			parse(b.right(), added);
		}
		default -> {
		}
		}
	}

	/** What is known about lhs vs rhs. */
	Result compare(Expr lhs, Expr rhs) {
		Offset l = offset(lhs);
		Offset r = offset(rhs);
		if (l.inner() == null || r.inner() == null) {
			return Result.UNKNOWN;
		}
		// query: l.inner ? r.inner + (r.offset - l.offset)
		long q = r.offset() - l.offset();
		int bits = Result.UNKNOWN.bits;
		for (Fact f : facts) {
			Result known;
			long k;
			if (Arith.equal(f.lhs(), l.inner()) && Arith.equal(f.rhs(), r.inner())) {
				known = f.result();
				k = f.offset();
			} else if (Arith.equal(f.lhs(), r.inner()) && Arith.equal(f.rhs(), l.inner())) {
				known = f.result().reverse();
				k = -f.offset();
			} else {
				continue;
			}
			bits &= shifted(known, k, q).bits;
		}
		return Result.of(bits);
	}

	/** Known: a OP b + k. Asked: a ? b + q. */
	private static Result shifted(Result known, long k, long q) {
		// u = a - b - k is known against 0; the question is about a - b - q = u + d.
		long d = k - q;
		return switch (known) {
		case EQ -> d == 0 ? Result.EQ : d > 0 ? Result.GT : Result.LT;
		case LT -> d <= 0 ? Result.LT : (d == 1 ? Result.LE : Result.UNKNOWN);
		case LE -> d < 0 ? Result.LT : d == 0 ? Result.LE : Result.UNKNOWN;
		case GT -> d >= 0 ? Result.GT : (d == -1 ? Result.GE : Result.UNKNOWN);
		case GE -> d > 0 ? Result.GT : d == 0 ? Result.GE : Result.UNKNOWN;
		case NE -> d == 0 ? Result.NE : Result.UNKNOWN;
		default -> Result.UNKNOWN;
		};
	}
}
