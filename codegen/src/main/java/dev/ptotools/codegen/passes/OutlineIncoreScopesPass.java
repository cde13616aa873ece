package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's outline_incore_scopes (OutlineIncoreScopes): Outlines pl.at(level=CORE_GROUP) scopes into InCore functions <f>_incore_N (params = live-ins in first-read order, returns = values used after).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class OutlineIncoreScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineIncoreScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.SplitIncoreOrch);
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
