package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's split_vector_kernel (SplitVectorKernel): Stamps the split and dual_aiv_dispatch attributes of vector kernels.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class SplitVectorKernelPass implements Pass {

	@Override
	public String name() {
		return "SplitVectorKernel";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.VectorKernelSplit, IrProperty.NormalizedStmtStructure);
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
