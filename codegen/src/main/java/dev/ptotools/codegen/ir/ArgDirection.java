package dev.ptotools.codegen.ir;

/**
 * How a call site passes one argument to a task (pypto's {@code ArgDirection}), stored as a list in a
 * call's {@code attrs["arg_directions"]}: DeriveCallDirections derives it from the callee's parameter
 * directions and the argument's buffer history, and the orchestration codegen maps each entry to one
 * {@code add_*} method of the task arguments.
 */
public enum ArgDirection {
	/** Read only: {@code add_input}. */
	Input("input"),
	/** A buffer the runtime allocates for the task: {@code add_output} of a TensorCreateInfo. */
	Output("output"),
	/** Read and written: {@code add_inout}. */
	InOut("inout"),
	/** Written into an existing buffer with no earlier writer to wait for: {@code add_output}. */
	OutputExisting("output_existing"),
	/** Passed without dependency tracking ({@code pl.no_dep}): {@code add_no_dep}. */
	NoDep("no_dep"),
	/** A scalar value: {@code add_scalar}. */
	Scalar("scalar");

	/** The attrs key the directions are stored under. */
	public static final String ATTR = "arg_directions";

	private final String dslName;

	ArgDirection(String dslName) {
		this.dslName = dslName;
	}

	/** The name after {@code pl.adir.} in pypto's printed IR ("output_existing"). */
	public String dslName() {
		return dslName;
	}

	/** The member a {@code pl.adir.<name>} spelling denotes, or null. */
	public static ArgDirection fromDslName(String name) {
		for (ArgDirection d : values()) {
			if (d.dslName.equals(name)) {
				return d;
			}
		}
		return null;
	}
}
