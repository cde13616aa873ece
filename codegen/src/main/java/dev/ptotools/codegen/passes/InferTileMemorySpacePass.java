package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's infer_tile_memory_space (InferTileMemorySpace): Assigns every tile its memory space and inserts the tile.move a consumer needs (the cube/vector boundaries ExpandMixedKernel classifies).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class InferTileMemorySpacePass implements Pass {

	@Override
	public String name() {
		return "InferTileMemorySpace";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
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
