package dev.ptotools.analyzer.lower;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.emf.ecore.EObject;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.language.SpanIndex;
import dev.ptotools.language.Spans;
import dev.ptotools.language.python.ArgumentList;
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
import dev.ptotools.language.python.GeneratorExp;
import dev.ptotools.language.python.IfExp;
import dev.ptotools.language.python.KeywordArg;
import dev.ptotools.language.python.Lambda;
import dev.ptotools.language.python.ListComp;
import dev.ptotools.language.python.ListExpr;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.PythonPackage;
import dev.ptotools.language.python.NamedExpr;
import dev.ptotools.language.python.Num;
import dev.ptotools.language.python.Paren;
import dev.ptotools.language.python.SetComp;
import dev.ptotools.language.python.SetExpr;
import dev.ptotools.language.python.Slice;
import dev.ptotools.language.python.Starred;
import dev.ptotools.language.python.Str;
import dev.ptotools.language.python.Subscript;
import dev.ptotools.language.python.TupleExpr;
import dev.ptotools.language.python.UnaryOp;
import dev.ptotools.language.python.Yield;
import dev.ptotools.language.python.YieldFrom;

/** Lowers Python AST expressions of one parse to IR expressions; every method is total. */
public final class ExprLowering {

	private final SpanIndex spans;

	public ExprLowering(SpanIndex spans) {
		this.spans = spans;
	}

	/**
	 * An identifier as the IR holds it: one String per distinct name in the process, where the parser
	 * makes a new one per occurrence (identifiers were most of the memory an open document holds).
	 */
	public static String name(String id) {
		return id == null ? "" : id.intern();
	}

	public Span span(EObject o) {
		if (o == null) {
			return Span.NONE;
		}
		Spans.Span s = spans.of(o);
		return s == null ? Span.NONE : new Span(s.offset(), s.end());
	}

	public List<Expr> lowerAll(List<? extends Expression> list) {
		List<Expr> out = new ArrayList<>(list.size());
		for (Expression e : list) {
			out.add(lower(e));
		}
		return List.copyOf(out);
	}

