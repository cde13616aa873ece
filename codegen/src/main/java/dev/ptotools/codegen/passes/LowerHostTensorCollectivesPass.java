package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's lower_host_tensor_collectives (LowerHostTensorCollectives): Lowers host-level tensor collectives to their builtin next-level dispatches.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class LowerHostTensorCollectivesPass implements Pass {

	@Override
	public String name() {
		return "LowerHostTensorCollectives";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CommDomainScopesMaterialized);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CommDomainScopesMaterialized);
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
