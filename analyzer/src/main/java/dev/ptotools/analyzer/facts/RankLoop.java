package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The grouped-dispatch verdict on one rank loop: a for loop of a HOST orchestrator that iterates the
 * world size or dispatches with {@code device=<its variable>}.
 *
 * @param loopVar the loop variable, or null for a tuple target
 * @param checks every condition with whether it holds, in checking order
 * @param failed the first condition that does not hold; null when the loop is grouped
 * @param dispatches every CHIP-orchestrator dispatch in the body, nested ones included
 * @param offending the statements that break the view-only rule, in order
 * @param groupId stable id of a grouped loop ("host_orch/rank_loop_0"), null when not grouped
 */
public record RankLoop(Program program, Function function, Stmt.For loop, String loopVar, List<Check> checks,
		Condition failed, List<Expr.Call> dispatches, List<Stmt> offending, String groupId) {

	/** One condition on one loop, with a reason when it fails and where. */
	public record Check(Condition condition, boolean holds, String detail, Span where,
			List<Diagnostic.Related> related) {
	}

	public boolean grouped() {
		return failed == null;
	}

	public Check failedCheck() {
		for (Check c : checks) {
			if (c.condition() == failed) {
				return c;
			}
		}
		return null;
	}

	/** The reason a person reads: "dispatch under if" or "all ranks start together". */
	public String reason() {
		Check c = failedCheck();
		return c == null ? "all ranks start together" : c.detail();
	}

	/** The one dispatch of an eligible (or nearly eligible) loop, or null. */
	public Expr.Call dispatch() {
		return dispatches.size() == 1 ? dispatches.get(0) : null;
	}
}
