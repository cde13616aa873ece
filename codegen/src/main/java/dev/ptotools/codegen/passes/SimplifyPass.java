package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's simplify (Simplify): Folds and simplifies scalar arithmetic, propagates top-level integer constants, drops dead scalar assignments, folds single-trip loops and decided ifs.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class SimplifyPass implements Pass {

	@Override
	public String name() {
		return "Simplify";
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
