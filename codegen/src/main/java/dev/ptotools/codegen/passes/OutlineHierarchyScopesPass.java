package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's outline_hierarchy_scopes (OutlineHierarchyScopes): Outlines pl.at(level=..., role=...) scopes above the core group into level/role functions.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class OutlineHierarchyScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineHierarchyScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.HierarchyOutlined, IrProperty.OrchestrationReferencesResolved);
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
