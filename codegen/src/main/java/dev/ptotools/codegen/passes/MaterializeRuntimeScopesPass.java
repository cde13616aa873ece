package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's materialize_runtime_scopes (MaterializeRuntimeScopes): Wraps orchestration bodies, loop bodies and branches in AUTO runtime scopes (PTO2_SCOPE), outside manual scopes.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class MaterializeRuntimeScopesPass implements Pass {

	@Override
	public String name() {
		return "MaterializeRuntimeScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.RuntimeScopesMaterialized);
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
