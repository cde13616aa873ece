package dev.ptotools.codegen.frontend.unparse;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import dev.ptotools.language.python.Attribute;
import dev.ptotools.language.python.Await;
import dev.ptotools.language.python.BinOp;
import dev.ptotools.language.python.BoolOp;
import dev.ptotools.language.python.Call;
import dev.ptotools.language.python.Compare;
import dev.ptotools.language.python.Comprehension;
import dev.ptotools.language.python.Constant;
import dev.ptotools.language.python.DictComp;
import dev.ptotools.language.python.DictExpr;
import dev.ptotools.language.python.DictItem;
import dev.ptotools.language.python.DoubleStarred;
import dev.ptotools.language.python.Ellipsis;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.FormalParameter;
import dev.ptotools.language.python.GeneratorExp;
import dev.ptotools.language.python.IfExp;
import dev.ptotools.language.python.KeywordArg;
import dev.ptotools.language.python.KwArgs;
import dev.ptotools.language.python.Lambda;
import dev.ptotools.language.python.ListComp;
import dev.ptotools.language.python.ListExpr;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.NamedExpr;
import dev.ptotools.language.python.Num;
import dev.ptotools.language.python.Param;
import dev.ptotools.language.python.ParameterList;
import dev.ptotools.language.python.Paren;
import dev.ptotools.language.python.PositionalOnlyMarker;
import dev.ptotools.language.python.SetComp;
import dev.ptotools.language.python.SetExpr;
import dev.ptotools.language.python.Slice;
import dev.ptotools.language.python.Starred;
import dev.ptotools.language.python.Str;
import dev.ptotools.language.python.Subscript;
import dev.ptotools.language.python.TupleExpr;
import dev.ptotools.language.python.UnaryOp;
import dev.ptotools.language.python.VarArgs;
import dev.ptotools.language.python.Yield;
import dev.ptotools.language.python.YieldFrom;

/**
 * The expression half of a port of CPython 3.11's {@code ast._Unparser} over this project's Python syntax
 * tree: the same precedence table and parenthesization, the same text for constants (repr) and f-strings.
 * Parenthesized expressions are read through (the AST has no parentheses), call arguments are written
 * positional first, then keywords, as the AST holds them.
 */
class PyExprUnparser {

	// _Precedence, in CPython's order; BOR shares EXPR's value.
	static final int NAMED_EXPR = 1, TUPLE = 2, YIELD = 3, TEST = 4, OR = 5, AND = 6, NOT = 7, CMP = 8, EXPR = 9,
			BOR = 9, BXOR = 10, BAND = 11, SHIFT = 12, ARITH = 13, TERM = 14, FACTOR = 15, POWER = 16, AWAIT = 17,
			ATOM = 18;

	protected StringBuilder out = new StringBuilder();
	/** Inside an f-string replacement field: string constants avoid backslashes. */
	private final boolean avoidBackslashes;

	PyExprUnparser(boolean avoidBackslashes) {
		this.avoidBackslashes = avoidBackslashes;
	}

