package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's synthesize_allreduce_signals (SynthesizeAllReduceSignals): Gives host allreduce calls without a signal buffer an explicit one.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class SynthesizeAllReduceSignalsPass implements Pass {

	@Override
	public String name() {
		return "SynthesizeAllReduceSignals";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of();
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
