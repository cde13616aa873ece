package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's auto_derive_task_dependencies (AutoDeriveTaskDependencies): Compiler-derived task dependencies; with the default analyze_auto_scopes=False it leaves the program unchanged, as pypto's does.
 *
 * <p>Not ported yet: the program passes through unchanged.
 */
public final class AutoDeriveTaskDependenciesPass implements Pass {

	@Override
	public String name() {
		return "AutoDeriveTaskDependencies";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CallDirectionsResolved);
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
