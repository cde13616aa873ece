package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's convert_to_ssa (ConvertToSSA): Gives every definition its own Var (x__ssa_vN, i__idx_vN), loop carries iter args and return vars (x__iter_vN, x__rv_vN), branch merges phis (x__phi_vN).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class ConvertToSSAPass implements Pass {

	@Override
	public String name() {
		return "ConvertToSSA";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of(IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		return program;
	}
}
