package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.passes.util.DimReadFolding;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's OutlineIncoreScopes (src/ir/transforms/outline_incore_scopes_pass.cpp): every
 * {@code with pl.at(level=CORE_GROUP)} scope of an Opaque or Orchestration function becomes an InCore
 * function {@code <parent>_incore_<k>} (or the scope's name hint) called in its place; see
 * {@link ScopeOutliner} for parameters, returns and directions. An Opaque parent that had such a scope
 * becomes the Orchestration function (level CHIP, role Orchestrator); its {@code tensor.dim} reads of
 * parameter dims that are symbols are folded to the symbol first.
 */
public final class OutlineIncoreScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineIncoreScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.SplitIncoreOrch);
	}

	static boolean orchestrationLike(FunctionType t) {
		return t == FunctionType.Orchestration || t == FunctionType.Graph;
	}

	private static boolean hasInCoreScope(Stmt body) {
		boolean[] found = { false };
		new PyptoVisitor() {
			@Override
			protected void scope(Stmt.Scope s) {
				found[0] |= s instanceof Stmt.InCoreScope;
				super.scope(s);
			}
		}.stmt(body);
		return found[0];
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Set<String> reserved = new HashSet<>();
		program.functions().forEach(f -> reserved.add(f.name()));
		List<Function> outlined = new ArrayList<>();
		List<Function> rest = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.sortedByName()) {
			if (f.type() != FunctionType.Opaque && !orchestrationLike(f.type())) {
				rest.add(f);
				continue;
			}
			Stmt body = f.body();
			if (f.type() == FunctionType.Opaque && hasInCoreScope(body)) {
				body = DimReadFolding.foldParamDimReads(f.params(), body);
			}
			ScopeOutliner o = new ScopeOutliner(f.name(), VarCollectors.Symbols.of(f.params(), body),
					ScopeOutliner.Kind.InCore, FunctionType.InCore, "_incore_", null, reserved);
			Stmt newBody = o.stmt(body);
			if (o.outlined().isEmpty() && newBody == f.body()) {
				rest.add(f);
				continue;
			}
			changed = true;
			FunctionType type = o.outlined().isEmpty() || f.type() != FunctionType.Opaque ? f.type()
					: FunctionType.Orchestration;
			Level level = f.level();
			Role role = f.role();
			if (orchestrationLike(type)) {
				level = Level.CHIP;
				role = Role.Orchestrator;
			}
			rest.add(new Function(f.name(), type, f.params(), f.directions(), f.returnTypes(), newBody, level, role,
					f.attrs(), f.span()));
			outlined.addAll(o.outlined());
		}
		if (!changed) {
			return program;
		}
		outlined.addAll(rest);
		return program.withFunctions(outlined);
	}
}
