package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's expand_manual_phase_fence (ExpandManualPhaseFence): Inserts phase-fence barrier dummy tasks before loops in manual scopes whose consumers depend on a TaskId array.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class ExpandManualPhaseFencePass implements Pass {

	@Override
	public String name() {
		return "ExpandManualPhaseFence";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.NoNestedCalls, IrProperty.NormalizedStmtStructure, IrProperty.CallDirectionsResolved);
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