	/** An identifier as CPython's tokenizer keeps it: NFKC-normalized when it is not ASCII. */
	static String id(String name) {
		for (int i = 0; i < name.length(); i++) {
			if (name.charAt(i) > 0x7f) {
				return java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFKC);
			}
		}
		return name;
	}

	static int next(int p) {
		return Math.min(p + 1, ATOM);
	}

	protected void write(String s) {
		out.append(s);
	}

	private static int binaryPrecedence(String op) {
		return switch (op) {
		case "+", "-" -> ARITH;
		case "<<", ">>" -> SHIFT;
		case "|" -> BOR;
		case "^" -> BXOR;
		case "&" -> BAND;
		case "**" -> POWER;
		default -> TERM;
		};
	}

	static Expression unwrap(Expression e) {
		while (e instanceof Paren p && p.getValue() != null) {
			e = p.getValue();
		}
		return e;
	}

	/** An expression written where its parent requires precedence {@code prec} (TEST when it sets none). */
	void expr(Expression raw, int prec) {
		Expression e = unwrap(raw);
		if (e instanceof Name n) {
			write(id(n.getId()));
		} else if (e instanceof Constant c) {
			write(String.valueOf(c.getValue()));
		} else if (e instanceof Ellipsis) {
			write("...");
		} else if (e instanceof Num n) {
			number(n);
		} else if (e instanceof Str s) {
			literal(PyLiterals.strings(s.getParts()));
		} else if (e instanceof Attribute a) {
			expr(a.getValue(), ATOM);
			Expression v = unwrap(a.getValue());
			if (v instanceof Num n && PyLiterals.number(n.getValue()) instanceof BigInteger
					|| v instanceof Constant c && !"None".equals(c.getValue())) {
				write(" ");
			}
			write("." + id(a.getAttr()));
		} else if (e instanceof Call c) {
			expr(c.getFunc(), ATOM);
			write("(");
			arguments(c.getArguments() == null ? List.of() : c.getArguments().getArgs());
			write(")");
		} else if (e instanceof Subscript s) {
			expr(s.getValue(), ATOM);
			write("[");
			Expression slice = unwrap(s.getSlice());
			if (slice instanceof TupleExpr t && !t.getElts().isEmpty()) {
				items(t.getElts());
			} else if (slice instanceof Starred) {
				items(List.of(slice)); // x[*a] is a one-element tuple in the AST
			} else {
				expr(slice, TEST);
			}
			write("]");
		} else if (e instanceof Slice s) {
			if (s.getLower() != null) {
				expr(s.getLower(), TEST);
			}
			write(":");
			if (s.getUpper() != null) {
				expr(s.getUpper(), TEST);
			}
			if (s.getStep() != null) {
				write(":");
				expr(s.getStep(), TEST);
			}
		} else if (e instanceof Starred s) {
			write("*");
			expr(s.getValue(), EXPR);
		} else if (e instanceof BinOp b) {
			binOp(b, prec);
		} else if (e instanceof UnaryOp u) {
			boolean not = "not".equals(u.getOp());
			int p = not ? NOT : FACTOR;
			parens(prec > p, () -> {
				write(not ? "not " : u.getOp());
				expr(u.getOperand(), p);
			});
		} else if (e instanceof Compare c) {
			parens(prec > CMP, () -> {
				expr(c.getLeft(), next(CMP));
				for (int i = 0; i < c.getOps().size(); i++) {
					write(" " + compareOp(c.getOps().get(i)) + " ");
					expr(c.getComparators().get(i), next(CMP));
				}
			});
		} else if (e instanceof BoolOp b) {
			int p = "or".equals(b.getOp()) ? OR : AND;
			parens(prec > p, () -> {
				int level = p;
				for (int i = 0; i < b.getValues().size(); i++) {
					write(i > 0 ? " " + b.getOp() + " " : "");
					level = next(level);
					expr(b.getValues().get(i), level);
				}
			});
		} else if (e instanceof IfExp i) {
			parens(prec > TEST, () -> {
				expr(i.getBody(), next(TEST));
				write(" if ");
				expr(i.getTest(), next(TEST));
				write(" else ");
				expr(i.getOrelse(), TEST);
			});
		} else if (e instanceof Lambda l) {
			parens(prec > TEST, () -> {
				write("lambda");
				StringBuilder saved = out;
				out = new StringBuilder();
				parameters(l.getParameters());
				String args = out.toString();
				out = saved;
				if (!args.isEmpty()) {
					write(" " + args);
				}
				write(": ");
				expr(l.getBody(), TEST);
			});
		} else if (e instanceof NamedExpr n) {
			parens(prec > NAMED_EXPR, () -> {
				expr(n.getTarget(), ATOM);
				write(" := ");
				expr(n.getValue(), ATOM);
			});
		} else if (e instanceof Await a) {
			parens(prec > AWAIT, () -> {
				write("await");
				if (a.getValue() != null) {
					write(" ");
					expr(a.getValue(), ATOM);
				}
			});
		} else if (e instanceof Yield y) {
			parens(prec > YIELD, () -> {
				write("yield");
				if (y.getValue() != null) {
					write(" ");
					expr(y.getValue(), ATOM);
				}
			});
		} else if (e instanceof YieldFrom y) {
			parens(prec > YIELD, () -> {
				write("yield from ");
				expr(y.getValue(), ATOM);
			});
		} else if (e instanceof TupleExpr t) {
			parens(t.getElts().isEmpty() || prec > TUPLE, () -> items(t.getElts()));
		} else if (e instanceof ListExpr l) {
			write("[");
			join(l.getElts());
			write("]");
		} else if (e instanceof SetExpr s) {
			write("{");
			join(s.getElts());
			write("}");
		} else if (e instanceof DictExpr d) {
			write("{");
			for (int i = 0; i < d.getItems().size(); i++) {
				write(i > 0 ? ", " : "");
				dictItem(d.getItems().get(i));
			}
			write("}");
		} else if (e instanceof ListComp c) {
			comprehension("[", c.getElt(), null, c.getGenerators(), "]");
		} else if (e instanceof SetComp c) {
			comprehension("{", c.getElt(), null, c.getGenerators(), "}");
		} else if (e instanceof GeneratorExp c) {
			comprehension("(", c.getElt(), null, c.getGenerators(), ")");
		} else if (e instanceof DictComp c) {
			comprehension("{", c.getItem().getKey(), c.getItem().getValue(), c.getGenerators(), "}");
		} else {
			throw new UnparseException("cannot unparse " + (e == null ? "a missing expression" : e.eClass().getName()));
		}
	}

	private void parens(boolean needed, Runnable body) {
		if (needed) {
			write("(");
		}
		body.run();
		if (needed) {
			write(")");
		}
	}

	private void binOp(BinOp b, int prec) {
		String op = b.getOp();
		int p = binaryPrecedence(op);
		boolean right = op.equals("**");
		parens(prec > p, () -> {
			expr(b.getLeft(), right ? next(p) : p);
			write(" " + op + " ");
			expr(b.getRight(), right ? p : next(p));
		});
	}

	static String compareOp(String op) {
		String t = op.replaceAll("\\s+", "");
		return switch (t) {
		case "notin" -> "not in";
		case "isnot" -> "is not";
		default -> t;
		};
	}

	/** items_view: one item gets a trailing comma. */
	void items(List<Expression> elts) {
		if (elts.size() == 1) {
			expr(elts.get(0), TEST);
			write(",");
		} else {
			join(elts);
		}
	}

	void join(List<Expression> elts) {
		for (int i = 0; i < elts.size(); i++) {
			write(i > 0 ? ", " : "");
			expr(elts.get(i), TEST);
		}
	}

	private void dictItem(DictItem item) {
		if (item.getKey() == null) {
			write("**");
			expr(item.getValue(), EXPR);
		} else {
			expr(item.getKey(), TEST);
			write(": ");
			expr(item.getValue(), TEST);
		}
	}

	private void comprehension(String open, Expression elt, Expression value, List<Comprehension> gens, String close) {
		write(open);
		expr(elt, TEST);
		if (value != null) {
			write(": ");
			expr(value, TEST);
		}
		for (Comprehension g : gens) {
			write(g.isAsync() ? " async for " : " for ");
			expr(g.getTarget(), TUPLE);
			write(" in ");
			expr(g.getIter(), next(TEST));
			for (Expression cond : g.getIfs()) {
				write(" if ");
				expr(cond, next(TEST));
			}
		}
		write(close);
	}

	/** Call or class arguments as the AST holds them: positional (and starred) first, then keywords. */
	void arguments(List<Expression> args) {
		List<Expression> positional = new ArrayList<>();
		List<Expression> keywords = new ArrayList<>();
		for (Expression a : args) {
			(a instanceof KeywordArg || a instanceof DoubleStarred ? keywords : positional).add(a);
		}
		boolean comma = false;
		for (Expression a : positional) {
			write(comma ? ", " : "");
			comma = true;
			expr(a, TEST);
		}
		for (Expression a : keywords) {
			write(comma ? ", " : "");
			comma = true;
			if (a instanceof KeywordArg k) {
				write(id(k.getArg()) + "=");
				expr(k.getValue(), TEST);
			} else {
				write("**");
				expr(((DoubleStarred) a).getValue(), TEST);
			}
		}
	}

	/** visit_arguments over a parameter list: positional-only, positional, *args, keyword-only, **kwargs. */
	void parameters(ParameterList list) {
		if (list == null) {
			return;
		}
		List<Param> positional = new ArrayList<>();
		int positionalOnly = 0;
		VarArgs varargs = null;
		List<Param> keywordOnly = new ArrayList<>();
		KwArgs kwargs = null;
		for (FormalParameter p : list.getParams()) {
			if (p instanceof PositionalOnlyMarker) {
				positionalOnly = positional.size();
			} else if (p instanceof VarArgs v) {
				varargs = v;
			} else if (p instanceof KwArgs k) {
				kwargs = k;
			} else if (p instanceof Param q) {
				(varargs == null ? positional : keywordOnly).add(q);
			}
		}
		boolean first = true;
		for (int i = 0; i < positional.size(); i++) {
			write(first ? "" : ", ");
			first = false;
			param(positional.get(i));
			if (i + 1 == positionalOnly) {
				write(", /");
			}
		}
		if (varargs != null) {
			write(first ? "" : ", ");
			first = false;
			write("*");
			if (varargs.getName() != null) {
				write(id(varargs.getName()));
				annotation(varargs.getAnnotation());
			}
		}
		for (Param p : keywordOnly) {
			write(", ");
			param(p);
		}
		if (kwargs != null) {
			write(first ? "" : ", ");
			write("**" + id(kwargs.getName()));
			annotation(kwargs.getAnnotation());
		}
	}

	private void param(Param p) {
		write(id(p.getName()));
		annotation(p.getAnnotation());
		if (p.getDefault() != null) {
			write("=");
			expr(p.getDefault(), TEST);
		}
	}

	private void annotation(Expression a) {
		if (a != null) {
			write(": ");
			expr(a, TEST);
		}
	}

	private void number(Num n) {
		Object v = PyLiterals.number(n.getValue());
		String text = v instanceof BigInteger i ? PyRepr.integer(i)
				: v instanceof Double d ? PyRepr.floating(d) : PyRepr.imaginary(((PyLiterals.Imaginary) v).imag());
		write(n.isNegative() ? "-" + text : text);
	}

	/** visit_Constant for a string or bytes, visit_JoinedStr for an f-string. */
	void literal(Object value) {
		if (value instanceof PyLiterals.JoinedStr j) {
			joinedStr(j);
			return;
		}
		PyLiterals.Const c = (PyLiterals.Const) value;
		if (c.u()) {
			write("u");
		}
		if (c.value() instanceof byte[] b) {
			write(PyRepr.bytes(b));
		} else if (avoidBackslashes) {
			writeAvoidingBackslashes((String) c.value(), PyRepr.ALL_QUOTES);
		} else {
			write(PyRepr.str((String) c.value()));
		}
	}

	void writeAvoidingBackslashes(String s, List<String> quoteTypes) {
		PyRepr.Literal l = PyRepr.strLiteralHelper(s, quoteTypes, false);
		String q = l.quotes().get(0);
		write(q + l.body() + q);
	}

	private void joinedStr(PyLiterals.JoinedStr j) {
		write("f");
		if (avoidBackslashes) {
			StringBuilder saved = out;
			out = new StringBuilder();
			fstringInner(j);
			String inner = out.toString();
			out = saved;
			writeAvoidingBackslashes(inner, PyRepr.ALL_QUOTES);
			return;
		}
		List<String> parts = new ArrayList<>();
		List<Boolean> constant = new ArrayList<>();
		for (Object v : j.values()) {
			StringBuilder saved = out;
			out = new StringBuilder();
			fstringInner(v);
			parts.add(out.toString());
			out = saved;
			constant.add(v instanceof String);
		}
		List<String> quoteTypes = PyRepr.ALL_QUOTES;
		List<String> bodies = new ArrayList<>();
		boolean fallback = false;
		for (int i = 0; i < parts.size(); i++) {
			PyRepr.Literal l = PyRepr.strLiteralHelper(parts.get(i), quoteTypes, constant.get(i));
			bodies.add(l.body());
			List<String> common = new ArrayList<>(l.quotes());
			common.retainAll(quoteTypes);
			if (common.isEmpty()) {
				fallback = true;
				break;
			}
			quoteTypes = l.quotes();
		}
		if (fallback) {
			quoteTypes = List.of("'''");
			bodies.clear();
			for (String p : parts) {
				String r = PyRepr.str("\"" + p);
				bodies.add(r.substring(2, r.length() - 1));
			}
		}
		String q = quoteTypes.get(0);
		write(q + String.join("", bodies) + q);
	}

	private void fstringInner(Object v) {
		if (v instanceof PyLiterals.JoinedStr j) {
			for (Object x : j.values()) {
				fstringInner(x);
			}
		} else if (v instanceof String s) {
			write(s.replace("{", "{{").replace("}", "}}"));
		} else {
			formattedValue((PyLiterals.FormattedValue) v);
		}
	}

	private void formattedValue(PyLiterals.FormattedValue f) {
		write("{");
		PyExprUnparser inner = new PyExprUnparser(true);
		inner.expr(f.value(), next(TEST));
		String text = inner.out.toString();
		if (text.contains("\\")) {
			throw new UnparseException("Unable to avoid backslash in f-string expression part");
		}
		if (text.startsWith("{")) {
			write(" ");
		}
		write(text);
		if (f.conversion() != -1) {
			write("!" + (char) f.conversion());
		}
		if (f.spec() != null) {
			write(":");
			fstringInner(f.spec());
		}
		write("}");
	}
}
