package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.passes.util.Stmts;

/**
 * pypto's normalize_stmt_structure (NormalizeStmtStructure, src/ir/transforms/utils/
 * normalize_stmt_structure.cpp): bottom-up, a statement list absorbs the lists nested in it and a list of
 * one statement becomes that statement, in every body (function, loop, branch, scope). Empty lists stay.
 * No names or expressions change; later passes (FlattenCallExpr) rely on the shape.
 */
public final class NormalizeStmtStructurePass implements Pass {

	@Override
	public String name() {
		return "NormalizeStmtStructure";
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			out.add(normalize(f));
		}
		return program.withFunctions(out);
	}

	/** One function normalised (also used by passes that must restore the structure they disturb). */
	public static Function normalize(Function f) {
		return new Normalizer().function(f);
	}

	private static final class Normalizer extends IrMutator {
		@Override
		public Stmt seq(Stmt.Seq q) {
			List<Stmt> stmts = new ArrayList<>();
			boolean changed = false;
			for (Stmt s : q.stmts()) {
				Stmt n = stmt(s);
				changed |= n != s;
				if (n instanceof Stmt.Seq nested) {
					changed = true;
					stmts.addAll(nested.stmts());
				} else {
					stmts.add(n);
				}
			}
			if (stmts.size() == 1) {
				return stmts.get(0);
			}
			return changed ? Stmts.flatten(stmts, q.span()) : q;
		}
	}
}
