package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * One transformation of the program IR, named after the pypto pass it ports (pypto's {@code Pass}):
 * it states the properties it needs and produces, and maps a program to a new one without mutating
 * it. A pass that rejects the program throws {@link dev.ptotools.codegen.support.CodegenException}
 * with pypto's message and the span it points at.
 */
public interface Pass {

	/** pypto's pass name ({@code Pass::GetName()}), e.g. "ConvertToSSA". */
	String name();

	default Set<IrProperty> requires() {
		return Set.of();
	}

	default Set<IrProperty> produces() {
		return Set.of();
	}

	default Set<IrProperty> invalidates() {
		return Set.of();
	}

	Program run(Program program, PassContext ctx);
}
