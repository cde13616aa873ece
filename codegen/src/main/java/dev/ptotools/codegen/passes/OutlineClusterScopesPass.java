package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's outline_cluster_scopes (OutlineClusterScopes): Outlines pl.cluster scopes into Group functions and pl.spmd scopes into Spmd functions.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class OutlineClusterScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineClusterScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.ClusterOutlined);
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
