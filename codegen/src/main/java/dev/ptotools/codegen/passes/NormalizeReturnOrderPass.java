package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's normalize_return_order (NormalizeReturnOrder): Makes kernel returns the written-through params themselves and orders AIC/AIV returns by Out param, remapping callers' tuple indices.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class NormalizeReturnOrderPass implements Pass {

	@Override
	public String name() {
		return "NormalizeReturnOrder";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.ReturnParamsExplicit);
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
