package dev.ptotools.codegen.frontend;

import dev.ptotools.analyzer.ir.Expr.Keyword;
import dev.ptotools.codegen.ir.DispatchPredicate;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The {@code predicate=(t[i] > 0)} keyword of {@code pl.submit}, {@code pl.spmd_submit} and
 * {@code with pl.spmd(...)} (pypto's _parse_submit_predicate_kwarg and _validate_predicate_shape): an
 * ordinary expression, which must be one comparison of one tensor element with an integer literal, in
 * either order. It rides on the Submit as an attribute; orchestration codegen writes it as the runtime's
 * CoreTaskPredicate (emit/orchestration/Predicates, which also checks the operand's dtype and rank).
 */
final class DispatchPredicates {

	private DispatchPredicates() {
	}

	/** The predicate of a call of {@code method} (the kernel's name for a submit, "pl.spmd()" for the scope). */
	static Expr parse(FunctionParser p, String method, Keyword k) {
		Expr predicate = p.exprs.expr(k.value());
		if (!(predicate instanceof Expr.Binary cmp) || !cmp.op().isComparison()) {
			String got = predicate instanceof Expr.Call c && c.isOp("system.task_invalid")
					? "Call (to dispatch unconditionally, omit predicate= entirely)"
					: kind(predicate);
			throw new CodegenException("'" + method + "' predicate must be a single comparison (==, !=, >, <, >=, <=); got "
					+ got, k.value().span());
		}
		Expr lhs = DispatchPredicate.stripCast(cmp.left());
		Expr rhs = DispatchPredicate.stripCast(cmp.right());
		Expr.Call read = DispatchPredicate.isRead(lhs) && rhs instanceof Expr.ConstInt ? (Expr.Call) lhs
				: DispatchPredicate.isRead(rhs) && lhs instanceof Expr.ConstInt ? (Expr.Call) rhs : null;
		if (read == null) {
			throw new CodegenException("'" + method + "' predicate must compare one tensor element (e.g. t[i]) against an "
					+ "integer literal; the runtime evaluates a single element-vs-constant comparison", k.value().span());
		}
		if (read.args().isEmpty() || !(read.args().get(0).type() instanceof Type.Tensor)) {
			throw new CodegenException("predicate operand must be a tensor, got "
					+ (read.args().isEmpty() ? "nothing" : Types.print(read.args().get(0).type())), k.value().span());
		}
		return predicate;
	}

	/**
	 * pypto's _validate_predicate_deps: when the predicate's tensor was bound from an earlier submit's
	 * result, that submit's TaskId must be in deps= (else the scheduler may read the tensor before it is
	 * written). Only what is provable is rejected: an operand of no tracked producer, or deps holding a
	 * TaskId array, passes.
	 */
	static void checkDeps(String method, Expr predicate, java.util.List<Expr> deps, java.util.Map<Var, Var> producers,
			dev.ptotools.analyzer.ir.Span at) {
		if (!(predicate instanceof Expr.Binary cmp)) {
			return;
		}
		Expr lhs = DispatchPredicate.stripCast(cmp.left());
		Expr read = DispatchPredicate.isRead(lhs) ? lhs : DispatchPredicate.stripCast(cmp.right());
		if (!(read instanceof Expr.Call c) || c.args().isEmpty() || !(c.args().get(0) instanceof Var operand)) {
			return;
		}
		Var tid = producers.get(operand);
		if (tid == null || deps.stream().anyMatch(d -> d.type() instanceof Type.Array || d == tid)) {
			return;
		}
		String tidName = tid.name();
		throw new CodegenException("'" + method + "' predicate reads '" + operand.name() + "', which is produced by the task "
				+ "bound to '" + tidName + "', but '" + tidName + "' is not in deps=", at);
	}



	/** The IR node kind pypto names in the message (its class name). */
	private static String kind(Expr e) {
		if (e instanceof Expr.Binary b) {
			return b.op().name();
		}
		if (e instanceof Expr.Unary u) {
			return u.op().name();
		}
		return e.getClass().getSimpleName();
	}
}
