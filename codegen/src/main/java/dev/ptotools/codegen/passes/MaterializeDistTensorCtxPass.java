package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's materialize_dist_tensor_ctx (MaterializeDistTensorCtx): Gives every DistributedTensor param a trailing <p>_ctx CommCtx param and every call the matching argument.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class MaterializeDistTensorCtxPass implements Pass {

	@Override
	public String name() {
		return "MaterializeDistTensorCtx";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CommDomainScopesMaterialized, IrProperty.ReturnParamsExplicit);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CommDomainScopesMaterialized, IrProperty.DistTensorCtxMaterialized);
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
