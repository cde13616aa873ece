package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's expand_mixed_kernel (ExpandMixedKernel): Classifies each InCore function by the cores its statements use: AIC, AIV, or a mixed kernel split into <k>_aic, <k>_aiv and a Group <k>.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class ExpandMixedKernelPass implements Pass {

	@Override
	public String name() {
		return "ExpandMixedKernel";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch, IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded, IrProperty.NormalizedStmtStructure);
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
