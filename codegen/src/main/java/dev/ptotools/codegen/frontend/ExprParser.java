package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Expressions (pypto's {@code parse_expression}): names from the DSL scope then the closure, closure
 * arithmetic folded with Python's semantics, scalar operators typed as pypto's C++ constructors type
 * them, subscripts, calls of program functions ({@code self.f}) and of {@code pl.*} ops.
 */
final class ExprParser {

	private final FunctionParser p;
	private final OpCalls ops;

	ExprParser(FunctionParser p) {
		this.p = p;
		this.ops = new OpCalls(p);
	}

	dev.ptotools.codegen.ir.Expr expr(Expr e) {
		if (e instanceof Expr.BinOp || e instanceof Expr.UnaryOp u && (u.op().equals("-") || u.op().equals("+"))) {
			if (foldable(e)) {
				Object v = p.ctx.closure.eval(e);
				if (Values.known(v)) {
					dev.ptotools.codegen.ir.Expr c = p.ctx.closure.toIr(v, e.span());
					if (c != null) {
						return c;
					}
				}
			}
		}
		if (e instanceof Expr.Name n) {
			return name(n);
		}
		if (e instanceof Expr.Literal l) {
			return literal(l);
		}
		if (e instanceof Expr.BinOp b) {
			String op = b.op();
			if (List.of("**", "&", "|", "^", "@").contains(op)) {
				throw new CodegenException("Unsupported binary operator: " + binOpName(op), b.span());
			}
			return ScalarOps.binary(op, expr(b.left()), expr(b.right()), b.span());
		}
		if (e instanceof Expr.UnaryOp u) {
			return switch (u.op()) {
			case "-" -> ScalarOps.neg(expr(u.operand()), u.span());
			case "not" -> ScalarOps.not(expr(u.operand()), u.span());
			case "~" -> ScalarOps.bitNot(expr(u.operand()), u.span());
			default -> throw new CodegenException("Unsupported unary operator: UAdd", u.span());
			};
		}
		if (e instanceof Expr.Compare c) {
			if (c.ops().size() != 1) {
				throw new CodegenException("Only simple comparisons supported", c.span());
			}
			String op = c.ops().get(0);
			if (!List.of("==", "!=", "<", "<=", ">", ">=").contains(op)) {
				throw new CodegenException("Unsupported comparison: " + compareName(op), c.span());
			}
			return ScalarOps.binary(op, expr(c.left()), expr(c.comparators().get(0)), c.span());
		}
		if (e instanceof Expr.BoolOp b) {
			dev.ptotools.codegen.ir.Expr acc = expr(b.values().get(0));
			for (int i = 1; i < b.values().size(); i++) {
				acc = ScalarOps.binary(b.op(), acc, expr(b.values().get(i)), b.span());
			}
			return acc;
		}
		if (e instanceof Expr.ListExpr l) {
			return new dev.ptotools.codegen.ir.Expr.MakeTuple(args(l.elts()), l.span());
		}
		if (e instanceof Expr.TupleExpr t) {
			return new dev.ptotools.codegen.ir.Expr.MakeTuple(args(t.elts()), t.span());
		}
		if (e instanceof Expr.Subscript s) {
			return subscript(s);
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		if (e instanceof Expr.Attribute a) {
			Object v = p.ctx.closure.eval(a);
			if (v instanceof Values.EnumValue ev && ev.type().equals("MemorySpace") && MemorySpace.named(ev.member()) != null) {
				return dev.ptotools.codegen.ir.Expr.index(MemorySpace.named(ev.member()).ordinal());
			}
			throw new CodegenException("Standalone attribute access not supported: " + Render.expr(a), a.span());
		}
		throw new CodegenException("Unsupported expression type: " + kind(e), e.span());
	}

	List<dev.ptotools.codegen.ir.Expr> args(List<Expr> es) {
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		for (Expr x : es) {
			out.add(expr(x));
		}
		return out;
	}

	/** pypto's {@code _can_fold_expr}: only literals, operators and names the DSL scope does not bind. */
	private boolean foldable(Expr e) {
		if (e instanceof Expr.Literal l) {
			return l.value() instanceof Long || l.value() instanceof Double || l.value() instanceof Boolean;
		}
		if (e instanceof Expr.Name n) {
			return p.scopes.lookup(n.id()) == null;
		}
		if (e instanceof Expr.BinOp b) {
			return foldable(b.left()) && foldable(b.right());
		}
		if (e instanceof Expr.UnaryOp u) {
			return foldable(u.operand());
		}
		return false;
	}

	private dev.ptotools.codegen.ir.Expr name(Expr.Name n) {
		dev.ptotools.codegen.ir.Expr v = p.scopes.resolve(n.id());
		if (v != null) {
			return v;
		}
		if (p.ctx.closure.has(n.id())) {
			dev.ptotools.codegen.ir.Expr c = p.ctx.closure.toIr(p.ctx.closure.value(n.id()), n.span());
			if (c != null) {
				return c;
			}
			throw new CodegenException("Unsupported closure variable type: " + Closure.typeName(p.ctx.closure.value(n.id())),
					n.span());
		}
		throw new CodegenException("Undefined variable '" + n.id() + "'", n.span());
	}

	private dev.ptotools.codegen.ir.Expr literal(Expr.Literal l) {
		Object v = l.value();
		if (v instanceof Boolean b) {
			return new dev.ptotools.codegen.ir.Expr.ConstBool(b, l.span());
		}
		if (v instanceof Long x) {
			return new dev.ptotools.codegen.ir.Expr.ConstInt(x, DType.INDEX, l.span());
		}
		if (v instanceof Double d) {
			return new dev.ptotools.codegen.ir.Expr.ConstFloat(d, DType.FP32, l.span());
		}
		if (v == null) {
			return dev.ptotools.codegen.ir.Expr.Call.op("system.task_invalid", List.of(), Map.of(), FunctionParser.taskId(),
					l.span());
		}
		throw new CodegenException("Unsupported constant type: " + Closure.typeName(v), l.span());
	}

	private dev.ptotools.codegen.ir.Expr subscript(Expr.Subscript s) {
		dev.ptotools.codegen.ir.Expr base = expr(s.value());
		Type t = base.type();
		if (t instanceof Type.Tuple) {
			if (s.indices().size() == 1 && s.indices().get(0) instanceof Expr.Literal l && l.value() instanceof Long i) {
				return new dev.ptotools.codegen.ir.Expr.TupleGetItem(base, (int) (long) i, s.span());
			}
			throw new CodegenException("Only constant integer indices supported for tuple access", s.span());
		}
		if (t instanceof Type.Tensor || t instanceof Type.Tile) {
			return Subscripts.read(p, base, s.indices(), s.span());
		}
		if (t instanceof Type.Array a) {
			if (s.indices().size() != 1) {
				throw new CodegenException("Array subscript requires a single index (rank-1 in v1)", s.span());
			}
			return dev.ptotools.codegen.ir.Expr.Call.op("array.get_element", List.of(base, expr(s.indices().get(0))),
					Map.of(), new Type.Scalar(a.dtype()), s.span());
		}
		throw new CodegenException("Subscript requires Tuple, Tensor, Tile, or Array type, got " + ScalarOps.typeName(t),
				s.span());
	}

	// ---- calls ----------------------------------------------------------------------------------

	private dev.ptotools.codegen.ir.Expr call(Expr.Call c) {
		if (c.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name self && self.id().equals("self")) {
			return functionCall(c, a.attr(), a.span());
		}
		String dotted = c.funcText();
		if (c.func() instanceof Expr.Attribute) {
			String name = dotted == null ? null : p.ctx.normalize(dotted);
			if (name != null && (name.startsWith("pl.") || name.startsWith("pld."))) {
				if (name.equals("pl.submit") || name.equals("pl.spmd_submit")) {
					throw new CodegenException("pl.submit(...) must be unpacked as a 2-tuple: `out, tid = "
							+ "pl.submit(self.kernel, ...)`", c.span());
				}
				return ops.call(c, name);
			}
			throw new CodegenException("Unsupported operation call: " + Render.expr(c), c.span());
		}
		if (c.func() instanceof Expr.Name n && p.scopes.lookup(n.id()) == null && p.ctx.externals.containsKey(n.id())) {
			String fname = p.ctx.externals.get(n.id());
			if (p.ctx.programFunctions.contains(fname)) {
				throw new CodegenException("External function '" + fname + "' conflicts with program function '" + fname + "'",
						c.span());
			}
			return functionCall(c, fname, n.span());
		}
		if (c.func() instanceof Expr.Name n && p.scopes.resolve(n.id()) == null && p.ctx.inlines.containsKey(n.id())) {
			return new InlineCalls(p).expand(c, p.ctx.inlines.get(n.id()));
		}
		throw new CodegenException("Unsupported function call: " + Render.expr(c), c.span());
	}

	/** {@code self.f(args)} (or a bare call of a module-level function): a Call of the program function f. */
	dev.ptotools.codegen.ir.Expr functionCall(Expr.Call c, String fname, Span at) {
		ParseContext.Declared d = p.ctx.declared.get(fname);
		if (d == null) {
			throw new CodegenException("Function '" + fname + "' not defined in program (available functions: "
					+ p.ctx.declared.keySet() + ")", at);
		}
		dev.ptotools.codegen.ir.Function callee = p.ctx.parsed.get(fname);
		Map<String, Object> attrs = new LinkedHashMap<>();
		dev.ptotools.codegen.ir.Expr device = null;
		for (Expr.Keyword k : c.keywords()) {
			if ("device".equals(k.name()) && d.effectiveRole() == Role.Orchestrator) {
				device = expr(k.value());
			} else if ("attrs".equals(k.name())) {
				attrs.putAll(callAttrs(fname, k.value(), c.args().size(), c.span()));
			} else {
				throw new CodegenException("Function '" + fname + "' does not accept keyword argument '" + k.name() + "'",
						k.span());
			}
		}
		if (callee != null && c.args().size() != callee.params().size()) {
			throw new CodegenException("Function '" + fname + "' expects " + callee.params().size() + " argument(s), got "
					+ c.args().size(), c.span());
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		List<Long> noDep = new ArrayList<>();
		List<Var> dumps = new ArrayList<>();
		for (int i = 0; i < c.args().size(); i++) {
			Expr a = c.args().get(i);
			Expr inner = noDepInner(a);
			if (inner != null) {
				a = inner;
				noDep.add((long) i);
			}
			dev.ptotools.codegen.ir.Expr x = expr(a);
			args.add(x);
			if (x instanceof Var v && p.dumpTagged.contains(v)) {
				dumps.add(v);
			}
		}
		Map<String, Object> callAttrs = new LinkedHashMap<>();
		if (!dumps.isEmpty()) {
			callAttrs.put("dump_vars", dumps);
		}
		callAttrs.putAll(attrs);
		if (!noDep.isEmpty()) {
			callAttrs.put("arg_direction_overrides", noDep);
		}
		if (device != null) {
			callAttrs.put("device", device);
		}
		Type type = Type.UNKNOWN;
		if (callee != null) {
			List<Type> rets = callee.returnTypes();
			if (rets.isEmpty()) {
				rets = firstReturnTypes(callee);
			}
			rets = CallReturnTypes.substitute(callee, args, rets);
			type = rets.isEmpty() ? Type.UNKNOWN : rets.size() == 1 ? rets.get(0) : new Type.Tuple(rets);
		}
		return new dev.ptotools.codegen.ir.Expr.Call(new dev.ptotools.codegen.ir.Expr.Callee.Function(fname), args,
				Map.of(), callAttrs, type, c.span());
	}

	/** The types of the values of a function's first return statement (pypto's fallback without an annotation). */
	private static List<Type> firstReturnTypes(dev.ptotools.codegen.ir.Function f) {
		dev.ptotools.codegen.ir.Stmt.Return r = firstReturn(f.body());
		if (r == null) {
			return List.of();
		}
		return r.values().stream().map(dev.ptotools.codegen.ir.Expr::type).toList();
	}

	static dev.ptotools.codegen.ir.Stmt.Return firstReturn(dev.ptotools.codegen.ir.Stmt s) {
		if (s instanceof dev.ptotools.codegen.ir.Stmt.Return r) {
			return r;
		}
		if (s instanceof dev.ptotools.codegen.ir.Stmt.Seq q) {
			for (dev.ptotools.codegen.ir.Stmt x : q.stmts()) {
				dev.ptotools.codegen.ir.Stmt.Return r = firstReturn(x);
				if (r != null) {
					return r;
				}
			}
		}
		if (s instanceof dev.ptotools.codegen.ir.Stmt.For f) {
			return firstReturn(f.body());
		}
		if (s instanceof dev.ptotools.codegen.ir.Stmt.If i) {
			dev.ptotools.codegen.ir.Stmt.Return r = firstReturn(i.then());
			return r != null ? r : i.orelse() == null ? null : firstReturn(i.orelse());
		}
		if (s instanceof dev.ptotools.codegen.ir.Stmt.Scope sc) {
			return firstReturn(sc.body());
		}
		return null;
	}

	// ---- keyword values -------------------------------------------------------------------------

	/** The elements of a list or tuple literal, or null for any other expression. */
	static List<Expr> listOrTuple(Expr e) {
		return e instanceof Expr.ListExpr l ? l.elts() : e instanceof Expr.TupleExpr t ? t.elts() : null;
	}

	/**
	 * A keyword argument of an op as pypto's {@code _parse_op_kwargs} passes it: a dtype, an enum member,
	 * a constant as a Python value, a DSL variable as IR, a list of constants as a list.
	 */
	Object kwargValue(Expr v) {
		if (v instanceof Expr.Literal l) {
			return l.value() == null ? Values.None.INSTANCE : l.value();
		}
		if (v instanceof Expr.UnaryOp u && u.op().equals("-") && u.operand() instanceof Expr.Literal l) {
			if (l.value() instanceof Long x) {
				return -x;
			}
			if (l.value() instanceof Double d) {
				return -d;
			}
		}
		if (v instanceof Expr.Name n) {
			Var var = p.scopes.lookup(n.id());
			if (var != null) {
				return var;
			}
			if (p.ctx.closure.has(n.id())) {
				return pyValue(p.ctx.closure.value(n.id()));
			}
			throw new CodegenException("Undefined variable '" + n.id() + "'", n.span());
		}
		if (v instanceof Expr.Attribute) {
			String last = TypeResolver.last(ExprLowering.dotted(v));
			DType d = last == null ? null : DType.named(last);
			if (d != null) {
				return d;
			}
			Object ev = p.ctx.closure.eval(v);
			if (Values.known(ev)) {
				return pyValue(ev);
			}
			throw new CodegenException("Cannot resolve expression '" + Render.expr(v) + "'", v.span());
		}
		if (v instanceof Expr.ListExpr || v instanceof Expr.TupleExpr) {
			List<Expr> items = v instanceof Expr.ListExpr l ? l.elts() : ((Expr.TupleExpr) v).elts();
			boolean dsl = items.stream().anyMatch(x -> x instanceof Expr.Name n && p.scopes.lookup(n.id()) != null);
			if (dsl) {
				return new dev.ptotools.codegen.ir.Expr.MakeTuple(args(items), v.span());
			}
			Object ev = p.ctx.closure.eval(v);
			if (Values.known(ev)) {
				return pyValue(ev);
			}
			return new dev.ptotools.codegen.ir.Expr.MakeTuple(args(items), v.span());
		}
		Object ev = p.ctx.closure.eval(v);
		if (Values.known(ev) && !(v instanceof Expr.Call)) {
			return pyValue(ev);
		}
		return expr(v);
	}

	/** A folded Python value as the Java value an op kwarg holds (dtype and enums resolved). */
	private static Object pyValue(Object v) {
		if (v instanceof Values.DType d) {
			return DType.named(d.name());
		}
		if (v instanceof Values.EnumValue e) {
			if (e.type().equals("MemorySpace")) {
				return MemorySpace.named(e.member());
			}
			return e;
		}
		return v;
	}

	/**
	 * {@code attrs={...}} of a call of a program function (pypto's _get_call_attrs_dict and
	 * _extract_arg_directions_from_attrs): a dict literal with string keys; {@code "arg_directions"} is a list
	 * of {@code pl.adir.<name>} markers, one per positional argument; the other keys are constants.
	 */
	Map<String, Object> callAttrs(String fname, Expr e, int argCount, Span callSpan) {
		if (!(e instanceof Expr.DictExpr d)) {
			throw new CodegenException("'attrs=' on call to '" + fname + "' must be a dict literal", e.span());
		}
		for (Expr key : d.keys()) {
			if (!(key instanceof Expr.Literal k) || !(k.value() instanceof String)) {
				throw new CodegenException("'attrs=' on call to '" + fname + "' must use string-literal keys",
						key == null ? callSpan : key.span());
			}
			if ("manual_dep_edges".equals(k.value())) {
				// _reject_manual_dep_edges_in_attrs: edges are a submit's deps=, never a call attr
				throw new CodegenException("attrs={'manual_dep_edges': ...} is not accepted on a call to '" + fname + "'",
						callSpan);
			}
		}
		Map<String, Object> out = new LinkedHashMap<>();
		for (int i = 0; i < d.keys().size(); i++) {
			String key = (String) ((Expr.Literal) d.keys().get(i)).value();
			Expr value = d.values().get(i);
			if (!key.equals(dev.ptotools.codegen.ir.ArgDirection.ATTR)) {
				out.put(key, genericAttrValue(value));
				continue;
			}
			if (!(value instanceof Expr.ListExpr l)) {
				throw new CodegenException("attrs['arg_directions'] on call to '" + fname + "' must be a list literal",
						value.span());
			}
			List<dev.ptotools.codegen.ir.ArgDirection> dirs = new ArrayList<>();
			for (Expr elt : l.elts()) {
				String dotted = ExprLowering.dotted(elt);
				String prefix = p.ctx.pl + ".adir.";
				if (dotted == null || !dotted.startsWith(prefix) || dotted.indexOf('.', prefix.length()) >= 0) {
					throw new CodegenException("attrs['arg_directions'] on call to '" + fname + "' must contain "
							+ "'pl.adir.<name>' references only", elt.span());
				}
				String marker = dotted.substring(prefix.length());
				dev.ptotools.codegen.ir.ArgDirection dir = dev.ptotools.codegen.ir.ArgDirection.fromDslName(marker);
				if (dir == null) {
					throw new CodegenException("Unknown call-site direction marker 'pl.adir." + marker + "' in call to '"
							+ fname + "'", elt.span());
				}
				dirs.add(dir);
			}
			if (!dirs.isEmpty() && dirs.size() != argCount) {
				throw new CodegenException("attrs['arg_directions'] length (" + dirs.size() + ") on call to '" + fname
						+ "' must match positional arg count (" + argCount + ")", callSpan);
			}
			if (!dirs.isEmpty()) {
				out.put(key, List.copyOf(dirs));
			}
		}
		return out;
	}

	/**
	 * A value of a key of {@code attrs=} that has no dedicated reader (pypto's _parse_attr_value): a
	 * {@code pl.adir.<name>}, or a list of them, is a direction (list); anything else as a keyword value.
	 */
	private Object genericAttrValue(Expr value) {
		dev.ptotools.codegen.ir.ArgDirection d = direction(value);
		if (d != null) {
			return d;
		}
		if (value instanceof Expr.ListExpr || value instanceof Expr.TupleExpr) {
			List<Expr> items = value instanceof Expr.ListExpr l ? l.elts() : ((Expr.TupleExpr) value).elts();
			List<dev.ptotools.codegen.ir.ArgDirection> dirs = new ArrayList<>();
			for (Expr item : items) {
				dev.ptotools.codegen.ir.ArgDirection x = direction(item);
				if (x != null) {
					dirs.add(x);
				}
			}
			if (!items.isEmpty() && dirs.size() == items.size()) {
				return List.copyOf(dirs);
			}
		}
		return kwargValue(value);
	}

	/** The direction a {@code pl.adir.<name>} spelling names, or null for anything else. */
	private dev.ptotools.codegen.ir.ArgDirection direction(Expr e) {
		String dotted = ExprLowering.dotted(e);
		String prefix = p.ctx.pl + ".adir.";
		return dotted != null && dotted.startsWith(prefix)
				? dev.ptotools.codegen.ir.ArgDirection.fromDslName(dotted.substring(prefix.length()))
				: null;
	}

	/** {@code attrs={"k": constant}} of a loop: an ordered map of constants. */
	Map<String, Object> attrsDict(Expr e) {
		return attrsDict(e, false);
	}

	/**
	 * {@code attrs={"k": constant}}: an ordered map of constants; a function's (decorator) attrs are refused
	 * in the words of pypto's _normalize_attrs.
	 */
	Map<String, Object> attrsDict(Expr e, boolean functionAttrs) {
		if (!(e instanceof Expr.DictExpr d)) {
			throw new CodegenException("attrs must be a dict literal", e.span());
		}
		Map<String, Object> out = new LinkedHashMap<>();
		for (int i = 0; i < d.keys().size(); i++) {
			if (!(d.keys().get(i) instanceof Expr.Literal k) || !(k.value() instanceof String key)) {
				if (!functionAttrs) {
					throw new CodegenException("attrs keys must be string literals", d.keys().get(i).span());
				}
				throw new CodegenException("`@pl.function(attrs=...)` keys must be strings, got "
						+ dev.ptotools.analyzer.ir.Render.expr(d.keys().get(i)), d.keys().get(i).span());
			}
			out.put(key, kwargValue(d.values().get(i)));
		}
		return out;
	}

	private static String binOpName(String op) {
		return switch (op) {
		case "**" -> "Pow";
		case "&" -> "BitAnd";
		case "|" -> "BitOr";
		case "^" -> "BitXor";
		case "@" -> "MatMult";
		default -> op;
		};
	}

	private static String compareName(String op) {
		return switch (op) {
		case "is" -> "Is";
		case "is not" -> "IsNot";
		case "in" -> "In";
		case "not in" -> "NotIn";
		default -> op;
		};
	}

	private static String kind(Expr e) {
		if (e instanceof Expr.Opaque o) {
			return switch (o.kind()) {
			case "lambda" -> "Lambda";
			case "conditional", "ifexp" -> "IfExp";
			case "fstring", "joinedstr" -> "JoinedStr";
			default -> o.kind();
			};
		}
		if (e instanceof Expr.Conditional) {
			return "IfExp";
		}
		if (e instanceof Expr.Starred) {
			return "Starred";
		}
		if (e instanceof Expr.DictExpr) {
			return "Dict";
		}
		return e.getClass().getSimpleName();
	}

	/**
	 * The argument a {@code pl.no_dep(x)} marker wraps at a kernel call or submit argument (markers
	 * nested in markers peeled too), or null when the argument is not one: one positional argument
	 * and no keyword, as pypto's _strip_call_arg_markers matches it.
	 */
	Expr noDepInner(Expr a) {
		Expr inner = null;
		while (a instanceof Expr.Call nd && nd.funcText() != null && nd.args().size() == 1 && nd.keywords().isEmpty()
				&& isNoDep(p.ctx.normalize(nd.funcText()))) {
			inner = a = nd.args().get(0);
		}
		return inner;
	}

	private static boolean isNoDep(String name) {
		return "pl.no_dep".equals(name) || "pl.tensor.no_dep".equals(name);
	}

}
