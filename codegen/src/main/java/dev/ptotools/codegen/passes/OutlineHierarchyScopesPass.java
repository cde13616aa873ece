package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's OutlineHierarchyScopes (src/ir/transforms/outline_hierarchy_scopes_pass.cpp): in Opaque
 * functions, every {@code with pl.at(level=L, role=R)} above the core group becomes an Opaque function
 * carrying that level and role, named {@code <parent>_<level>[_orch|_sub_worker]_<k>} or the scope's
 * name hint. Store targets are not exported (the buffer is a parameter either way). The parent keeps its
 * type; nested hierarchy scopes get chained names.
 */
public final class OutlineHierarchyScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineHierarchyScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.HierarchyOutlined, IrProperty.OrchestrationReferencesResolved);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Set<String> reserved = new HashSet<>();
		program.functions().forEach(f -> reserved.add(f.name()));
		List<Function> outlined = new ArrayList<>();
		List<Function> rest = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.sortedByName()) {
			if (f.type() != FunctionType.Opaque) {
				rest.add(f);
				continue;
			}
			ScopeOutliner o = new ScopeOutliner(f.name(), VarCollectors.Symbols.of(f.params(), f.body()),
					ScopeOutliner.Kind.Hierarchy, FunctionType.Opaque, "_hierarchy_", null, reserved);
			rest.add(f.withBody(o.stmt(f.body())));
			outlined.addAll(o.outlined());
			changed |= !o.outlined().isEmpty();
		}
		if (!changed) {
			return program;
		}
		outlined.addAll(rest);
		return program.withFunctions(outlined);
	}
}
