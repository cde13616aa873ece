package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's materialize_valid_shape_symbols (MaterializeValidShapeSymbols): Prepends a Scalar[INDEX] param for each valid_shape symbol a kernel cannot bind, and the actual extent to every call.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class MaterializeValidShapeSymbolsPass implements Pass {

	@Override
	public String name() {
		return "MaterializeValidShapeSymbols";
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
