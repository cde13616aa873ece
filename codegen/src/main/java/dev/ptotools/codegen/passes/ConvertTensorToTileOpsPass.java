package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's convert_tensor_to_tile_ops (ConvertTensorToTileOps): Signature effects of tensor-to-tile conversion: kernels returning a tile gain ret<i>__out Out params, call sites gain ret<i>__out = tensor.create(...), written params are upgraded Out/InOut and directions propagate to callers.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class ConvertTensorToTileOpsPass implements Pass {

	@Override
	public String name() {
		return "ConvertTensorToTileOps";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.SplitIncoreOrch, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.NormalizedStmtStructure);
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
