package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's lower_auto_vector_split (LowerAutoVectorSplit): Stamps split / split_aiv attributes on InCore functions with a pl.split mode or pl.split_aiv regions.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class LowerAutoVectorSplitPass implements Pass {

	@Override
	public String name() {
		return "LowerAutoVectorSplit";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
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
