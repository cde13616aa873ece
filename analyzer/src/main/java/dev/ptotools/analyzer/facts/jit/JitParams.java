package dev.ptotools.analyzer.facts.jit;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.lower.ExprLowering;

/**
 * How pypto's JIT classifies a function's parameters from their annotations, syntactically
 * ({@code _classify_params}): tensors ({@code pl.Tensor}, {@code pld.DistributedTensor}, bare or shaped, inside
 * {@code pl.Out[...]} / {@code pl.InOut[...]} or not), scalars ({@code pl.Scalar[X]} or a bare dtype), and
 * everything else.
 */
public final class JitParams {

	public enum Kind {
		TENSOR, SCALAR, OTHER
	}

	/**
	 * One parameter: kind, direction (Out/InOut only for tensors), whether it is distributed, the dtype
	 * expression of a scalar ({@code X} of {@code pl.Scalar[X]}, or the bare dtype), and the parameter.
	 */
	public record ParamClass(Param param, Kind kind, Direction direction, boolean distributed, Expr scalarDtype) {

		public String name() {
			return param.name();
		}

		public boolean out() {
			return kind == Kind.TENSOR && direction == Direction.Out;
		}

		public boolean inout() {
			return kind == Kind.TENSOR && direction == Direction.InOut;
		}

		/** The shape expressions of a subscripted tensor annotation, or null for a bare one. */
		public List<Expr> shape() {
			return JitParams.shape(param.annotation());
		}

		/** The dtype expression of a subscripted tensor annotation, or null. */
		public Expr dtype() {
			return param.annotation() instanceof Expr.Subscript s && s.indices().size() >= 2 ? s.indices().get(1) : null;
		}

		/** The layout slot of a tensor annotation, or null. */
		public Expr layout() {
			return param.annotation() instanceof Expr.Subscript s && s.indices().size() >= 3 ? s.indices().get(2) : null;
		}
	}

	static final Set<String> DTYPES = Set.of("FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16", "FP32", "BF16", "HF4",
			"HF8", "INT4", "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16", "UINT32", "UINT64", "BOOL",
			"INDEX");

	/** Layout names a layout slot may hold. */
	public static final Set<String> LAYOUTS = Set.of("ND", "DN", "NZ", "MX_A_ZZ", "MX_B_NN");

	private JitParams() {
	}

	public static List<ParamClass> of(Function f) {
		List<ParamClass> out = new ArrayList<>();
		for (Param p : f.params()) {
			if (p.name().equals("self")) {
				continue;
			}
			out.add(classify(p));
		}
		return out;
	}

	public static ParamClass of(Function f, String name) {
		for (ParamClass c : of(f)) {
			if (c.name().equals(name)) {
				return c;
			}
		}
		return null;
	}

	private static ParamClass classify(Param p) {
		Expr ann = p.annotation();
		if (ann == null) {
			return new ParamClass(p, Kind.OTHER, Direction.In, false, null);
		}
		if (p.direction() != Direction.In) {
			return tensorLike(ann) ? new ParamClass(p, Kind.TENSOR, p.direction(), distributed(ann), null)
					: new ParamClass(p, Kind.OTHER, Direction.In, false, null);
		}
		if (ann instanceof Expr.Subscript s && "Scalar".equals(last(ExprLowering.dotted(s.value())))) {
			Expr inner = s.indices().size() == 1 ? s.indices().get(0) : new Expr.TupleExpr(s.indices(), s.span());
			return new ParamClass(p, Kind.SCALAR, Direction.In, false, inner);
		}
		if (tensorLike(ann)) {
			return new ParamClass(p, Kind.TENSOR, Direction.In, distributed(ann), null);
		}
		String head = last(ExprLowering.dotted(ann));
		if ((ann instanceof Expr.Name || ann instanceof Expr.Attribute) && head != null && DTYPES.contains(head)) {
			return new ParamClass(p, Kind.SCALAR, Direction.In, false,
					new Expr.Attribute(new Expr.Name("pl", ann.span()), head, ann.span(), ann.span()));
		}
		return new ParamClass(p, Kind.OTHER, Direction.In, false, null);
	}

	/** {@code Tensor} / {@code DistributedTensor}, as a name or attribute, bare or subscripted. */
	public static boolean tensorLike(Expr e) {
		if (e instanceof Expr.Subscript s) {
			return tensorLike(s.value());
		}
		String head = e instanceof Expr.Name || e instanceof Expr.Attribute ? last(ExprLowering.dotted(e)) : null;
		return "Tensor".equals(head) || "DistributedTensor".equals(head);
	}

	private static boolean distributed(Expr e) {
		Expr head = e instanceof Expr.Subscript s ? s.value() : e;
		return "DistributedTensor".equals(last(ExprLowering.dotted(head)));
	}

	/** The shape list of {@code pl.Tensor[[...], dt]}, or null. */
	static List<Expr> shape(Expr ann) {
		if (ann instanceof Expr.Subscript s && tensorLike(s) && !s.indices().isEmpty()) {
			Expr first = s.indices().get(0);
			if (first instanceof Expr.ListExpr l) {
				return l.elts();
			}
			if (first instanceof Expr.TupleExpr t) {
				return t.elts();
			}
		}
		return null;
	}

	static String last(String dotted) {
		if (dotted == null) {
			return null;
		}
		int dot = dotted.lastIndexOf('.');
		return dot < 0 ? dotted : dotted.substring(dot + 1);
	}
}
