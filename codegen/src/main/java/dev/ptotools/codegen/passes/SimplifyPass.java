package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DeadCode;
import dev.ptotools.codegen.passes.util.SimplifyMutator;
import dev.ptotools.codegen.passes.util.Stmts;

/**
 * pypto's simplify (Simplify, src/ir/transforms/simplify_pass.cpp), run twice in the default pipeline:
 * arithmetic folding and canonicalisation of every scalar expression ({@code 64 * i} -> {@code i * 64},
 * {@code n > 0} -> {@code 0 < n}), constant propagation of top-level scalar constants, removal of loops
 * that provably run zero or one time and of branches whose condition is decided, then removal of unused
 * call-free scalar assignments and unused branch return vars.
 */
public final class SimplifyPass implements Pass {

	@Override
	public String name() {
		return "Simplify";
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			out.add(simplify(f));
		}
		return program.withFunctions(out);
	}

	static Function simplify(Function f) {
		if (f.body() == null) {
			return f;
		}
		Stmt body = new SimplifyMutator(multiAssigned(f.body())).stmt(f.body());
		List<Stmt> flat = Stmts.topLevel(body);
		List<Stmt> pruned = DeadCode.deadScalarAssignments(flat);
		pruned = DeadCode.deadIfReturnVars(pruned);
		pruned = DeadCode.deadScalarAssignments(pruned);
		boolean changed = pruned.size() != flat.size();
		for (int i = 0; !changed && i < pruned.size(); i++) {
			changed = pruned.get(i) != flat.get(i);
		}
		Stmt result = changed ? Stmts.flatten(pruned, body.span()) : body;
		return result == f.body() ? f : f.withBody(result);
	}

	/** Vars assigned more than once (never bound to a value; none after SSA). */
	private static Set<Var> multiAssigned(Stmt body) {
		Set<Var> seen = new HashSet<>();
		Set<Var> multi = new HashSet<>();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a && !seen.add(a.var())) {
					multi.add(a.var());
				}
				super.stmt(s);
			}
		}.stmt(body);
		return multi;
	}
}
