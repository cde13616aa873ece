package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's classify_iter_arg_carry (ClassifyIterArgCarry): Stamps each orchestration loop carry as trivial or rebind (iter_arg_rebind_i) and sizes TaskId array carries.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class ClassifyIterArgCarryPass implements Pass {

	@Override
	public String name() {
		return "ClassifyIterArgCarry";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CallDirectionsResolved, IrProperty.RuntimeScopesMaterialized);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.IterArgCarryClassified, IrProperty.RuntimeScopesMaterialized);
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
