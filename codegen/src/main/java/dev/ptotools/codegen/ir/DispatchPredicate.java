package dev.ptotools.codegen.ir;

/**
 * The shape of a dispatch predicate ({@code predicate=(t[i] > 0)}), shared by the front end that checks
 * it and the orchestration codegen that writes it: one comparison between a {@code tensor.read} of one
 * element and an integer constant, either way round, casts seen through.
 */
public final class DispatchPredicate {

	private DispatchPredicate() {
	}

	public static boolean isRead(Expr e) {
		return e instanceof Expr.Call c && c.isOp("tensor.read");
	}

	/** The expression under any casts the DSL put around it. */
	public static Expr stripCast(Expr e) {
		while (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.Cast) {
			e = u.operand();
		}
		return e;
	}
}
