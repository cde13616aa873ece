package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's derive_call_directions (DeriveCallDirections): Stamps attrs['arg_directions'] on every call of a program function (Input, InOut, OutputExisting, NoDep, Scalar).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class DeriveCallDirectionsPass implements Pass {

	@Override
	public String name() {
		return "DeriveCallDirections";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CallDirectionsResolved);
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
