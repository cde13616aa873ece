package dev.ptotools.codegen.frontend.unparse;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.language.python.ComplexLiteral;
import dev.ptotools.language.python.DottedNameExpr;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.MappingEntry;
import dev.ptotools.language.python.MappingItem;
import dev.ptotools.language.python.MappingRest;
import dev.ptotools.language.python.MatchAs;
import dev.ptotools.language.python.MatchClass;
import dev.ptotools.language.python.MatchKeyword;
import dev.ptotools.language.python.MatchMapping;
import dev.ptotools.language.python.MatchName;
import dev.ptotools.language.python.MatchOr;
import dev.ptotools.language.python.MatchSequence;
import dev.ptotools.language.python.MatchSingleton;
import dev.ptotools.language.python.MatchStar;
import dev.ptotools.language.python.MatchValue;
import dev.ptotools.language.python.Num;
import dev.ptotools.language.python.Pattern;

/**
 * The match patterns of the ast.unparse port: sequences in brackets, a name as a capture (or {@code _},
 * the wildcard) and a dotted name as a value, class and mapping patterns, with CPython 3.11's
 * parenthesization of {@code as} and {@code |} patterns. A parenthesized single pattern is the pattern itself.
 */
final class Patterns {

	private Patterns() {
	}

	static void write(PyExprUnparser u, Pattern p, int prec) {
		if (p instanceof MatchSequence s) {
			if (s.isParen() && !s.isComma() && s.getPatterns().size() == 1) {
				write(u, s.getPatterns().get(0), prec);
				return;
			}
			u.write("[");
			join(u, s.getPatterns());
			u.write("]");
		} else if (p instanceof MatchStar s) {
			u.write("*" + (s.getName() == null ? "_" : PyExprUnparser.id(s.getName())));
		} else if (p instanceof MatchAs a) {
			if (a.getName() == null) {
				write(u, a.getPattern(), prec);
				return;
			}
			boolean parens = prec > PyExprUnparser.TEST;
			u.write(parens ? "(" : "");
			write(u, a.getPattern(), PyExprUnparser.BOR);
			u.write(" as " + PyExprUnparser.id(a.getName()) + (parens ? ")" : ""));
		} else if (p instanceof MatchOr o) {
			boolean parens = prec > PyExprUnparser.BOR;
			u.write(parens ? "(" : "");
			for (int i = 0; i < o.getPatterns().size(); i++) {
				u.write(i > 0 ? " | " : "");
				write(u, o.getPatterns().get(i), PyExprUnparser.next(PyExprUnparser.BOR));
			}
			u.write(parens ? ")" : "");
		} else if (p instanceof MatchValue v) {
			value(u, v.getValue());
		} else if (p instanceof MatchSingleton s) {
			u.write(s.getValue());
		} else if (p instanceof MatchClass c) {
			u.write(dotted(c.getCls().getNames()) + "(");
			List<Pattern> positional = new ArrayList<>();
			List<MatchKeyword> keywords = new ArrayList<>();
			for (Pattern a : c.getArguments()) {
				if (a instanceof MatchKeyword k) {
					keywords.add(k);
				} else {
					positional.add(a);
				}
			}
			join(u, positional);
			for (int i = 0; i < keywords.size(); i++) {
				u.write(i > 0 || !positional.isEmpty() ? ", " : "");
				u.write(PyExprUnparser.id(keywords.get(i).getKeyword()) + "=");
				write(u, keywords.get(i).getPattern(), PyExprUnparser.TEST);
			}
			u.write(")");
		} else if (p instanceof MatchName n) {
			u.write(n.getNames().size() == 1 ? PyExprUnparser.id(n.getNames().get(0)) : dotted(n.getNames()));
		} else if (p instanceof MatchMapping m) {
			u.write("{");
			String rest = null;
			boolean first = true;
			for (MappingEntry e : m.getEntries()) {
				if (e instanceof MappingRest r) {
					rest = r.getName();
					continue;
				}
				MappingItem item = (MappingItem) e;
				u.write(first ? "" : ", ");
				first = false;
				value(u, item.getKey());
				u.write(": ");
				write(u, item.getPattern(), PyExprUnparser.TEST);
			}
			if (rest != null) {
				u.write((first ? "" : ", ") + "**" + PyExprUnparser.id(rest));
			}
			u.write("}");
		} else {
			throw new UnparseException("cannot unparse a " + p.eClass().getName() + " pattern");
		}
	}

	private static void join(PyExprUnparser u, List<Pattern> patterns) {
		for (int i = 0; i < patterns.size(); i++) {
			u.write(i > 0 ? ", " : "");
			write(u, patterns.get(i), PyExprUnparser.TEST);
		}
	}

	private static String dotted(List<String> names) {
		return String.join(".", names.stream().map(PyExprUnparser::id).toList());
	}

	/** A literal or dotted value: numbers (a complex one is real +/- imag), strings, constants, a.b.c. */
	private static void value(PyExprUnparser u, Expression v) {
		if (v instanceof ComplexLiteral c) {
			u.expr(c.getReal(), PyExprUnparser.ARITH);
			u.write(" " + c.getOp() + " ");
			u.write(PyRepr.imaginary(((PyLiterals.Imaginary) PyLiterals.number(c.getImag())).imag()));
		} else if (v instanceof DottedNameExpr d) {
			u.write(dotted(d.getNames()));
		} else if (v instanceof Num || v != null) {
			u.expr(v, PyExprUnparser.TEST);
		}
	}
}
