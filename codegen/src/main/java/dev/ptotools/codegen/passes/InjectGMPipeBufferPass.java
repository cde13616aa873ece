package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's inject_gm_pipe_buffer (InjectGMPipeBuffer): On backends that need one (Ascend910B), gives mixed kernels a __gm_pipe_buffer Out param and their orchestration call sites a gm_pipe_buffer_N tensor.create.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class InjectGMPipeBufferPass implements Pass {

	@Override
	public String name() {
		return "InjectGMPipeBuffer";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded, IrProperty.NormalizedStmtStructure);
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