	/** Lowers an expression; null stays null (an absent optional part). */
	public Expr lower(Expression e) {
		if (e == null) {
			return null;
		}
		Span span = span(e);
		// The common kinds by EMF class id (no other class extends them): a chain of instanceof tests against
		// interfaces scans each class's secondary supers on every miss (JDK 17), which made this the hottest
		// method of lowering. The rest follow as instanceof tests.
		switch (e.eClass().getClassifierID()) {
		case PythonPackage.NAME: {
			Name n = (Name) e;
			return new Expr.Name(name(n.getId()), span);
		}
		case PythonPackage.ATTRIBUTE: {
			Attribute a = (Attribute) e;
			return new Expr.Attribute(lowerOrEmpty(a.getValue(), span), name(a.getAttr()), span,
					attrSpan(a, span));
		}
		case PythonPackage.CALL:
			return call((Call) e, span);
		case PythonPackage.NUM: {
			Num n = (Num) e;
			return number(n.getValue(), n.isNegative(), span);
		}
		default:
			break;
		}
		if (e instanceof Paren p) {
			Expr inner = lower(p.getValue());
			return inner == null ? new Expr.TupleExpr(List.of(), span) : inner;
		}
		if (e instanceof Str s) {
			return string(s.getParts(), span);
		}
		if (e instanceof Constant c) {
			Object v = switch (String.valueOf(c.getValue())) {
			case "True" -> Boolean.TRUE;
			case "False" -> Boolean.FALSE;
			default -> null;
			};
			return new Expr.Literal(v, span);
		}
		if (e instanceof Ellipsis) {
			return new Expr.Opaque("ellipsis", List.of(), span);
		}
		if (e instanceof Subscript s) {
			Expr index = lower(s.getSlice());
			List<Expr> indices = index instanceof Expr.TupleExpr t && !(s.getSlice() instanceof Paren) ? t.elts()
					: index == null ? List.of() : List.of(index);
			return new Expr.Subscript(lowerOrEmpty(s.getValue(), span), indices, span);
		}
		if (e instanceof Slice s) {
			return new Expr.SliceExpr(lower(s.getLower()), lower(s.getUpper()), lower(s.getStep()), span);
		}
		if (e instanceof BinOp b) {
			return new Expr.BinOp(String.valueOf(b.getOp()), lowerOrEmpty(b.getLeft(), span),
					lowerOrEmpty(b.getRight(), span), span);
		}
		if (e instanceof UnaryOp u) {
			return new Expr.UnaryOp(String.valueOf(u.getOp()), lowerOrEmpty(u.getOperand(), span), span);
		}
		if (e instanceof BoolOp b) {
			return new Expr.BoolOp(String.valueOf(b.getOp()), lowerAll(b.getValues()), span);
		}
		if (e instanceof Compare c) {
			List<String> ops = new ArrayList<>();
			for (String op : c.getOps()) {
				ops.add(compareOp(op));
			}
			// Error recovery can leave an operator without its operand: pad, so that ops and
			// comparators always pair up.
			List<Expr> comparators = new ArrayList<>(lowerAll(c.getComparators()));
			while (comparators.size() < ops.size()) {
				comparators.add(new Expr.Opaque("missing", List.of(), new Span(span.end(), span.end())));
			}
			return new Expr.Compare(lowerOrEmpty(c.getLeft(), span), List.copyOf(ops),
					List.copyOf(comparators.subList(0, Math.max(ops.size(), 0))), span);
		}
		if (e instanceof IfExp i) {
			return new Expr.Conditional(lowerOrEmpty(i.getTest(), span), lowerOrEmpty(i.getBody(), span),
					lowerOrEmpty(i.getOrelse(), span), span);
		}
		if (e instanceof TupleExpr t) {
			return new Expr.TupleExpr(lowerAll(t.getElts()), span);
		}
		if (e instanceof ListExpr l) {
			return new Expr.ListExpr(lowerAll(l.getElts()), span);
		}
		if (e instanceof DictExpr d) {
			List<Expr> keys = new ArrayList<>();
			List<Expr> values = new ArrayList<>();
			for (DictItem item : d.getItems()) {
				keys.add(lower(item.getKey()));
				values.add(lowerOrEmpty(item.getValue(), span));
			}
			return new Expr.DictExpr(java.util.Collections.unmodifiableList(keys), List.copyOf(values), span);
		}
		if (e instanceof Starred s) {
			return new Expr.Starred(lowerOrEmpty(s.getValue(), span), span);
		}
		if (e instanceof DoubleStarred s) {
			return new Expr.Opaque("double-starred", children(s.getValue()), span);
		}
		if (e instanceof SetExpr s) {
			return new Expr.Opaque("set", lowerAll(s.getElts()), span);
		}
		if (e instanceof NamedExpr n) {
			List<Expr> kids = new ArrayList<>();
			kids.add(new Expr.Name(n.getTarget() == null ? "" : n.getTarget().getId(), span(n.getTarget())));
			kids.addAll(children(n.getValue()));
			return new Expr.Opaque("walrus", List.copyOf(kids), span);
		}
		if (e instanceof Await a) {
			return new Expr.Opaque("await", children(a.getValue()), span);
		}
		if (e instanceof Yield y) {
			return new Expr.Opaque("yield", children(y.getValue()), span);
		}
		if (e instanceof YieldFrom y) {
			return new Expr.Opaque("yield from", children(y.getValue()), span);
		}
		if (e instanceof Lambda l) {
			return new Expr.Opaque("lambda", children(l.getBody()), span);
		}
		if (e instanceof ListComp c) {
			return comprehension("list comprehension", c.getElt(), null, c.getGenerators(), span);
		}
		if (e instanceof SetComp c) {
			return comprehension("set comprehension", c.getElt(), null, c.getGenerators(), span);
		}
		if (e instanceof GeneratorExp c) {
			return comprehension("generator expression", c.getElt(), null, c.getGenerators(), span);
		}
		if (e instanceof DictComp c) {
			DictItem item = c.getItem();
			return comprehension("dict comprehension", item == null ? null : item.getKey(),
					item == null ? null : item.getValue(), c.getGenerators(), span);
		}
		return new Expr.Opaque(e.eClass().getName(), List.of(), span);
	}

	private Expr lowerOrEmpty(Expression e, Span around) {
		Expr x = lower(e);
		return x != null ? x : new Expr.Opaque("missing", List.of(), new Span(around.end(), around.end()));
	}

	private List<Expr> children(Expression e) {
		Expr x = lower(e);
		return x == null ? List.of() : List.of(x);
	}

	private Expr comprehension(String kind, Expression elt, Expression value, List<Comprehension> gens,
			Span span) {
		List<Expr> kids = new ArrayList<>();
		kids.addAll(children(elt));
		kids.addAll(children(value));
		for (Comprehension g : gens) {
			kids.addAll(children(g.getTarget()));
			kids.addAll(children(g.getIter()));
			kids.addAll(lowerAll(g.getIfs()));
		}
		return new Expr.Opaque(kind, List.copyOf(kids), span);
	}

	private static Span attrSpan(Attribute a, Span whole) {
		String attr = a.getAttr();
		if (attr == null || attr.isEmpty()) {
			return new Span(whole.end(), whole.end());
		}
		return new Span(whole.end() - attr.length(), whole.end());
	}

