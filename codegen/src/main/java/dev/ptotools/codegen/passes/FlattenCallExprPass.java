package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's flatten_call_expr (FlattenCallExpr): Hoists nested calls out of arguments, operands, conditions and bounds into t__tmp_vN temporaries.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class FlattenCallExprPass implements Pass {

	@Override
	public String name() {
		return "FlattenCallExpr";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure);
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
