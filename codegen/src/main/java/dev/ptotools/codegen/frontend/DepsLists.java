package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * A {@code deps=[...]} list of a submit, of {@code pl.at}/{@code pl.spmd} and of
 * {@code pl.system.task_dummy}, as pypto's parser reads it ({@code _parse_submit_deps_kwarg}): a list or
 * tuple literal, or a comprehension, whose entries are TaskId variables, whole TASK_ID arrays, per-element
 * reads {@code arr[i]} of one, or {@code None} (no producer yet, dropped); a whole array is not mixed
 * with per-element entries. A comprehension over a parse-time iterable ({@code [arr[k] for k in
 * range(K) if ...]}) is unrolled into per-element entries; per-element entries are gathered into one
 * synthesized {@code _submit_deps_buf} array (array.create, then one array.update_element per entry,
 * emitted before the statement), which then is the whole list.
 *
 * <p>Needs: the function parser's scope (entries are parsed as DSL expressions) and the statement list
 * being emitted. Produces: the entries' IR, or a {@link CodegenException} with pypto's message.
 */
final class DepsLists {

	/** An entry to parse, with the comprehension variable it reads bound to its value for this entry. */
	private record Entry(Expr expr, String loopName, Object loopValue) {
	}

	private DepsLists() {
	}

	static List<dev.ptotools.codegen.ir.Expr> entries(FunctionParser p, String method, Expr value) {
		List<Entry> items = new ArrayList<>();
		if (comprehension(value)) {
			items.addAll(unroll(p, method, (Expr.Opaque) value));
		} else {
			List<Expr> listed = ExprParser.listOrTuple(value);
			if (listed == null) {
				throw new CodegenException("'" + method + "' deps= must be a list / tuple / comprehension of TaskId values",
						value.span());
			}
			for (Expr e : listed) {
				if (comprehension(e)) {
					items.addAll(unroll(p, method, (Expr.Opaque) e));
				} else {
					items.add(new Entry(e, null, null));
				}
			}
		}
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		boolean perElement = false;
		boolean wholeArray = false;
		for (Entry entry : items) {
			Expr e = entry.expr();
			if (e instanceof Expr.Literal l && l.value() == null) {
				continue;
			}
			dev.ptotools.codegen.ir.Expr x = parse(p, entry);
			if (x instanceof Var v && (taskId(v.type()) || v.type() instanceof Type.Array a && a.dtype() == DType.TASK_ID)) {
				boolean array = v.type() instanceof Type.Array;
				if (array && perElement) {
					throw mixed(method, "array entry '" + Render.expr(e) + "' after a per-element / comprehension entry", e);
				}
				wholeArray |= array;
				out.add(x);
				continue;
			}
			if (x instanceof dev.ptotools.codegen.ir.Expr.Call c && c.isOp("array.get_element") && taskId(c.type())) {
				if (wholeArray) {
					throw mixed(method, "per-element entry '" + Render.expr(e) + "' after a whole-array entry", e);
				}
				perElement = true;
				out.add(x);
				continue;
			}
			if (x.type() instanceof Type.Unknown) {
				out.add(x); // a value this compiler cannot type is not judged
				continue;
			}
			throw new CodegenException("'" + method + "' deps= entries must be a TaskId variable, a TASK_ID array element "
					+ "(e.g. `arr[i]`), or None — got '" + Render.expr(e) + "'", e.span());
		}
		if (!perElement || out.isEmpty()) {
			return out;
		}
		return List.of(synthesize(p, out, value.span()));
	}

	private static boolean comprehension(Expr e) {
		return e instanceof Expr.Opaque o && o.kind().equals("list comprehension");
	}

	private static dev.ptotools.codegen.ir.Expr parse(FunctionParser p, Entry entry) {
		if (entry.loopName() == null) {
			return p.exprs.expr(entry.expr());
		}
		// pypto substitutes the loop variable's value into the entry's AST before parsing it
		p.scopes.enter();
		try {
			p.scopes.bind(entry.loopName(), p.ctx.closure.toIr(entry.loopValue(), entry.expr().span()));
			return p.exprs.expr(entry.expr());
		} finally {
			p.scopes.exit(false);
		}
	}

