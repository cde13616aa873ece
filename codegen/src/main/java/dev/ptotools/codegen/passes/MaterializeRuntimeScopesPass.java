package dev.ptotools.codegen.passes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;

/**
 * pypto's materialize_runtime_scopes (MaterializeRuntimeScopes,
 * src/ir/transforms/materialize_runtime_scopes_pass.cpp): the runtime scopes the orchestration codegen
 * prints as {@code PTO2_SCOPE() {} } become explicit AUTO scope statements. In an orchestration function
 * every for body and every if branch outside a MANUAL scope is wrapped, then the whole body, unless
 * already an AUTO scope; the function is stamped {@code auto_scope=False} (which also makes a second run
 * a no-op). A function the user declared {@code auto_scope=False} is left as written.
 *
 * <p>pypto's compiler-chosen MANUAL variants need the {@code __compiler_auto_manual_*} marks that only
 * AutoDeriveTaskDependencies with {@code analyze_auto_scopes=True} writes; the default pipeline never
 * does (see {@link AutoDeriveTaskDependenciesPass}), so they are not ported.
 */
public final class MaterializeRuntimeScopesPass implements Pass {

	@Override
	public String name() {
		return "MaterializeRuntimeScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.RuntimeScopesMaterialized);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		java.util.List<Function> out = new java.util.ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			Function n = materialize(f);
			changed |= n != f;
			out.add(n);
		}
		return changed ? program.withFunctions(out) : program;
	}

	static Function materialize(Function f) {
		if (f.body() == null || !f.isOrchestration() || Boolean.FALSE.equals(f.attr("auto_scope"))) {
			return f;
		}
		Stmt inner = new InsertAutoScopes().stmt(f.body());
		Stmt body = isAutoScope(inner) ? inner : wrapAuto(inner);
		Map<String, Object> attrs = new LinkedHashMap<>();
		for (Map.Entry<String, Object> e : f.attrs().entrySet()) {
			if (!e.getKey().equals("auto_scope")) {
				attrs.put(e.getKey(), e.getValue());
			}
		}
		attrs.put("auto_scope", false);
		return new Function(f.name(), f.type(), f.params(), f.directions(), f.returnTypes(), body, f.level(), f.role(),
				attrs, f.span());
	}

	/** An AUTO scope, seen through a one-statement Seq. */
	static boolean isAutoScope(Stmt s) {
		if (s instanceof Stmt.RuntimeScope r) {
			return !r.manual();
		}
		return s instanceof Stmt.Seq q && q.stmts().size() == 1 && isAutoScope(q.stmts().get(0));
	}

	static Stmt wrapAuto(Stmt body) {
		return new Stmt.RuntimeScope("", false, body, body.span());
	}

	/** pypto's InsertAutoScopeMutator: for bodies and if branches outside MANUAL scopes. */
	private static final class InsertAutoScopes extends IrMutator {
		private int manualDepth;

		@Override
		public Stmt scope(Stmt.Scope s) {
			boolean manual = s instanceof Stmt.RuntimeScope r && r.manual();
			manualDepth += manual ? 1 : 0;
			Stmt out = super.scope(s);
			manualDepth -= manual ? 1 : 0;
			return out;
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			Stmt base = super.forStmt(f);
			if (manualDepth > 0 || !(base instanceof Stmt.For nf) || nf.body() == null || isAutoScope(nf.body())) {
				return base;
			}
			return nf.withBody(wrapAuto(nf.body()));
		}

		@Override
		public Stmt ifStmt(Stmt.If i) {
			Stmt base = super.ifStmt(i);
			if (manualDepth > 0 || !(base instanceof Stmt.If ni)) {
				return base;
			}
			boolean changed = false;
			Stmt then = ni.then();
			if (then != null && !isAutoScope(then)) {
				then = wrapAuto(then);
				changed = true;
			}
			Stmt orelse = ni.orelse();
			if (orelse != null && !isAutoScope(orelse)) {
				orelse = wrapAuto(orelse);
				changed = true;
			}
			return changed ? new Stmt.If(ni.condition(), then, orelse, ni.returnVars(), ni.span()) : base;
		}
	}
}
