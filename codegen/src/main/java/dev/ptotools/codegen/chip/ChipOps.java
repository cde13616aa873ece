package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The {@code pl.tensor.*} ops an orchestration body may use, lowered with pypto's argument layout
 * (shape and offset tuples, drop_dims, keyword attributes) and result types, plus tensor subscripts.
 */
final class ChipOps {

	private final ChipExprLowering lower;
	private final ChipTypes types;

	ChipOps(ChipExprLowering lower, ChipTypes types) {
		this.lower = lower;
		this.types = types;
	}

	/** A builtin call by canonical catalog name. */
	OExpr builtin(Expr.Call c, String name) {
		switch (name) {
		case "pl.tensor.create":
			return create(c);
		case "pl.tensor.read": {
			Map<String, Expr> a = bind(c, "tensor", "indices");
			OExpr t = tensorArg(a.get("tensor"), c);
			return call("tensor.read", List.of(t, indexTuple(a.get("indices"))), Map.of(),
					new OType.Scalar(tensorType(t, c).dtype()), c);
		}
		case "pl.tensor.write": {
			Map<String, Expr> a = bind(c, "tensor", "indices", "value");
			OExpr t = tensorArg(a.get("tensor"), c);
			return call("tensor.write", List.of(t, indexTuple(a.get("indices")), lower.expr(a.get("value"))), Map.of(),
					new OType.None(), c);
		}
		case "pl.tensor.dim":
			return dim(c);
		case "pl.tensor.slice":
		case "pl.slice":
			return slice(c);
		case "pl.tensor.reshape":
		case "pl.reshape": {
			Map<String, Expr> a = bind(c, "tensor", "shape");
			OExpr t = tensorArg(a.get("tensor"), c);
			OExpr.MakeTuple shape = indexTuple(a.get("shape"));
			return call("tensor.reshape", List.of(t, shape), Map.of(), withShape(tensorType(t, c), shape.elements()), c);
		}
		case "pl.tensor.view":
			return view(c);
		case "pl.tensor.transpose":
		case "pl.transpose":
			return transpose(c);
		case "pl.tensor.assemble":
		case "pl.assemble": {
			Map<String, Expr> a = bind(c, "target", "source", "offset");
			OExpr target = tensorArg(a.get("target"), c);
			Map<String, Object> kw = new HashMap<>();
			if (c.keyword("atomic") != null) {
				kw.put("atomic", Boolean.TRUE);
			}
			return call("tensor.assemble", List.of(target, tensorArg(a.get("source"), c), indexTuple(a.get("offset"))),
					kw, target.type(), c);
		}
		case "pl.const": {
			Map<String, Expr> a = bind(c, "value", "dtype");
			DType dtype = types.dtype(a.get("dtype"));
			Object v = lower.ctx().eval().eval(a.get("value"));
			if (dtype == null || !(v instanceof Long || v instanceof Double || v instanceof Boolean)) {
				throw new CodegenException("pl.const needs a constant value and a dtype", c.span());
			}
			if (dtype == DType.BOOL) {
				return new OExpr.ConstBool(Boolean.TRUE.equals(v) || (v instanceof Long l && l != 0));
			}
			return dtype.isFloat() ? new OExpr.ConstFloat(((Number) v).doubleValue(), dtype)
					: new OExpr.ConstInt(((Number) v).longValue(), dtype);
		}
		case "pl.system.available_cluster_count":
			return call("system.available_cluster_count", List.of(), Map.of(), new OType.Scalar(DType.INT32), c);
		case "pl.system.available_aiv_count":
			return call("system.available_aiv_count", List.of(), Map.of(), new OType.Scalar(DType.INT32), c);
		case "pl.tile.max":
		case "pl.tile.min": {
			if (c.args().size() == 2) {
				OExpr l = lower.expr(c.args().get(0));
				OExpr r = lower.expr(c.args().get(1));
				if (l.type() instanceof OType.Scalar && r.type() instanceof OType.Scalar) {
					return new OExpr.Binary(name.endsWith("max") ? "max" : "min", l, r,
							ChipExprLowering.promote(ChipExprLowering.dtypeOf(l), ChipExprLowering.dtypeOf(r)));
				}
			}
			return call(name, List.of(), Map.of(), new OType.None(), c);
		}
		default:
			String op = name.startsWith("pl.tensor.") ? name.substring(3) : name;
			return call(op, List.of(), Map.of(), new OType.None(), c);
		}
	}

