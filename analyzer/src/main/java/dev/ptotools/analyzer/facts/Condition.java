package dev.ptotools.analyzer.facts;

/**
 * The conditions of grouped dispatch (listed on docs/rules/PTO100.md), in the order a verdict checks
 * them. Each failure has its own rule, so that a reader sees exactly which condition failed and
 * configuration can treat each one on its own.
 */
public enum Condition {
	/** 2: the loop iterates pl.range(pld.world_size()) or an equivalent. */
	FULL_WORLD(2, "PTO101", "iterates all ranks: pl.range(pld.world_size())"),
	/** 3: there is a dispatch of a CHIP orchestrator of the program at all. */
	HAS_DISPATCH(3, "PTO102", "dispatches a CHIP orchestrator of the program"),
	/** 3: the dispatch is not under if/while/inner loop/with. */
	UNCONDITIONAL(3, "PTO103", "dispatches unconditionally (not under if, while, an inner loop or with)"),
	/** 3: exactly one dispatch per iteration. */
	SINGLE_DISPATCH(3, "PTO104", "dispatches exactly once per rank"),
	/** 4: the dispatch carries device=<loop variable>. */
	PINNED(4, "PTO105", "pins the dispatch to the loop variable: device=<v>"),
	/** 5 and 6: every other statement is a pure view; there is no other call or submit. */
	ONLY_VIEWS(5, "PTO106", "every other statement is a pure view (tensor.slice or pld.window)"),
	/** 6: no call hides in the dispatch's own arguments. */
	NO_CALL_IN_ARGUMENTS(6, "PTO107", "no call hides in the dispatch's arguments"),
	/** 7: no init_values=, no pl.yield_. */
	NO_LOOP_STATE(7, "PTO108", "carries no loop state (no init_values=, no pl.yield_)"),
	/** 8: pl.range, not pl.parallel/unroll/pipeline. */
	SEQUENTIAL(8, "PTO109", "is a sequential pl.range loop"),
	/** 8: nothing else in the body: no if, loop, with, return, break, continue. */
	NO_CONTROL_FLOW(8, "PTO110", "has no nested if, loop, with, return, break or continue");

	private final int number;
	private final String rule;
	private final String text;

	Condition(int number, String rule, String text) {
		this.number = number;
		this.rule = rule;
		this.text = text;
	}

	/** The condition's number in PTO100's list (several checks share one). */
	public int number() {
		return number;
	}

	public String rule() {
		return rule;
	}

	/** What holds for an eligible loop, as a sentence fragment ("iterates all ranks..."). */
	public String text() {
		return text;
	}
}
