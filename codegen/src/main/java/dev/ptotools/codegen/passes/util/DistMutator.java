package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * The IrMutator the distributed passes share, with two behaviours of pypto's IRMutator they rely on: a
 * statement list that changed is rebuilt with {@code SeqStmts::Flatten} (a statement a pass replaced by a
 * list is spliced into its parent), and uses of a variable in {@link #remap} are replaced
 * ({@code var_remap_}), at their definitions as well.
 */
public class DistMutator extends IrMutator {

	/** Variable uses to replace (pypto's var_remap_); keyed by identity, as Var's equals is. */
	protected final Map<Var, Var> remap = new HashMap<>();

	/** A mutator that only replaces the variables of substitution (pypto's transform_utils::Substitute). */
	public void remapAll(Map<Var, Var> substitution) {
		remap.putAll(substitution);
	}

	@Override
	public Expr var(Var v) {
		Var r = remap.get(v);
		return r == null ? v : r;
	}

	/** Definitions are remapped too: pypto's mutator visits an assignment's target as an expression. */
	@Override
	public Var defVar(Var v) {
		Var r = remap.get(v);
		return r == null ? v : r;
	}

	@Override
	public Stmt seq(Stmt.Seq q) {
		List<Stmt> out = new ArrayList<>(q.stmts().size());
		boolean changed = false;
		for (Stmt s : q.stmts()) {
			Stmt n = stmt(s);
			changed |= n != s;
			out.add(n);
		}
		return changed ? flatten(out, q.span()) : q;
	}

	/**
	 * pypto's {@code SeqStmts::Flatten}: statement lists among stmts are spliced in (two levels deep, as
	 * pypto does), and a single statement stands for itself.
	 */
	public static Stmt flatten(List<Stmt> stmts, Span span) {
		List<Stmt> flat = new ArrayList<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Seq q) {
				for (Stmt inner : q.stmts()) {
					if (inner instanceof Stmt.Seq iq) {
						flat.addAll(iq.stmts());
					} else {
						flat.add(inner);
					}
				}
			} else {
				flat.add(s);
			}
		}
		return flat.size() == 1 ? flat.get(0) : new Stmt.Seq(flat, span);
	}
}
