package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's normalize_stmt_structure (NormalizeStmtStructure): Normalizes statement nesting (function and scope bodies as SeqStmts, no nested SeqStmts).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class NormalizeStmtStructurePass implements Pass {

	@Override
	public String name() {
		return "NormalizeStmtStructure";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.NormalizedStmtStructure);
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
