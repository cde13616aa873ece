package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's optimize_orch_tensors (OptimizeOrchTensors): Merges loop-carried Out buffers into InOut params (removing their tensor.create) and records parent strides on params.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class OptimizeOrchTensorsPass implements Pass {

	@Override
	public String name() {
		return "OptimizeOrchTensors";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
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
