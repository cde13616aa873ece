package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's materialize_comm_domain_scopes (MaterializeCommDomainScopes): Traces window allocations through views to dispatches in HOST orchestrators and wraps their bodies in comm-domain scopes.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class MaterializeCommDomainScopesPass implements Pass {

	@Override
	public String name() {
		return "MaterializeCommDomainScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
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
