package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Type annotations to IR types, as pypto's {@code type_resolver.py} resolves them: shape extents are int
 * literals, closure values (ints or {@code pl.dynamic} symbols), DSL scalar variables, or expressions
 * Python can fold; dtypes are {@code pl.<DTYPE>} or closure DataTypes.
 */
final class TypeResolver {

	private final Closure closure;
	/** DSL-scope lookup (a scalar Var a shape may name), or null outside a body. */
	private final Function<String, Var> scope;

	TypeResolver(Closure closure, Function<String, Var> scope) {
		this.closure = closure;
		this.scope = scope;
	}

	/** Annotations pypto's parser leaves unresolved on an assignment (it checks nothing against them). */
	private static final java.util.Set<String> UNRESOLVED = java.util.Set.of("pl.UnknownType", "pl.MemRefType", "pl.Ptr",
			"pld.WindowBufferType", "pld.CommCtxType");

	/**
	 * The type an assignment's annotation states, or null where pypto's parser resolves none to check the
	 * value against: a string, pl.Ptr and the other handle types it lists, and {@code tuple[...]} (a list of
	 * types, which it does not compare).
	 */
	Type assigned(Expr annotation) {
		if (annotation instanceof Expr.Literal l && l.value() instanceof String) {
			return null;
		}
		String dotted = ExprLowering.dotted(annotation);
		if ((dotted != null && UNRESOLVED.contains(dotted)) || isTuple(annotation)) {
			return null;
		}
		return resolve(annotation);
	}

	/** A parameter's type: pypto refuses a tuple there (the direction wrapper already taken off). */
	Type param(Expr annotation) {
		Expr inner = annotation;
		if (inner instanceof Expr.Subscript s && ("Out".equals(last(ExprLowering.dotted(s.value())))
				|| "InOut".equals(last(ExprLowering.dotted(s.value())))) && s.indices().size() == 1) {
			inner = s.indices().get(0);
		}
		if (isTuple(inner)) {
			throw new CodegenException("Parameter type cannot be a tuple", inner.span());
		}
		return resolve(annotation);
	}

	private static boolean isTuple(Expr annotation) {
		return annotation instanceof Expr.Subscript s && s.value() instanceof Expr.Name n && n.id().equals("tuple");
	}

	/** The type an annotation denotes; tuple[...] is only meaningful for returns (see {@link #returns}). */
	Type resolve(Expr annotation) {
		if (annotation instanceof Expr.Subscript s) {
			String head = last(ExprLowering.dotted(s.value()));
			if (head == null) {
				throw new CodegenException("Unsupported type annotation", annotation.span());
			}
			switch (head) {
			case "Tensor", "DistributedTensor", "Tile":
				return shaped(head, s);
			case "Scalar":
				return new Type.Scalar(dtype(s.indices().get(0)));
			case "Out", "InOut":
				return resolve(s.indices().get(0));
			case "Tuple":
				return tuple(s.indices().size() == 1 && s.indices().get(0) instanceof Expr.TupleExpr t ? t.elts() : s.indices());
			case "Array": {
				if (s.indices().size() != 2) {
					throw new CodegenException("pl.Array requires [extent, dtype]", annotation.span());
				}
				return new Type.Array(dtype(s.indices().get(1)), List.of(dim(s.indices().get(0))));
			}
			default:
				throw new CodegenException("Unsupported type annotation: " + head, annotation.span());
			}
		}
		String dotted = ExprLowering.dotted(annotation);
		String head = last(dotted);
		if ("Tensor".equals(head) || "Tile".equals(head) || "DistributedTensor".equals(head)) {
			throw new CodegenException("Incomplete type annotation: pl." + head, annotation.span());
		}
		if ("Scalar".equals(head)) {
			throw new CodegenException("Incomplete type annotation: pl.Scalar", annotation.span());
		}
		DType d = head == null ? null : DType.named(head);
		if (d != null) {
			return new Type.Scalar(d);
		}
		if ("CommCtx".equals(head) || "CommCtxType".equals(head)) {
			return new Type.CommCtx(); // pld.CommCtx: a communication context handle
		}
		if (annotation instanceof Expr.Name n && closure.value(n.id()) instanceof Values.DType v) {
			return new Type.Scalar(DType.named(v.name()));
		}
		throw new CodegenException("Unsupported type annotation: " + (dotted == null ? "expression" : dotted),
				annotation.span());
	}

