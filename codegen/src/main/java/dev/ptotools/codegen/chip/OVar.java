package dev.ptotools.codegen.chip;

/**
 * A variable of the lowered orchestration IR, compared by identity like pypto's {@code Var}: without
 * SSA, reassigning a Python name reuses its Var, while loop carries, phis and the tuple temporaries
 * of unpacking are fresh Vars that may share a name hint.
 */
final class OVar {

	enum Kind {
		/** A parameter, a local, a loop variable. */
		PLAIN,
		/** A loop-carried value inside the loop ({@code for i, (acc,) in pl.range(..., init_values=...)}). */
		ITER_ARG,
		/** A {@code pl.dynamic("M")} symbol: a shape extent usable as a value. */
		DYN_DIM
	}

	final String hint;
	final OType type;
	final Kind kind;
	/** The initial value of an iter arg, else null. */
	final OExpr init;

	OVar(String hint, OType type) {
		this(hint, type, Kind.PLAIN, null);
	}

	OVar(String hint, OType type, Kind kind, OExpr init) {
		this.hint = hint;
		this.type = type;
		this.kind = kind;
		this.init = init;
	}

	@Override
	public String toString() {
		return hint;
	}
}
