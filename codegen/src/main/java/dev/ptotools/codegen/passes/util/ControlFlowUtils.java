package dev.ptotools.codegen.passes.util;

import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;

/**
 * Structural helpers over loop and scope bodies (pypto's transform_utils): the trailing yield of a
 * body, the body under compiler-inserted AUTO scopes, and constant loop bounds and trip counts.
 */
public final class ControlFlowUtils {

	private ControlFlowUtils() {
	}

	/**
	 * The yield at the end of a body (pypto's GetLastYieldStmt): only the last statement of each Seq is
	 * looked at; runtime scopes and split-AIV scopes are transparent.
	 */
	public static Stmt.Yield lastYield(Stmt body) {
		if (body instanceof Stmt.Seq q) {
			return q.stmts().isEmpty() ? null : lastYield(q.stmts().get(q.stmts().size() - 1));
		}
		if (body instanceof Stmt.RuntimeScope r) {
			return lastYield(r.body());
		}
		if (body instanceof Stmt.SplitAivScope s) {
			return lastYield(s.body());
		}
		return body instanceof Stmt.Yield y ? y : null;
	}

	/**
	 * The statement under AUTO runtime scopes and single-statement Seqs (pypto's UnwrapAutoScope); a
	 * MANUAL scope is opaque.
	 */
	public static Stmt unwrapAutoScope(Stmt s) {
		if (s instanceof Stmt.RuntimeScope r && !r.manual()) {
			return unwrapAutoScope(r.body());
		}
		if (s instanceof Stmt.Seq q && q.stmts().size() == 1) {
			return unwrapAutoScope(q.stmts().get(0));
		}
		return s;
	}

	/** A ConstInt's value or the negation of one (pypto's EvalConstInt), else null. */
	public static Long constInt(Expr e) {
		if (e instanceof Expr.ConstInt c) {
			return c.value();
		}
		if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.Neg && u.operand() instanceof Expr.ConstInt c
				&& c.value() != Long.MIN_VALUE) {
			return -c.value();
		}
		return null;
	}

	/** The trip count of a loop whose bounds are constants, else null (pypto's EvalConstTripCount). */
	public static Long constTripCount(Stmt.For f) {
		Long start = constInt(f.start());
		Long stop = constInt(f.stop());
		Long step = constInt(f.step());
		if (start == null || stop == null || step == null) {
			return null;
		}
		return staticTripCount(start, stop, step);
	}

	/** Direction-aware trip count, 0 for an empty or zero-step loop, saturating at Long.MAX_VALUE. */
	public static long staticTripCount(long start, long stop, long step) {
		boolean ascending = step > 0 && start < stop;
		boolean descending = step < 0 && start > stop;
		if (!ascending && !descending) {
			return 0;
		}
		long span = ascending ? stop - start : start - stop; // unsigned magnitude
		long magnitude = ascending ? step : -step;
		long trips = Long.divideUnsigned(span + magnitude - 1, magnitude);
		return trips < 0 ? Long.MAX_VALUE : trips;
	}

	/** The statements of a Seq, or the statement itself. */
	public static List<Stmt> flatten(Stmt s) {
		return Stmt.flatten(s);
	}
}