	/**
	 * pypto's _unroll_deps_comprehension: one {@code for} over a name, an iterable and filters that read no
	 * DSL variable, an iterable of ints; one entry per value the filters keep.
	 */
	private static List<Entry> unroll(FunctionParser p, String method, Expr.Opaque comp) {
		List<Expr> kids = comp.children();
		Span span = comp.span();
		if (kids.size() < 3) {
			throw new CodegenException("'" + method + "' deps= comprehension supports a single `for` clause (v1)", span);
		}
		Expr elt = kids.get(0);
		if (!(kids.get(1) instanceof Expr.Name target)) {
			throw new CodegenException("'" + method + "' deps= comprehension target must be a single name (v1)", span);
		}
		Expr iter = kids.get(2);
		List<Expr> filters = kids.subList(3, kids.size());
		if (readsDslVariable(p, iter, null)) {
			throw new CodegenException("'" + method + "' deps= comprehension iterable depends on an IR variable; cannot "
					+ "unroll at parse time", span);
		}
		for (Expr f : filters) {
			if (readsDslVariable(p, f, target.id())) {
				throw new CodegenException("'" + method + "' deps= comprehension filter depends on an IR variable; cannot "
						+ "unroll at parse time", span);
			}
		}
		String callee = iter instanceof Expr.Call c && c.funcText() != null ? p.ctx.normalize(c.funcText()) : null;
		if (callee != null && (callee.equals("pl.range") || callee.equals("pl.parallel") || callee.equals("pl.pipeline"))) {
			throw new CodegenException("'" + method + "' deps= comprehension iterable is a DSL loop (`pl.range` / "
					+ "`pl.parallel` / `pl.pipeline`); cannot unroll at parse time", span);
		}
		Object values = p.ctx.closure.eval(iter);
		if (!(values instanceof List<?> list)) {
			if (Values.known(values)) {
				throw new CodegenException("'" + method + "' deps= comprehension iterable did not produce a sequence", span);
			}
			throw CodegenException.unsupported("deps= comprehension over an iterable this compiler cannot fold is not "
					+ "supported yet", span);
		}
		for (Object v : list) {
			if (!(v instanceof Long)) {
				throw new CodegenException("'" + method + "' deps= comprehension iterable yielded a non-integer value ("
						+ Values.pythonTypeName(v) + "); only integer indices are supported", span);
			}
		}
		List<Entry> out = new ArrayList<>();
		for (Object v : list) {
			boolean keep = true;
			for (Expr f : filters) {
				Object t = p.ctx.closure.evalWith(Map.of(target.id(), v), f);
				if (!Values.known(t)) {
					throw CodegenException.unsupported("a deps= comprehension filter this compiler cannot fold is not "
							+ "supported yet", f.span());
				}
				keep &= !Boolean.FALSE.equals(Values.truth(t));
			}
			if (keep) {
				out.add(new Entry(elt, target.id(), v));
			}
		}
		return out;
	}

	/** pypto's _is_python_resolvable_ast, negated: some name in the expression is a DSL variable in scope. */
	private static boolean readsDslVariable(FunctionParser p, Expr e, String pythonName) {
		for (String n : dev.ptotools.analyzer.ir.Walk.names(e)) {
			if (!n.equals(pythonName) && p.scopes.resolve(n) != null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * pypto's _synthesize_deps_array: {@code _submit_deps_buf = array.create(N, TASK_ID)}, then one
	 * {@code array.update_element} rebind per entry, emitted before the statement; the last array is the
	 * dependency list.
	 */
	private static Var synthesize(FunctionParser p, List<dev.ptotools.codegen.ir.Expr> entries, Span span) {
		Type.Array type = new Type.Array(DType.TASK_ID, List.of(dev.ptotools.codegen.ir.Expr.index(entries.size())));
		dev.ptotools.codegen.ir.Expr create = dev.ptotools.codegen.ir.Expr.Call.op("array.create",
				List.of(dev.ptotools.codegen.ir.Expr.index(entries.size())), Map.of("dtype", DType.TASK_ID), type, span);
		Var buf = new Var("_submit_deps_buf", type, span);
		p.emitting.add(new dev.ptotools.codegen.ir.Stmt.Assign(buf, create, span));
		for (int i = 0; i < entries.size(); i++) {
			dev.ptotools.codegen.ir.Expr update = dev.ptotools.codegen.ir.Expr.Call.op("array.update_element",
					List.of(buf, dev.ptotools.codegen.ir.Expr.index(i), entries.get(i)), Map.of(), type, span);
			buf = new Var("_submit_deps_buf", type, span);
			p.emitting.add(new dev.ptotools.codegen.ir.Stmt.Assign(buf, update, span));
		}
		return buf;
	}

	private static boolean taskId(Type t) {
		return t instanceof Type.Scalar s && s.dtype() == DType.TASK_ID;
	}

	private static CodegenException mixed(String method, String got, Expr at) {
		return new CodegenException("'" + method + "' deps= cannot mix a whole TASK_ID array with per-element entries (got "
				+ got + ")", at.span());
	}
}
