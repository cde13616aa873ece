package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's unroll_loops (UnrollLoops): Expands pl.unroll loops into their iterations.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class UnrollLoopsPass implements Pass {

	@Override
	public String name() {
		return "UnrollLoops";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.UnrollResolved);
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
