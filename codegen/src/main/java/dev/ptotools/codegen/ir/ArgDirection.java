package dev.ptotools.codegen.ir;

/**
 * pypto's call-site {@code ArgDirection} (include/pypto/ir/expr.h), the element type of a call's
 * {@code attrs["arg_directions"]} list ({@link #ATTR}): how the runtime treats each argument of a task.
 */
public enum ArgDirection {
	Input, Output, InOut, OutputExisting, NoDep, Scalar;

	/** The attribute key of a call's per-argument directions (pypto's {@code kAttrArgDirections}). */
	public static final String ATTR = "arg_directions";
}