	/**
	 * {@code pl.Tuple[T1, T2, ...]} (or {@code pl.Tuple[()]}): one TupleType, as pypto's
	 * _resolve_tuple_subscript_type builds it. Unlike {@code tuple[...]} on a return, which declares several
	 * return types, it is a single type.
	 */
	private Type tuple(List<Expr> elts) {
		List<Type> types = new ArrayList<>();
		for (Expr elt : elts) {
			boolean builtinTuple = elt instanceof Expr.Subscript x && x.value() instanceof Expr.Name n && n.id().equals("tuple");
			Type t = builtinTuple ? null : resolve(elt);
			if (t == null || t instanceof Type.Tuple) {
				throw new CodegenException("Nested tuple types are not supported", elt.span());
			}
			types.add(t);
		}
		return new Type.Tuple(types);
	}

	/** The return types of a return annotation: one per tuple[...] element, else the one type. */
	List<Type> returns(Expr annotation) {
		if (annotation == null) {
			return List.of();
		}
		if (annotation instanceof Expr.Subscript s && s.value() instanceof Expr.Name n && n.id().equals("tuple")) {
			List<Expr> items = s.indices().size() == 1 && s.indices().get(0) instanceof Expr.TupleExpr t ? t.elts()
					: s.indices();
			List<Type> out = new ArrayList<>();
			for (Expr item : items) {
				out.add(resolve(item));
			}
			return out;
		}
		if (annotation instanceof Expr.Literal l && l.value() == null) {
			return List.of();
		}
		return List.of(resolve(annotation));
	}

	private Type shaped(String head, Expr.Subscript s) {
		List<Expr> items = s.indices();
		if (items.size() < 2) {
			throw new CodegenException("Tensor subscript requires [shape, dtype], [shape, dtype, layout_or_memref], or "
					+ "[shape, dtype, layout, memref], got: " + items.size() + " items", s.span());
		}
		List<dev.ptotools.codegen.ir.Expr> shape = shape(items.get(0));
		DType dtype = dtype(items.get(1));
		if (head.equals("Tile")) {
			return new Type.Tile(shape, dtype);
		}
		Type.TensorView view = null;
		if (items.size() >= 3) {
			view = view(items.get(2));
			if (view != null && "DN".equals(view.layout()) && !(items.get(2) instanceof Expr.Call)) {
				// _reject_user_facing_dn_layout: only pl.TensorView(stride=..., layout=DN) carries a DN view
				throw new CodegenException("pl." + head + "[..., " + Render.expr(items.get(2)) + "] is not supported: the DN "
						+ "layout-only shorthand forces two coordinate systems (IR-logical post-view vs. runtime row-major) "
						+ "onto one annotation", items.get(2).span());
			}
		}
		return new Type.Tensor(shape, dtype, view, head.equals("DistributedTensor"), null);
	}

	/** The third slot of a tensor annotation: a layout ({@code pl.DN}) or {@code pl.TensorView(...)}. */
	private Type.TensorView view(Expr e) {
		if (e instanceof Expr.Call c && "TensorView".equals(last(ExprLowering.dotted(c.func())))) {
			String layout = "ND";
			List<dev.ptotools.codegen.ir.Expr> stride = List.of();
			List<dev.ptotools.codegen.ir.Expr> valid = List.of();
			for (Expr.Keyword k : c.keywords()) {
				switch (k.name() == null ? "" : k.name()) {
				case "layout" -> layout = last(ExprLowering.dotted(k.value()));
				case "stride" -> stride = shape(k.value());
				case "valid_shape" -> valid = shape(k.value());
				default -> {
				}
				}
			}
			return new Type.TensorView(layout, stride, valid);
		}
		String layout = last(ExprLowering.dotted(e));
		return layout == null || layout.equals("ND") ? null : new Type.TensorView(layout, List.of(), List.of());
	}

