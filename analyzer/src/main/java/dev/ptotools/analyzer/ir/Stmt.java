package dev.ptotools.analyzer.ir;

import java.util.List;

/** Statements of DSL function bodies. */
public sealed interface Stmt {

	Span span();

	/**
	 * {@code t1 = t2 = value} or {@code t: ann = value}. Targets are names, tuples, subscripts or
	 * attributes; annotation is null when absent; value is null for a bare annotation.
	 */
	record Assign(List<Expr> targets, Expr value, Expr annotation, Span span) implements Stmt {
	}

	record AugAssign(Expr target, String op, Expr value, Span span) implements Stmt {
	}

	record ExprStmt(Expr value, Span span) implements Stmt {
	}

	/**
	 * {@code for target in iter: body}. headerSpan covers {@code for ... :}, keywordSpan the word
	 * {@code for}. iter is any expression; DSL loops call pl.range and its siblings.
	 */
	record For(Expr target, Expr iter, List<Stmt> body, List<Stmt> orelse, Span span, Span headerSpan,
			Span keywordSpan) implements Stmt {
	}

	record While(Expr test, List<Stmt> body, List<Stmt> orelse, Span span, Span headerSpan) implements Stmt {
	}

	/** if/elif/else; an elif is an If alone in the orelse of its parent, with elif = true. */
	record If(Expr test, List<Stmt> body, List<Stmt> orelse, boolean elif, Span span, Span headerSpan)
			implements Stmt {
	}

	record With(List<WithItem> items, List<Stmt> body, Span span, Span headerSpan) implements Stmt {
	}

	record WithItem(Expr context, Expr target) {
	}

	record Return(Expr value, Span span) implements Stmt {
	}

	record Break(Span span) implements Stmt {
	}

	record Continue(Span span) implements Stmt {
	}

	record Pass(Span span) implements Stmt {
	}

	/**
	 * {@code try}: only in the plain Python of a {@link Script} (DSL bodies keep it as {@link Other}), so
	 * that the calls it holds are seen. {@code handlers} are the bodies of the except clauses.
	 */
	record Try(List<Stmt> body, List<List<Stmt>> handlers, List<Stmt> orelse, List<Stmt> finalbody, Span span)
			implements Stmt {
	}

	/** {@code raise exc}: only in the plain Python of a {@link Script}; exc is null for a bare raise. */
	record Raise(Expr exc, Span span) implements Stmt {
	}

	/**
	 * A statement the DSL does not support (try, del, import, nested def...), by kind; or, of kind
	 * {@link #RECOVERED}, a piece of a broken statement that the parser's error recovery left behind.
	 */
	record Other(String kind, Span span) implements Stmt {

		/** The kind of what the parser's error recovery left in a statement list (no statement of the source). */
		public static final String RECOVERED = "recovered";

		public boolean recovered() {
			return kind.equals(RECOVERED);
		}
	}
}
