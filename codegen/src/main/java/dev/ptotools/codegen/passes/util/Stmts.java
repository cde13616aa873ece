package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Stmt;

/** Statement-list helpers with pypto's exact semantics (the shape of bodies affects later passes). */
public final class Stmts {

	private Stmts() {
	}

	/**
	 * pypto's {@code SeqStmts::Flatten}: splices child Seqs and their child Seqs (two levels, not more) into
	 * one list; a single statement is returned bare, an empty list as an empty Seq.
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

	/** pypto's {@code FlattenToStmts} for a function body: the statements of a top-level Seq, else the body. */
	public static List<Stmt> topLevel(Stmt body) {
		if (body instanceof Stmt.Seq q) {
			return q.stmts();
		}
		return body == null ? List.of() : List.of(body);
	}
}