	private OExpr create(Expr.Call c) {
		Map<String, Expr> a = bind(c, "shape", "dtype", "layout", "manual_dep", "init_value");
		OExpr.MakeTuple shape = indexTuple(a.get("shape"));
		DType dtype = types.dtype(a.get("dtype"));
		if (dtype == null) {
			throw new CodegenException("pl.create_tensor needs dtype=pl.<DTYPE>", c.span());
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		if (a.get("manual_dep") != null) {
			kw.put("manual_dep", Boolean.TRUE.equals(lower.ctx().eval().eval(a.get("manual_dep"))));
		}
		if (a.get("init_value") != null) {
			Object v = lower.ctx().eval().eval(a.get("init_value"));
			if (!(v instanceof Long || v instanceof Double)) {
				throw new CodegenException("init_value must be a numeric constant", a.get("init_value").span());
			}
			double d = ((Number) v).doubleValue();
			if (Double.isNaN(d) || Double.isInfinite(d)) {
				throw new CodegenException("tensor.create: init_value must be finite, got " + d + ".", c.span());
			}
			if (v instanceof Long l && (l > (1L << 53) || l < -(1L << 53))) {
				throw new CodegenException("tensor.create: init_value " + l + " exceeds the exactly-representable "
						+ "integer range (+/-2^53); large-magnitude integer fills are not supported.", c.span());
			}
			kw.put("init_value", d);
		}
		return call("tensor.create", List.of(shape), kw,
				new OType.Tensor(shape.elements(), dtype, false, "ND"), c);
	}

	private OExpr dim(Expr.Call c) {
		Map<String, Expr> a = bind(c, "tensor", "axis");
		OExpr t = tensorArg(a.get("tensor"), c);
		OType.Tensor tt = tensorType(t, c);
		Long axis = lower.ctx().eval().asLong(a.get("axis"));
		if (axis == null) {
			throw new CodegenException("tensor.dim axis must be a constant", c.span());
		}
		long ax = axis < 0 ? axis + tt.shape().size() : axis;
		if (ax < 0 || ax >= tt.shape().size()) {
			throw new CodegenException("tensor.dim axis out of range", c.span());
		}
		// pypto's parser folds the extent of a dynamic axis onto its symbol in orchestration bodies.
		if (tt.shape().get((int) ax) instanceof OExpr.Ref r && r.var().kind == OVar.Kind.DYN_DIM) {
			return r;
		}
		return call("tensor.dim", List.of(t, new OExpr.ConstInt(ax, DType.INDEX)), Map.of(),
				new OType.Scalar(DType.INDEX), c);
	}

	private OExpr slice(Expr.Call c) {
		Map<String, Expr> a = bind(c, "tensor", "shape", "offset", "valid_shape", "drop_dims");
		if (a.get("tensor") == null) {
			a.put("tensor", a.remove("input"));
		}
		OExpr t = tensorArg(a.get("tensor"), c);
		OExpr.MakeTuple shape = indexTuple(a.get("shape"));
		OExpr.MakeTuple offset = indexTuple(a.get("offset"));
		List<OExpr> args = new ArrayList<>(List.of(t, shape, offset));
		List<Integer> drops = new ArrayList<>();
		if (a.get("drop_dims") != null) {
			for (OExpr d : indexTuple(a.get("drop_dims")).elements()) {
				drops.add((int) ((OExpr.ConstInt) d).value());
			}
		}
		if (a.get("valid_shape") != null || !drops.isEmpty()) {
			args.add(a.get("valid_shape") != null ? indexTuple(a.get("valid_shape")) : new OExpr.MakeTuple(List.of()));
		}
		if (!drops.isEmpty()) {
			args.add(new OExpr.MakeTuple(drops.stream().map(d -> (OExpr) new OExpr.ConstInt(d, DType.INDEX)).toList()));
		}
		return call("tensor.slice", args, Map.of(), sliceType(tensorType(t, c), shape.elements(), drops), c);
	}

	private OExpr view(Expr.Call c) {
		Map<String, Expr> a = bind(c, "tensor", "shape", "valid_shape");
		OExpr t = tensorArg(a.get("tensor"), c);
		OType.Tensor tt = tensorType(t, c);
		Map<String, Object> kw = new HashMap<>();
		String layout = tt.layout();
		if (c.keyword("layout") != null) {
			Object v = lower.ctx().eval().eval(c.keyword("layout").value());
			layout = v instanceof Values.EnumValue ev ? ev.member() : layoutName(c.keyword("layout").value());
			kw.put("layout", layout);
		}
		List<OExpr> args = new ArrayList<>(List.of(t));
		List<OExpr> shape = tt.shape();
		if (a.get("shape") != null) {
			OExpr.MakeTuple s = indexTuple(a.get("shape"));
			args.add(s);
			shape = s.elements();
		}
		return call("tensor.view", args, kw, new OType.Tensor(shape, tt.dtype(), tt.distributed(), layout), c);
	}

	private static String layoutName(Expr e) {
		return e instanceof Expr.Attribute at ? at.attr() : "ND";
	}

	private OExpr transpose(Expr.Call c) {
		Map<String, Expr> a = bind(c, "tensor", "axis1", "axis2");
		OExpr t = tensorArg(a.get("tensor"), c);
		OType.Tensor tt = tensorType(t, c);
		Long a1 = lower.ctx().eval().asLong(a.get("axis1"));
		Long a2 = lower.ctx().eval().asLong(a.get("axis2"));
		if (a1 == null || a2 == null) {
			throw new CodegenException("tensor.transpose requires constant axes", c.span());
		}
		int n = tt.shape().size();
		int x = (int) (a1 < 0 ? a1 + n : a1);
		int y = (int) (a2 < 0 ? a2 + n : a2);
		List<OExpr> shape = new ArrayList<>(tt.shape());
		if (x >= 0 && x < n && y >= 0 && y < n) {
			OExpr tmp = shape.get(x);
			shape.set(x, shape.get(y));
			shape.set(y, tmp);
		}
		return call("tensor.transpose",
				List.of(t, new OExpr.ConstInt(a1, DType.INDEX), new OExpr.ConstInt(a2, DType.INDEX)), Map.of(),
				new OType.Tensor(List.copyOf(shape), tt.dtype(), tt.distributed(), tt.layout()), c);
	}

	/** {@code t[i, j]}: all scalar full-rank indices read an element, anything else slices. */
	OExpr subscript(Expr.Subscript s) {
		OExpr base = lower.expr(s.value());
		if (!(base.type() instanceof OType.Tensor tt)) {
			throw new CodegenException("subscript of a non-tensor value is not supported in orchestration code",
					s.span());
		}
		int rank = tt.shape().size();
		if (s.indices().size() > rank) {
			throw new CodegenException("Tensor subscript has " + s.indices().size() + " indices but the tensor is "
					+ rank + "D", s.span());
		}
		boolean allScalar = s.indices().stream().noneMatch(i -> i instanceof Expr.SliceExpr);
		if (allScalar && s.indices().size() == rank) {
			List<OExpr> idx = new ArrayList<>();
			for (Expr i : s.indices()) {
				idx.add(lower.expr(i));
			}
			return new OExpr.Call("tensor.read", null, List.of(base, new OExpr.MakeTuple(List.copyOf(idx))), Map.of(),
					List.of(), Set.of(), new OType.Scalar(tt.dtype()), s.span());
		}
		List<OExpr> shape = new ArrayList<>();
		List<OExpr> offset = new ArrayList<>();
		List<Integer> drops = new ArrayList<>();
		for (int k = 0; k < rank; k++) {
			Expr i = k < s.indices().size() ? s.indices().get(k) : null;
			OExpr extent = tt.shape().get(k);
			if (i == null) {
				offset.add(new OExpr.ConstInt(0, DType.INDEX));
				shape.add(extent);
			} else if (i instanceof Expr.SliceExpr sl) {
				if (sl.step() != null) {
					throw new CodegenException("slice step is not supported", sl.span());
				}
				OExpr lo = sl.lower() == null ? new OExpr.ConstInt(0, DType.INDEX) : lower.expr(sl.lower());
				OExpr hi = sl.upper() == null ? extent : lower.expr(sl.upper());
				offset.add(lo);
				shape.add(difference(hi, lo));
			} else {
				offset.add(lower.expr(i));
				shape.add(new OExpr.ConstInt(1, DType.INDEX));
				drops.add(k);
			}
		}
		List<OExpr> args = new ArrayList<>(List.of(base, new OExpr.MakeTuple(List.copyOf(shape)),
				new OExpr.MakeTuple(List.copyOf(offset))));
		if (!drops.isEmpty()) {
			args.add(new OExpr.MakeTuple(List.of()));
			args.add(new OExpr.MakeTuple(drops.stream().map(d -> (OExpr) new OExpr.ConstInt(d, DType.INDEX)).toList()));
		}
		return new OExpr.Call("tensor.slice", null, List.copyOf(args), Map.of(), List.of(), Set.of(),
				sliceType(tt, shape, drops), s.span());
	}

	private static OExpr difference(OExpr hi, OExpr lo) {
		if (hi instanceof OExpr.ConstInt h && lo instanceof OExpr.ConstInt l) {
			return new OExpr.ConstInt(h.value() - l.value(), DType.INDEX);
		}
		if (lo instanceof OExpr.ConstInt l && l.value() == 0) {
			return hi;
		}
		return new OExpr.Binary("-", hi, lo, DType.INDEX);
	}

	private static OType.Tensor sliceType(OType.Tensor in, List<OExpr> shape, List<Integer> drops) {
		List<OExpr> kept = new ArrayList<>();
		for (int k = 0; k < shape.size(); k++) {
			if (!drops.contains(k)) {
				kept.add(shape.get(k));
			}
		}
		return new OType.Tensor(List.copyOf(kept), in.dtype(), in.distributed(), in.layout());
	}

	private static OType.Tensor withShape(OType.Tensor in, List<OExpr> shape) {
		return new OType.Tensor(shape, in.dtype(), in.distributed(), in.layout());
	}

	private OExpr tensorArg(Expr e, Expr.Call c) {
		if (e == null) {
			throw new CodegenException("missing tensor argument", c.span());
		}
		return lower.expr(e);
	}

	private static OType.Tensor tensorType(OExpr t, Expr.Call c) {
		if (t.type() instanceof OType.Tensor tt) {
			return tt;
		}
		throw new CodegenException("expected a tensor argument", c.span());
	}

	private OExpr.MakeTuple indexTuple(Expr e) {
		if (e == null) {
			return new OExpr.MakeTuple(List.of());
		}
		if (e instanceof Expr.ListExpr l) {
			return lower.tuple(l.elts());
		}
		if (e instanceof Expr.TupleExpr t) {
			return lower.tuple(t.elts());
		}
		Object v = lower.ctx().eval().eval(e);
		if (v instanceof List<?> list) {
			List<OExpr> out = new ArrayList<>();
			for (Object o : list) {
				OExpr c = ChipExprLowering.constant(o, e);
				if (c == null) {
					throw new CodegenException("expected a list of integers", e.span());
				}
				out.add(c);
			}
			return new OExpr.MakeTuple(List.copyOf(out));
		}
		throw new CodegenException("expected a list", e.span());
	}

	private static OExpr.Call call(String op, List<OExpr> args, Map<String, Object> kwargs, OType type, Expr.Call c) {
		return new OExpr.Call(op, null, List.copyOf(args), kwargs, List.of(), Set.of(), type, c.span());
	}

	/** Python call binding of positional and keyword arguments onto parameter names. */
	private static Map<String, Expr> bind(Expr.Call c, String... names) {
		Map<String, Expr> out = new HashMap<>();
		for (int i = 0; i < c.args().size() && i < names.length; i++) {
			out.put(names[i], c.args().get(i));
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() != null) {
				out.put(k.name(), k.value());
			}
		}
		return out;
	}
}
