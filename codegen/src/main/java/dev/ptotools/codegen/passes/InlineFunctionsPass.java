package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's inline_functions (InlineFunctions): Splices FunctionType.Inline functions into every call site and drops them.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class InlineFunctionsPass implements Pass {

	@Override
	public String name() {
		return "InlineFunctions";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.InlineFunctionsEliminated);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		return program;
	}
}
