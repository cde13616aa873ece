package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * Expressions of DSL function bodies. Python constructs the DSL has no meaning for (lambda,
 * comprehensions, f-strings...) are kept as {@link Opaque}, with their sub-expressions, so that
 * nothing in the source is lost to the rules that look for calls.
 */
public sealed interface Expr {

	Span span();

	/** A name: a local, a parameter, a loop variable, a module constant or an import alias. */
	record Name(String id, Span span) implements Expr {
	}

	/** A literal: Long, Double, Boolean, String, or null for None. */
	record Literal(Object value, Span span) implements Expr {
	}

	record BinOp(String op, Expr left, Expr right, Span span) implements Expr {
	}

	record UnaryOp(String op, Expr operand, Span span) implements Expr {
	}

	record Compare(Expr left, List<String> ops, List<Expr> comparators, Span span) implements Expr {
	}

	record BoolOp(String op, List<Expr> values, Span span) implements Expr {
	}

	record Conditional(Expr test, Expr body, Expr orelse, Span span) implements Expr {
	}

	record Attribute(Expr value, String attr, Span span, Span attrSpan) implements Expr {
	}

	/** {@code value[i, j:k]}; slices are {@link SliceExpr} items. */
	record Subscript(Expr value, List<Expr> indices, Span span) implements Expr {
	}

	record SliceExpr(Expr lower, Expr upper, Expr step, Span span) implements Expr {
	}

	record TupleExpr(List<Expr> elts, Span span) implements Expr {
	}

	record ListExpr(List<Expr> elts, Span span) implements Expr {
	}

	record DictExpr(List<Expr> keys, List<Expr> values, Span span) implements Expr {
	}

	record Starred(Expr value, Span span) implements Expr {
	}

	/**
	 * A call. {@code funcText} is the dotted source of the callee when it is a name or attribute
	 * chain ("self.chip", "pl.range", "pld.tensor.window", "f"), else null.
	 */
	record Call(Expr func, String funcText, List<Expr> args, List<Keyword> keywords, Span span, Span parenSpan)
			implements Expr {

		public Keyword keyword(String name) {
			for (Keyword k : keywords) {
				if (name.equals(k.name())) {
					return k;
				}
			}
			return null;
		}
	}

	/** A keyword argument {@code name=value}; name is null for {@code **value}. */
	record Keyword(String name, Expr value, Span span, Span nameSpan) {
	}

	/** A Python construct without DSL meaning; its sub-expressions are kept. */
	record Opaque(String kind, List<Expr> children, Span span) implements Expr {
	}
}
