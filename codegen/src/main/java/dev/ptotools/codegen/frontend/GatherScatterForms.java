package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.codegen.ir.Expr.Call;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The gather and scatter wrappers whose keywords choose the op, as pypto's IR builders split them
 * (python/pypto/ir/op/tensor_ops.py {@code gather} / {@code scatter}, tile_ops.py {@code gather_mask} /
 * {@code scatter_mask}): {@code pl.tensor.gather(x, dim=-1, index=i)} is {@code tensor.gather} with
 * operands {@code [x, i]} and attribute {@code dim}; {@code mask_pattern=} makes the mask form, whose
 * pattern is an attribute (an int: {@code pl.tile.MaskPattern.P0101} is 1); {@code kvalue=} the compare
 * form, whose {@code cmp_mode} is resolved to its int. Operands come in the builder's order whether they
 * are written positionally or by keyword, attributes in the order the builder inserts them. The generic
 * path would take a tensor given by keyword for an attribute and leave it out of the kernel's operands.
 */
final class GatherScatterForms {

	private static final List<String> CMP_MODES = List.of("eq", "ne", "lt", "le", "gt", "ge");

	private final FunctionParser p;

	GatherScatterForms(FunctionParser p) {
		this.p = p;
	}

	/** Whether the catalog name is one of these wrappers. */
	static boolean handles(String name) {
		return switch (name) {
		case "pl.tensor.gather", "pl.tensor.scatter", "pl.tile.gather_mask", "pl.tile.scatter_mask" -> true;
		default -> false;
		};
	}

	/** The op call for a wrapper {@link #handles} names, from its arguments bound by parameter name. */
	dev.ptotools.codegen.ir.Expr build(String name, Expr.Call c, Map<String, Expr> a) {
		return switch (name) {
		case "pl.tensor.gather" -> tensorGather(c, a);
		case "pl.tensor.scatter" -> tensorScatter(c, a);
		case "pl.tile.gather_mask" -> call("tile.gather_mask", c, operands(c, a, "src"), maskAttrs(c, a));
		case "pl.tile.scatter_mask" -> call("tile.scatter_mask", c, operands(c, a, "dst", "src"), maskAttrs(c, a));
		default -> throw new IllegalArgumentException(name);
		};
	}

	private dev.ptotools.codegen.ir.Expr tensorGather(Expr.Call c, Map<String, Expr> a) {
		boolean mask = given(a, "mask_pattern") || given(a, "output_dtype");
		boolean compare = given(a, "kvalue") || given(a, "cmp_mode") || given(a, "out_cols");
		if (mask && compare || (mask || compare) && (given(a, "dim") || given(a, "index"))) {
			throw new CodegenException("gather() index form (dim, index), mask form (mask_pattern=...) and compare form"
					+ " (kvalue=..., cmp_mode=..., out_cols=...) are mutually exclusive; do not mix kwargs from different forms",
					c.span());
		}
		if (mask) {
			return call("tensor.gather_mask", c, operands(c, a, "input"), maskAttrs(c, a));
		}
		if (compare) {
			Map<String, Object> attrs = new LinkedHashMap<>();
			attrs.put("cmp_mode", cmpMode(c, required(c, a, "cmp_mode")));
			attrs.put("offset", given(a, "offset") ? value(a.get("offset")) : 0L);
			attrs.put("out_cols", value(required(c, a, "out_cols")));
			if (given(a, "count_dtype")) {
				attrs.put("count_dtype", value(a.get("count_dtype")));
			}
			return call("tensor.gather_compare", c, operands(c, a, "input", "kvalue"), attrs);
		}
		Map<String, Object> attrs = new LinkedHashMap<>();
		attrs.put("dim", value(required(c, a, "dim")));
		return call("tensor.gather", c, operands(c, a, "input", "index"), attrs);
	}

	private dev.ptotools.codegen.ir.Expr tensorScatter(Expr.Call c, Map<String, Expr> a) {
		boolean mask = given(a, "mask_pattern") || given(a, "dst");
		if (mask && (given(a, "dim") || given(a, "index") || given(a, "src"))) {
			throw new CodegenException("scatter() index form (dim, index, src) and mask form (mask_pattern, dst) are"
					+ " mutually exclusive; do not mix kwargs from different forms", c.span());
		}
		if (mask) {
			Map<String, Object> attrs = new LinkedHashMap<>();
			attrs.put("mask_pattern", value(required(c, a, "mask_pattern")));
			return call("tensor.scatter_mask", c, operands(c, a, "input", "dst"), attrs);
		}
		Map<String, Object> attrs = new LinkedHashMap<>();
		attrs.put("dim", value(required(c, a, "dim")));
		return call("tensor.scatter", c, operands(c, a, "input", "index", "src"), attrs);
	}

	/** {@code mask_pattern}, then {@code output_dtype} when given, as the mask builders insert them. */
	private Map<String, Object> maskAttrs(Expr.Call c, Map<String, Expr> a) {
		Map<String, Object> attrs = new LinkedHashMap<>();
		attrs.put("mask_pattern", value(required(c, a, "mask_pattern")));
		if (given(a, "output_dtype")) {
			attrs.put("output_dtype", value(a.get("output_dtype")));
		}
		return attrs;
	}

	private List<dev.ptotools.codegen.ir.Expr> operands(Expr.Call c, Map<String, Expr> a, String... names) {
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		for (String n : names) {
			out.add(p.exprs.expr(required(c, a, n)));
		}
		return out;
	}

	/** An attribute as pypto's parser passes a keyword to the wrapper: a Python value, or IR for a DSL variable. */
	private Object value(Expr e) {
		return p.exprs.kwargValue(e);
	}

	private Object cmpMode(Expr.Call c, Expr e) {
		Object v = value(e);
		if (v instanceof String s && CMP_MODES.contains(s)) {
			return (long) CMP_MODES.indexOf(s);
		}
		if (v instanceof Long l && l >= 0 && l < CMP_MODES.size()) {
			return l;
		}
		throw new CodegenException("cmp_mode must be one of " + CMP_MODES + " or an int in [0, 5], got "
				+ Render.expr(e), e.span());
	}

	private static boolean given(Map<String, Expr> a, String name) {
		return OpCalls.present(a.get(name)) != null;
	}

	private static Expr required(Expr.Call c, Map<String, Expr> a, String name) {
		if (!given(a, name)) {
			throw new CodegenException("missing argument '" + name + "' in " + Render.expr(c), c.span());
		}
		return a.get(name);
	}

	private static Call call(String op, Expr.Call c, List<dev.ptotools.codegen.ir.Expr> args, Map<String, Object> attrs) {
		return Call.op(op, args, attrs, OpTypes.deduce(op, args, attrs, c.span()), c.span());
	}
}
