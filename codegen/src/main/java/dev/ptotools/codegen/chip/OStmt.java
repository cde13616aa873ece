package dev.ptotools.codegen.chip;

import java.util.List;

import dev.ptotools.analyzer.ir.Span;

/** Statements of the lowered orchestration IR, after pypto's MaterializeRuntimeScopes. */
sealed interface OStmt {

	record Assign(OVar var, OExpr value, Span span) implements OStmt {
	}

	record Eval(OExpr value, Span span) implements OStmt {
	}

	record Seq(List<OStmt> stmts) implements OStmt {
	}

	/** A runtime scope: {@code PTO2_SCOPE() {}} (AUTO) or {@code PTO2_SCOPE(PTO2ScopeMode::MANUAL) {}}. */
	record Scope(boolean manual, OStmt body) implements OStmt {
	}

	record For(OVar loopVar, OExpr start, OExpr stop, OExpr step, boolean parallel, List<OVar> iterArgs,
			List<OVar> returnVars, OStmt body, Span span) implements OStmt {
	}

	/** if/else; orelse is null without else; returnVars are the phis bound by branch yields. */
	record If(OExpr condition, OStmt then, OStmt orelse, List<OVar> returnVars, Span span) implements OStmt {
	}

	record Yield(List<OExpr> values, Span span) implements OStmt {
	}

	record Return(List<OExpr> values, Span span) implements OStmt {
	}
}