	private Expr call(Call c, Span span) {
		Expr func = lowerOrEmpty(c.getFunc(), span);
		List<Expr> args = new ArrayList<>();
		List<Expr.Keyword> keywords = new ArrayList<>();
		ArgumentList list = c.getArguments();
		if (list != null) {
			for (Expression a : list.getArgs()) {
				if (a instanceof KeywordArg k) {
					Span ks = span(k);
					String name = name(k.getArg());
					keywords.add(new Expr.Keyword(name, lowerOrEmpty(k.getValue(), ks), ks,
							new Span(ks.start(), ks.start() + name.length())));
				} else if (a instanceof DoubleStarred d) {
					Span ds = span(d);
					keywords.add(new Expr.Keyword(null, lowerOrEmpty(d.getValue(), ds), ds, ds));
				} else {
					args.add(lowerOrEmpty(a, span));
				}
			}
		}
		Span funcSpan = func.span();
		String funcText = dotted(func);
		return new Expr.Call(func, funcText == null ? null : funcText.intern(), List.copyOf(args), List.copyOf(keywords), span,
				new Span(funcSpan.end(), span.end()));
	}

	/** "a.b.c" for a name or attribute chain, else null. */
	public static String dotted(Expr e) {
		if (e instanceof Expr.Name n) {
			return n.id();
		}
		if (e instanceof Expr.Attribute a) {
			String base = dotted(a.value());
			return base == null ? null : base + "." + a.attr();
		}
		return null;
	}

	// ---- literals ---------------------------------------------------------------------------

	static Expr number(String text, boolean negative, Span span) {
		if (text == null) {
			return new Expr.Opaque("number", List.of(), span);
		}
		if (text.length() <= 18 && allDigits(text)) {
			// The common case, a plain decimal int: no copies, no case folding.
			long v = 0;
			for (int i = 0; i < text.length(); i++) {
				v = v * 10 + (text.charAt(i) - '0');
			}
			return new Expr.Literal(negative ? -v : v, span);
		}
		String t = text.replace("_", "");
		try {
			Object value;
			String lower = t.toLowerCase();
			if (lower.endsWith("j")) {
				return new Expr.Opaque("complex", List.of(), span);
			} else if (lower.startsWith("0x")) {
				value = Long.parseLong(t.substring(2), 16);
			} else if (lower.startsWith("0o")) {
				value = Long.parseLong(t.substring(2), 8);
			} else if (lower.startsWith("0b")) {
				value = Long.parseLong(t.substring(2), 2);
			} else if (lower.contains(".") || lower.contains("e")) {
				value = Double.parseDouble(t);
			} else {
				value = Long.parseLong(t);
			}
			if (negative) {
				value = value instanceof Long l ? (Object) (-l) : (Object) (-(Double) value);
			}
			return new Expr.Literal(value, span);
		} catch (NumberFormatException ex) {
			return new Expr.Opaque("number", List.of(), span);
		}
	}

	/** "not in" and "is not" as one spelling, whatever whitespace the source had between the words. */
	private static String compareOp(String op) {
		if (op == null) {
			return ""; // error recovery made the comparison without its operator
		}
		if (op.length() <= 2) {
			return op;
		}
		if (op.startsWith("not")) {
			return "not in";
		}
		if (op.startsWith("is")) {
			return "is not";
		}
		return op;
	}

	private static boolean allDigits(String s) {
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return !s.isEmpty();
	}

	static Expr string(List<String> parts, Span span) {
		StringBuilder b = new StringBuilder();
		for (String part : parts) {
			int i = 0;
			while (i < part.length() && Character.isLetter(part.charAt(i))) {
				i++;
			}
			String prefix = part.substring(0, i).toLowerCase();
			if (prefix.contains("f")) {
				return new Expr.Opaque("f-string", List.of(), span);
			}
			if (prefix.contains("b")) {
				return new Expr.Opaque("bytes", List.of(), span);
			}
			String body = part.substring(i);
			int q = body.startsWith("\"\"\"") || body.startsWith("'''") ? 3 : 1;
			if (body.length() < 2 * q) {
				return new Expr.Opaque("string", List.of(), span);
			}
			String content = body.substring(q, body.length() - q);
			b.append(prefix.contains("r") ? content : unescape(content));
		}
		return new Expr.Literal(b.toString(), span);
	}

	private static String unescape(String s) {
		if (s.indexOf('\\') < 0) {
			return s;
		}
		StringBuilder b = new StringBuilder(s.length());
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c != '\\' || i + 1 >= s.length()) {
				b.append(c);
				continue;
			}
			char n = s.charAt(++i);
			switch (n) {
			case 'n' -> b.append('\n');
			case 't' -> b.append('\t');
			case 'r' -> b.append('\r');
			case '0' -> b.append('\0');
			case '\\' -> b.append('\\');
			case '\'' -> b.append('\'');
			case '"' -> b.append('"');
			case '\n' -> {
			}
			default -> b.append('\\').append(n);
			}
		}
		return b.toString();
	}
}
