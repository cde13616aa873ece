package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * A {@code deps=[...]} list of a submit or of {@code pl.system.task_dummy}, as pypto's parser reads it
 * ({@code _parse_submit_deps_kwarg}): a list or tuple literal whose entries are TaskId variables, whole
 * TASK_ID arrays, per-element reads {@code arr[i]} of one, or {@code None} (no producer yet, dropped); a
 * whole array is not mixed with per-element entries.
 *
 * <p>Needs: the function parser's scope (entries are parsed as DSL expressions). Produces: the entries'
 * IR, or a {@link CodegenException} with pypto's message at the entry.
 */
final class DepsLists {

	private DepsLists() {
	}

	static List<dev.ptotools.codegen.ir.Expr> entries(FunctionParser p, String method, Expr value) {
		if (value instanceof Expr.Opaque o && o.kind().equals("list comprehension")
				|| (value instanceof Expr.ListExpr l0 && l0.elts().stream().anyMatch(
						x -> x instanceof Expr.Opaque o && o.kind().equals("list comprehension")))) {
			// pypto unrolls a comprehension over a static range into its entries (_unroll_deps_comprehension)
			throw CodegenException.unsupported("deps= given by a list comprehension is not supported by this compiler "
					+ "yet", value.span());
		}
		List<Expr> items = ExprParser.listOrTuple(value);
		if (items == null) {
			throw new CodegenException("'" + method + "' deps= must be a list / tuple / comprehension of TaskId values",
					value.span());
		}
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		boolean perElement = false;
		boolean wholeArray = false;
		for (Expr e : items) {
			if (e instanceof Expr.Literal l && l.value() == null) {
				continue;
			}
			dev.ptotools.codegen.ir.Expr x = p.exprs.expr(e);
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
		return out;
	}

	private static boolean taskId(Type t) {
		return t instanceof Type.Scalar s && s.dtype() == DType.TASK_ID;
	}

	private static CodegenException mixed(String method, String got, Expr at) {
		return new CodegenException("'" + method + "' deps= cannot mix a whole TASK_ID array with per-element entries (got "
				+ got + ")", at.span());
	}
}
