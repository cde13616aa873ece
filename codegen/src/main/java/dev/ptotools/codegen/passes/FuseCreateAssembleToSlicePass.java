package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's fuse_create_assemble_to_slice (FuseCreateAssembleToSlice): Turns a tensor.create that is assembled exactly once into its target into a slice of the target.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class FuseCreateAssembleToSlicePass implements Pass {

	@Override
	public String name() {
		return "FuseCreateAssembleToSlice";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of();
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
