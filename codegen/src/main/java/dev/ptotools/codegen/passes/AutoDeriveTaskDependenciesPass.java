package dev.ptotools.codegen.passes;

import java.util.Set;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's auto_derive_task_dependencies (AutoDeriveTaskDependencies,
 * src/ir/transforms/auto_derive_task_dependencies_pass.cpp), as the default pipeline runs it: the
 * identity.
 *
 * <p>pypto's default pipeline builds this pass with {@code analyze_auto_scopes=False}
 * ({@code compile(analyze_auto_scopes_for_deps=False)} is the default). With the flag off the pass
 * opens no analysis frame for AUTO scopes or the whole body, leaves every RuntimeScopeStmt as it is,
 * and never analyses user MANUAL scopes, so it writes no {@code compiler_manual_dep_edges}, rewrites
 * no directions to NoDep/OutputExisting and sets no {@code __compiler_auto_manual_*} attributes: the
 * program comes out unchanged. The compiler-derived dependency machinery of the orchestration codegen
 * that those attributes would drive is therefore dormant for programs compiled by default, and the
 * codegen rejects IR that carries them (see dev.ptotools.codegen.emit.orchestration).
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
		return program; // analyze_auto_scopes=False: see the class comment
	}
}
