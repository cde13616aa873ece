package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * An IrMutator that behaves like pypto's IRMutator where the base one differs: uses of a Var in
 * {@link #remap} are replaced by its expression (pypto's {@code var_remap_}); an iter arg rebuilt
 * because its init value changed replaces the old one in the loop body (the base mutator builds the new
 * IterArg but does not redirect the body's uses to it); and a changed Seq is rebuilt with
 * {@link #flatten} (pypto's {@code SeqStmts::Flatten}), so a statement replaced by a Seq or by an empty
 * Seq does not leave a nested one behind.
 */
public class VarRemapMutator extends IrMutator {

	/** Var -> the expression its uses become. */
	public final Map<Var, Expr> remap = new HashMap<>();

	@Override
	public Expr var(Var v) {
		Expr r = remap.get(v);
		return r != null ? r : v;
	}

	@Override
	public List<IterArg> iterArgs(List<IterArg> iters) {
		List<IterArg> out = null;
		for (int i = 0; i < iters.size(); i++) {
			IterArg a = iters.get(i);
			Expr init = expr(a.init());
			IterArg n = init == a.init() ? a : a.withInit(init);
			if (n != a) {
				remap.put(a, n);
				if (out == null) {
					out = new ArrayList<>(iters.subList(0, i));
				}
			}
			if (out != null) {
				out.add(n);
			}
		}
		return out == null ? iters : out;
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

	/** pypto's SeqStmts::Flatten: nested Seqs spliced in, a single statement unwrapped. */
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
