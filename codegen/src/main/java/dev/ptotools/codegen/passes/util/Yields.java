package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The trailing yield of a loop or branch body, found and replaced as pypto's ConvertToSSA does
 * ({@code ExtractYield} / {@code ReplaceOrAppendYield}): a runtime scope ({@code pl.scope()}) and a
 * split-AIV region are transparent, the yield stays inside them.
 */
public final class Yields {

	private Yields() {
	}

	/** The yield that ends s, or null. */
	public static Stmt.Yield trailing(Stmt s) {
		assertNoMidBodyYield(s);
		if (s instanceof Stmt.Yield y) {
			return y;
		}
		if (s instanceof Stmt.RuntimeScope r) {
			return trailing(r.body());
		}
		if (s instanceof Stmt.SplitAivScope a) {
			return trailing(a.body());
		}
		if (s instanceof Stmt.Seq q && !q.stmts().isEmpty()) {
			return trailing(q.stmts().get(q.stmts().size() - 1));
		}
		return null;
	}

	/** s with its trailing yield replaced by {@code yield vals}, or with that yield appended. */
	public static Stmt replaceOrAppend(Stmt s, List<Expr> vals, Span span) {
		assertNoMidBodyYield(s);
		Stmt.Yield yield = new Stmt.Yield(vals, span);
		if (s instanceof Stmt.RuntimeScope r) {
			return r.withBody(replaceOrAppend(r.body(), vals, span));
		}
		if (s instanceof Stmt.SplitAivScope a) {
			return a.withBody(replaceOrAppend(a.body(), vals, span));
		}
		if (s instanceof Stmt.Seq q) {
			List<Stmt> stmts = new ArrayList<>(q.stmts());
			if (!stmts.isEmpty() && trailing(stmts.get(stmts.size() - 1)) != null) {
				stmts.set(stmts.size() - 1, replaceOrAppend(stmts.get(stmts.size() - 1), vals, span));
			} else {
				stmts.add(yield);
			}
			return Stmts.flatten(stmts, q.span());
		}
		if (s instanceof Stmt.Yield) {
			return yield;
		}
		return Stmts.flatten(List.of(s, yield), span);
	}

	/** pypto's invariant: a yield may only end its body. */
	public static void assertNoMidBodyYield(Stmt s) {
		if (s instanceof Stmt.Seq q) {
			for (int i = 0; i + 1 < q.stmts().size(); i++) {
				if (q.stmts().get(i) instanceof Stmt.Yield y) {
					throw new CodegenException("internal error: a yield statement must end its body (position " + i + " of "
							+ q.stmts().size() + ")", y.span());
				}
			}
		}
	}
}
