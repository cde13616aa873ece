package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's ctrl_flow_transform (CtrlFlowTransform): Rewrites break/continue in InCore/AIC/AIV functions into structured control flow (orchestration code is untouched).
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class CtrlFlowTransformPass implements Pass {

	@Override
	public String name() {
		return "CtrlFlowTransform";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.StructuredCtrlFlow);
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
