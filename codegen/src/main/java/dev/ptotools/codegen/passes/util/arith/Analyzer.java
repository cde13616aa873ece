package dev.ptotools.codegen.passes.util.arith;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's arith::Analyzer (src/ir/arith/analyzer.cpp) as Simplify uses it: variable bindings (a constant
 * substituted everywhere, or only an integer range), {@code Simplify} = two rewrite passes, and
 * {@code CanProve} through constant folding, interval bounds and the comparisons known from enclosing
 * branch conditions. pypto's symbolic int-set fallback is not ported; the comparison facts are used
 * directly (no transitive chains), which decides the same branches for the usual orchestration code.
 */
public final class Analyzer {

	private final ConstIntBound bounds = new ConstIntBound();
	private final RewriteSimplifier rewrite = new RewriteSimplifier(bounds);
	private final Comparisons comparisons = new Comparisons();

	public ConstIntBound bounds() {
		return bounds;
	}

	public ConstIntBound.Bound bound(Expr e) {
		return bounds.of(e);
	}

	/** Full binding: var is expr from now on (pypto's Analyzer::Bind(var, expr)). */
	public void bind(Var var, Expr expr) {
		Expr simplified = rewrite.apply(expr);
		ConstIntBound.Bound b = bounds.of(simplified);
		if (b.min() > b.max()) {
			throw new CodegenException("internal error: empty bound for " + var.name(), var.span());
		}
		bounds.bind(var, b);
		rewrite.update(var, simplified);
		// pypto records var == expr, which fails for bool scalars (MakeEq rejects bool).
		Arith.make(BinaryOp.Eq, var, simplified, var.span());
		comparisons.bindEqual(var, simplified);
	}

	/** Range binding min <= var < maxExclusive (loop variables with constant bounds). */
	public void bind(Var var, long min, long maxExclusive) {
		bounds.bind(var, new ConstIntBound.Bound(min, maxExclusive - 1));
		if (maxExclusive - min == 1) {
			rewrite.update(var, Arith.constInt(min, Arith.dtype(var) == null ? DType.INDEX : Arith.dtype(var)));
		}
	}

	/** Only an integer range for var (pypto's const_int_bound.Update). */
	public void updateBound(Var var, ConstIntBound.Bound b) {
		bounds.bind(var, b);
	}

	public void unbind(Var var) {
		bounds.unbind(var);
		rewrite.update(var, null);
		comparisons.unbind(var);
	}

	public Expr simplify(Expr e) {
		return simplify(e, 2);
	}

	public Expr simplify(Expr e, int steps) {
		Expr r = e;
		for (int i = 0; i < steps; i++) {
			r = rewrite.apply(r);
		}
		return r;
	}

	public boolean canProveGreaterEqual(Expr e, long lower) {
		return bounds.of(simplify(e)).min() >= lower;
	}

	public boolean canProve(Expr cond) {
		Expr s = simplify(cond);
		if (s instanceof Expr.ConstBool b) {
			return b.value();
		}
		if (s instanceof Expr.ConstInt c) {
			return c.value() != 0;
		}
		if (!(s instanceof Expr.Binary b)) {
			return false;
		}
		if (b.op() == BinaryOp.And) {
			return canProve(b.left()) && canProve(b.right());
		}
		if (!b.op().isComparison()) {
			return false;
		}
		ConstIntBound.Bound diff = bounds.of(simplify(Arith.make(BinaryOp.Sub, b.left(), b.right())));
		Comparisons.Result known = comparisons.compare(b.left(), b.right());
		return switch (b.op()) {
		case Lt -> diff.max() < 0 || known.implies(Comparisons.Result.LT);
		case Le -> diff.max() <= 0 || known.implies(Comparisons.Result.LE);
		case Gt -> diff.min() > 0 || known.implies(Comparisons.Result.GT);
		case Ge -> diff.min() >= 0 || known.implies(Comparisons.Result.GE);
		case Eq -> diff.isConst(0) || known.implies(Comparisons.Result.EQ);
		default -> diff.min() > 0 || diff.max() < 0 || known.implies(Comparisons.Result.NE);
		};
	}

	/**
	 * Enters the constraint of a branch (its condition, or the negated condition for the else branch);
	 * the returned action leaves it.
	 */
	public Runnable enterConstraint(Expr constraint) {
		Expr normalized = rewrite.apply(constraint);
		List<Runnable> recovery = new ArrayList<>();
		recovery.add(bounds.enterConstraint(normalized));
		recovery.add(comparisons.enterConstraint(normalized));
		return () -> {
			for (int i = recovery.size() - 1; i >= 0; i--) {
				recovery.get(i).run();
			}
		};
	}

	static Span none() {
		return Span.NONE;
	}
}
