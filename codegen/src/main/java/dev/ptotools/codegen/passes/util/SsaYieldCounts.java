package dev.ptotools.codegen.passes.util;

import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The cardinality half of pypto's SSAVerify (src/ir/verifier/verify_ssa_pass.cpp), which runs after
 * ConvertToSSA: every branch of an if with return vars, and every loop with iter args, ends in a yield
 * of as many values. ConvertToSSA can break this on its own — when a branch yields explicitly and
 * another variable also needs a phi, pypto replaces the user's yield by the phi values only — and pypto
 * then stops with "Verification failed after 'ConvertToSSA'"; so do we, at the same statement, instead
 * of failing later in a pass that trusts the counts.
 */
public final class SsaYieldCounts extends PyptoVisitor {

	private SsaYieldCounts() {
	}

	public static void check(Function f) {
		new SsaYieldCounts().stmt(f.body());
	}

	@Override
	protected void ifStmt(Stmt.If i) {
		int n = i.returnVars().size();
		if (n > 0) {
			branch("then", i.then(), n, i);
			if (i.orelse() == null) {
				fail("IfStmt with return_vars must have else branch", i);
			}
			branch("else", i.orelse(), n, i);
		}
		super.ifStmt(i);
	}

	private static void branch(String which, Stmt body, int n, Stmt.If i) {
		Stmt last = last(body);
		if (!(last instanceof Stmt.Yield y)) {
			fail("IfStmt " + which + " branch must end with YieldStmt when return_vars exist", i);
		} else if (y.values().size() != n) {
			fail("IfStmt " + which + "-branch YieldStmt value count (" + y.values().size() + ") != return_vars count ("
					+ n + ")", i);
		}
	}

	@Override
	protected void forStmt(Stmt.For f) {
		loop("ForStmt", f.iterArgs().size(), f.returnVars().size(), f.body(), f);
		super.forStmt(f);
	}

	@Override
	protected void whileStmt(Stmt.While w) {
		loop("WhileStmt", w.iterArgs().size(), w.returnVars().size(), w.body(), w);
		super.whileStmt(w);
	}

	private static void loop(String kind, int iterArgs, int returnVars, Stmt body, Stmt at) {
		if (iterArgs != returnVars) {
			fail(kind + " iter_args count (" + iterArgs + ") != return_vars count (" + returnVars + ")", at);
		}
		if (iterArgs > 0) {
			Stmt last = last(body);
			if (!(last instanceof Stmt.Yield y)) {
				fail(kind + " with iter_args must have YieldStmt as last statement in body", at);
			} else if (y.values().size() != iterArgs) {
				fail(kind + " YieldStmt value count (" + y.values().size() + ") != iter_args count (" + iterArgs + ")",
						at);
			}
		}
	}

	/** The trailing statement, looking through sequences and the SSA-transparent scopes as pypto's GetLastStmt does. */
	private static Stmt last(Stmt s) {
		while (true) {
			if (s instanceof Stmt.Seq q && !q.stmts().isEmpty()) {
				s = q.stmts().get(q.stmts().size() - 1);
			} else if (s instanceof Stmt.RuntimeScope || s instanceof Stmt.SplitAivScope) {
				s = ((Stmt.Scope) s).body(); // SSA-transparent scopes only, as pypto's GetLastStmt
			} else {
				return s;
			}
		}
	}

	private static void fail(String message, Stmt at) {
		throw new CodegenException("Verification failed after 'ConvertToSSA' (SSAForm): " + message, at.span());
	}
}