	List<dev.ptotools.codegen.ir.Expr> shape(Expr e) {
		List<Expr> elts;
		if (e instanceof Expr.ListExpr l) {
			elts = l.elts();
		} else if (e instanceof Expr.TupleExpr t) {
			elts = t.elts();
		} else {
			Object v = closure.eval(e);
			if (v instanceof List<?> list) {
				List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
				for (Object o : list) {
					out.add(extent(o, e));
				}
				return out;
			}
			// _parse_shape / _validate_shape_value's messages, by what the expression is
			if (dev.ptotools.analyzer.facts.Values.known(v)) {
				String source = e instanceof Expr.Name n ? n.id() : dev.ptotools.analyzer.ir.Render.expr(e);
				throw new CodegenException("Shape '" + source + "' must be a list or tuple, got "
						+ dev.ptotools.analyzer.facts.Values.pythonTypeName(v), e.span());
			}
			if (e instanceof Expr.Name n && !closure.has(n.id())) {
				throw new CodegenException("Unknown shape variable: " + n.id(), e.span());
			}
			throw new CodegenException("Shape must be a list, tuple, or variable: " + dev.ptotools.analyzer.ir.Render.expr(e),
					e.span());
		}
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		for (Expr x : elts) {
			out.add(dim(x));
		}
		return out;
	}

	/** One extent: an int literal, a closure int or symbol, a DSL scalar, or a foldable expression. */
	dev.ptotools.codegen.ir.Expr dim(Expr e) {
		if (e instanceof Expr.Literal l && l.value() instanceof Long v) {
			return dev.ptotools.codegen.ir.Expr.index(v);
		}
		if (e instanceof Expr.Name n) {
			if (closure.has(n.id())) {
				return extent(closure.value(n.id()), e);
			}
			Var v = scope == null ? null : scope.apply(n.id());
			if (v != null) {
				return v;
			}
			throw new CodegenException("Unknown shape variable: " + n.id(), e.span());
		}
		Object v = closure.eval(e);
		if (Values.known(v)) {
			return extent(v, e);
		}
		if (e instanceof Expr.BinOp b && scope != null && List.of("+", "-", "*", "//", "%").contains(b.op())) {
			return ScalarOps.binary(b.op(), dim(b.left()), dim(b.right()), b.span());
		}
		throw new CodegenException("Shape dimension must be int literal, variable, or evaluable expression: "
				+ dev.ptotools.analyzer.ir.Render.expr(e), e.span());
	}

	private dev.ptotools.codegen.ir.Expr extent(Object v, Expr at) {
		if (v instanceof Long l) {
			return dev.ptotools.codegen.ir.Expr.index(l);
		}
		if (v instanceof Values.DynVar d) {
			return closure.dynVar(d.name());
		}
		if (v instanceof Boolean b) {
			return dev.ptotools.codegen.ir.Expr.index(b ? 1 : 0);
		}
		throw new CodegenException("Shape variable '" + dev.ptotools.analyzer.ir.Render.expr(at) + "' must be int or pl.dynamic(), got "
				+ Closure.typeName(v), at.span());
	}

	DType dtype(Expr e) {
		String head = last(ExprLowering.dotted(e));
		DType d = head == null ? null : DType.named(head);
		if (d != null) {
			return d;
		}
		if (e instanceof Expr.Name n && closure.value(n.id()) instanceof Values.DType v) {
			return DType.named(v.name());
		}
		throw new CodegenException("Unknown dtype: " + (head == null ? dev.ptotools.analyzer.ir.Render.expr(e) : head), e.span());
	}

	static String last(String dotted) {
		if (dotted == null) {
			return null;
		}
		int dot = dotted.lastIndexOf('.');
		return dot < 0 ? dotted : dotted.substring(dot + 1);
	}

}
