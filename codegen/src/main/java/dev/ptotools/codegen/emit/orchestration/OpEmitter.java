package dev.ptotools.codegen.emit.orchestration;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The orchestration op templates (pypto's tensor_op_codegen.cpp and array_op_codegen.cpp): the C++ of
 * one {@code tensor.*} or {@code array.*} op whose result is named {@link OrchState#currentResultVar},
 * as lines the caller emits at the current indent (empty lines dropped).
 */
final class OpEmitter {

	private final OrchState st;
	private final CppExprs exprs;

	OpEmitter(OrchState st, CppExprs exprs) {
		this.st = st;
		this.exprs = exprs;
	}

	String generate(CallView call) {
		return switch (call.name()) {
		case "tensor.create" -> create(call);
		case "tensor.read" -> read(call);
		case "tensor.write" -> write(call);
		case "tensor.slice" -> slice(call);
		case "tensor.reshape" -> reshape(call);
		case "tensor.transpose" -> transpose(call);
		case "tensor.view" -> view(call);
		case "tensor.dim" -> dim(call);
		case "tensor.reinterpret_view" -> throw new CodegenException("tensor.reinterpret_view is not supported in "
				+ "Orchestration functions because the runtime ChipTensor API cannot change the element dtype of a "
				+ "view; place reinterpret_view inside an InCore function", call.span());
		case "array.create" -> arrayCreate(call);
		case "array.get_element" -> arrayGet(call);
		case "array.update_element" -> arrayUpdate(call);
		default -> throw new CodegenException(
				"Misplaced tensor op '" + call.name() + "' in Orchestration function (should be inside InCore block)",
				call.span());
		};
	}

	private String r() {
		return st.currentResultVar;
	}

	private static Type.Tensor tensorType(Type t, CallView call, String what) {
		if (t instanceof Type.Tensor tt) {
			return tt;
		}
		throw new CodegenException(what + " must be TensorType", call.span());
	}

	private String inputName(CallView call, String what) {
		String n = st.tryVarName(call.args().get(0));
		if (n.isEmpty()) {
			throw new CodegenException(what + " input must be a variable", call.span());
		}
		return n;
	}

	private static List<Expr> tuple(Expr e, CallView call, String what) {
		if (e instanceof Expr.MakeTuple t) {
			return t.elements();
		}
		throw new CodegenException(what + " must be MakeTuple", call.span());
	}

	// ---- FP4 carriers: the runtime ChipTensor counts physical x2 elements on the last axis ----

	private static String runtimeShapeDim(DType dtype, int axis, int ndim, String logical) {
		if (dtype != DType.FP4 || axis + 1 != ndim) {
			return logical;
		}
		return "([&]() -> uint32_t { const int64_t fp4_logical_dim = static_cast<int64_t>(" + logical
				+ "); always_assert(fp4_logical_dim > 0 && (fp4_logical_dim & 1u) == 0u); return "
				+ "static_cast<uint32_t>(fp4_logical_dim / 2); }())";
	}

	private String runtimeTensorShapeDim(Expr e, DType dtype, int axis, int ndim) {
		if (dtype == DType.FP4 && axis + 1 == ndim && e instanceof Expr.ConstInt c) {
			return Long.toString(c.value() / 2);
		}
		String logical = exprs.render(e);
		if (dtype != DType.FP4 || axis + 1 != ndim) {
			logical = exprs.asUint32(e);
		}
		return runtimeShapeDim(dtype, axis, ndim, logical);
	}

	/** pypto's GetTensorShapeDim: the runtime extent of a tensor's axis. */
	String shapeDim(String name, int axis) {
		Integer k = st.paramOrchIndex.get(name);
		String physical = k != null ? "(int64_t)orch_args.tensor(" + k + ").ref().shapes[" + axis + "]"
				: "(int64_t)" + name + ".shapes[" + axis + "]";
		Integer packed = st.packedFp4Axis.get(name);
		if (packed != null && packed == axis) {
			return "([&]() -> int64_t { const int64_t fp4_carrier_dim = " + physical
					+ "; always_assert(fp4_carrier_dim > 0); return fp4_carrier_dim * 2; }())";
		}
		return physical;
	}

	// ---- tensor ops ----

	private String create(CallView call) {
		Type.Tensor t = tensorType(call.type(), call, "tensor.create result");
		String r = r();
		int nd = t.shape().size();
		StringBuilder b = new StringBuilder("uint32_t ").append(r).append("_ci_shapes[").append(nd).append("] = {");
		for (int i = 0; i < nd; i++) {
			if (i > 0) {
				b.append(", ");
			}
			Expr dim = t.shape().get(i);
			String irDim = exprs.render(dim);
			String d = irDim;
			if ((t.dtype() != DType.FP4 || i + 1 != nd) && !(dim instanceof Expr.ConstInt)) {
				d = "static_cast<uint32_t>(" + d + ")";
			}
			if (nd == 1 && i == 0) {
				d = st.createSizeExprByEmitName.getOrDefault(r, d); // GM pipe workspace sizing
			}
			if (t.dtype() == DType.FP4 && i + 1 == nd && dim instanceof Expr.ConstInt c && d.equals(irDim)) {
				b.append(c.value() / 2);
			} else {
				b.append(runtimeShapeDim(t.dtype(), i, nd, d));
			}
		}
		b.append("};\n");
		b.append("TensorCreateInfo ").append(r).append("_ci(").append(r).append("_ci_shapes, ").append(nd).append(", ")
				.append(t.dtype().runtimeEnum());
		if (Boolean.TRUE.equals(call.kwarg("manual_dep"))) {
			b.append(", /*manual_dep=*/true");
		}
		b.append(");");
		if (call.kwargs().containsKey("init_value")) {
			b.append('\n').append(r).append("_ci.set_initial_value(").append(initValue(call, t.dtype())).append(");");
		}
		return b.toString();
	}

	private static String initValue(CallView call, DType dtype) {
		Object raw = call.kwarg("init_value");
		double v = raw instanceof Number n ? n.doubleValue() : 0.0;
		if (!Double.isFinite(v)) {
			throw new CodegenException("tensor.create: init_value must be finite, got " + v + ".", call.span());
		}
		if (v == 0.0) {
			return "0";
		}
		if (dtype.isFloat() && dtype.bits() < 32) {
			throw new CodegenException("tensor.create: non-zero init_value is not supported for " + dtype.text()
					+ " (sub-32-bit float) runtime-allocated outputs; only init_value=0 is supported for these dtypes. "
					+ "Use a 32-bit dtype or init_value=0.", call.span());
		}
		if (dtype.isFloat()) {
			return "static_cast<" + dtype.ctype() + ">(" + maxDigits10(v) + ")";
		}
		if (v != Math.floor(v)) {
			throw new CodegenException("tensor.create: init_value " + maxDigits10(v) + " is not an integer but the tensor "
					+ "dtype is " + dtype.text() + "; use a whole-number init_value for integer dtypes.", call.span());
		}
		if (v < -9007199254740992.0 || v > 9007199254740992.0) {
			throw new CodegenException("tensor.create: init_value " + maxDigits10(v) + " exceeds the exactly-representable "
					+ "integer range (+/-2^53); large-magnitude integer fills are not supported. Use init_value=0 or a "
					+ "smaller value.", call.span());
		}
		return "static_cast<" + dtype.ctype() + ">(" + (long) v + ")";
	}

	/** C++ ostream output of a double at max_digits10 (17) significant digits, %g style. */
	static String maxDigits10(double v) {
		BigDecimal d = new BigDecimal(v).round(new MathContext(17));
		int exp = d.precision() - d.scale() - 1;
		if (exp < -4 || exp >= 17) {
			String s = String.format(Locale.ROOT, "%.16e", v);
			String mant = s.substring(0, s.indexOf('e')).replaceAll("0+$", "").replaceAll("\\.$", "");
			int e = Integer.parseInt(s.substring(s.indexOf('e') + 1));
			return mant + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
		}
		return d.stripTrailingZeros().toPlainString();
	}

	private String read(CallView call) {
		String t = st.external(inputName(call, "tensor.read"));
		tensorType(call.args().get(0).type(), call, "tensor.read input");
		if (!(call.type() instanceof Type.Scalar s)) {
			throw new CodegenException("tensor.read must return ScalarType", call.span());
		}
		String ctype = s.dtype().ctype();
		List<Expr> idx = tuple(call.args().get(1), call, "tensor.read indices");
		String r = r();
		if (idx.isEmpty()) {
			return ctype + " " + r + " = get_tensor_data<" + ctype + ">(" + t + ", 0, nullptr);";
		}
		return "uint32_t indices_" + r + "[" + idx.size() + "] = {" + joinUint32(idx) + "};\n" + ctype + " " + r
				+ " = get_tensor_data<" + ctype + ">(" + t + ", " + idx.size() + ", indices_" + r + ");";
	}

	private String write(CallView call) {
		String name = inputName(call, "tensor.write");
		String t = st.external(name);
		tensorType(call.args().get(0).type(), call, "tensor.write input");
		List<Expr> idx = tuple(call.args().get(1), call, "tensor.write indices");
		Expr value = call.args().get(2);
		String v = exprs.render(value);
		if (!(value.type() instanceof Type.Scalar s)) {
			throw new CodegenException("tensor.write value must be ScalarType", call.span());
		}
		String ctype = s.dtype().ctype();
		if (idx.isEmpty()) {
			return "set_tensor_data<" + ctype + ">(" + t + ", 0, nullptr, " + v + ");";
		}
		return "{\n  uint32_t indices_" + name + "[" + idx.size() + "] = {" + joinUint32(idx) + "};\n  set_tensor_data<"
				+ ctype + ">(" + t + ", " + idx.size() + ", indices_" + name + ", " + v + ");\n}";
	}

	private String joinUint32(List<Expr> items) {
		List<String> out = new ArrayList<>();
		for (Expr e : items) {
			out.add(exprs.asUint32(e));
		}
		return String.join(", ", out);
	}

	private String slice(CallView call) {
		if (call.args().size() < 3 || call.args().size() > 5) {
			throw new CodegenException("tensor.slice requires 3 to 5 arguments (input, shape, offset[, valid_shape[, "
					+ "drop_dims]])", call.span());
		}
		String in = st.external(inputName(call, "tensor.slice"));
		String r = r();
		Type.Tensor it = tensorType(call.args().get(0).type(), call, "tensor.slice input");
		List<Expr> shape = tuple(call.args().get(1), call, "tensor.slice shape");
		List<Expr> offset = tuple(call.args().get(2), call, "tensor.slice offset");
		int nd = shape.size();
		if (offset.size() != nd) {
			throw new CodegenException("tensor.slice offset must have same rank as shape", call.span());
		}
		StringBuilder b = new StringBuilder();
		List<String> offsets = new ArrayList<>();
		for (int i = 0; i < nd; i++) {
			Expr o = offset.get(i);
			if (it.dtype() != DType.FP4 || i + 1 != nd) {
				offsets.add(exprs.asUint32(o));
			} else if (o instanceof Expr.ConstInt c) {
				if (c.value() < 0) {
					throw new CodegenException("tensor.slice packed FP4 last-axis offset must be non-negative, but got "
							+ c.value(), call.span());
				}
				if (c.value() % 2 != 0) {
					throw new CodegenException("tensor.slice packed FP4 last-axis offset must be byte-aligned (even), but got "
							+ c.value(), call.span());
				}
				offsets.add(Long.toString(c.value() / 2));
			} else {
				String var = r + "_logical_fp4_offset";
				b.append("uint32_t ").append(var).append(" = ").append(exprs.asUint32(o)).append(";\n");
				b.append("always_assert((").append(var).append(" & 1u) == 0u);\n");
				offsets.add("(" + var + " / 2)");
			}
		}
		boolean[] drop = new boolean[nd];
		int dropCount = 0;
		if (call.args().size() == 5) {
			for (Expr d : tuple(call.args().get(4), call, "tensor.slice drop_dims")) {
				if (!(d instanceof Expr.ConstInt c) || c.value() < 0 || c.value() >= nd) {
					throw new CodegenException("tensor.slice drop_dims entries must be ConstInt axes in range", call.span());
				}
				drop[(int) c.value()] = true;
			}
			for (boolean x : drop) {
				dropCount += x ? 1 : 0;
			}
		}
		b.append("uint32_t ").append(r).append("_offsets[").append(nd).append("] = {").append(String.join(", ", offsets))
				.append("};\n");
		b.append("uint32_t ").append(r).append("_shapes[").append(nd).append("] = {");
		for (int i = 0; i < nd; i++) {
			if (i > 0) {
				b.append(", ");
			}
			b.append('(').append(r).append("_offsets[").append(i).append("] >= ").append(in).append(".shapes[").append(i)
					.append("] ? 0u : std::min<uint32_t>(").append(runtimeTensorShapeDim(shape.get(i), it.dtype(), i, nd))
					.append(", ").append(in).append(".shapes[").append(i).append("] - ").append(r).append("_offsets[")
					.append(i).append("]))");
		}
		b.append("};\n");
		if (call.args().size() >= 4) {
			List<Expr> valid = tuple(call.args().get(3), call, "tensor.slice valid_shape");
			if (!valid.isEmpty() && valid.size() != nd) {
				throw new CodegenException("tensor.slice valid_shape must have same rank as shape", call.span());
			}
		}
		if (dropCount == 0) {
			b.append("ChipTensor ").append(r).append(" = ").append(in).append(".view(").append(r).append("_shapes, ")
					.append(r).append("_offsets);");
			return b.toString();
		}
		b.append("ChipTensor ").append(r).append("_view = ").append(in).append(".view(").append(r).append("_shapes, ")
				.append(r).append("_offsets);\n");
		b.append("bool ").append(r).append("_empty = ").append(r).append("_view.numel() == 0;\n");
		b.append("ChipTensor ").append(r).append(" = ").append(r).append("_view;\n");
		b.append(r).append(".ndims = ").append(nd - dropCount).append(";\n");
		int dst = 0;
		for (int i = 0; i < nd; i++) {
			if (drop[i]) {
				continue;
			}
			b.append(r).append(".shapes[").append(dst).append("] = ").append(r).append("_view.shapes[").append(i)
					.append("];\n");
			b.append(r).append(".strides[").append(dst).append("] = ").append(r).append("_view.strides[").append(i)
					.append("];\n");
			dst++;
		}
		b.append("if (").append(r).append("_empty) ").append(r).append(".shapes[0] = 0;\n");
		b.append("uint64_t ").append(r).append("_expected_stride = 1;\n");
		b.append("bool ").append(r).append("_contiguous = true;\n");
		b.append("for (int32_t i = static_cast<int32_t>(").append(r).append(".ndims) - 1; i >= 0; --i) {\n");
		b.append("  ").append(r).append("_contiguous = ").append(r).append("_contiguous && (").append(r)
				.append(".strides[i] == ").append(r).append("_expected_stride);\n");
		b.append("  ").append(r).append("_expected_stride *= ").append(r).append(".shapes[i];\n");
		b.append("}\n");
		b.append(r).append(".is_contiguous = ").append(r).append("_empty || ").append(r).append("_contiguous;");
		return b.toString();
	}

	private String shapesArray(List<Expr> shape, DType dtype) {
		StringBuilder b = new StringBuilder("uint32_t ").append(r()).append("_shapes[").append(shape.size()).append("] = {");
		for (int i = 0; i < shape.size(); i++) {
			if (i > 0) {
				b.append(", ");
			}
			b.append(runtimeTensorShapeDim(shape.get(i), dtype, i, shape.size()));
		}
		return b.append("};\n").toString();
	}

	private String reshape(CallView call) {
		String in = st.external(inputName(call, "tensor.reshape"));
		Type.Tensor it = tensorType(call.args().get(0).type(), call, "tensor.reshape input");
		List<Expr> shape = tuple(call.args().get(1), call, "tensor.reshape shape");
		if (call.args().size() == 3 && tuple(call.args().get(2), call, "tensor.reshape valid_shape").size() != shape.size()) {
			throw new CodegenException("tensor.reshape valid_shape must have same rank as shape", call.span());
		}
		return shapesArray(shape, it.dtype()) + "ChipTensor " + r() + " = " + in + ".reshape(" + r() + "_shapes, "
				+ shape.size() + ");";
	}

	private String transpose(CallView call) {
		String in = st.external(inputName(call, "tensor.transpose"));
		Type.Tensor it = tensorType(call.args().get(0).type(), call, "tensor.transpose input");
		if (!(call.args().get(1) instanceof Expr.ConstInt c1) || !(call.args().get(2) instanceof Expr.ConstInt c2)) {
			throw new CodegenException("tensor.transpose requires its axes to be ConstInt", call.span());
		}
		int nd = it.shape().size();
		long a1 = c1.value() < 0 ? c1.value() + nd : c1.value();
		long a2 = c2.value() < 0 ? c2.value() + nd : c2.value();
		if (a1 < 0 || a1 >= nd || a2 < 0 || a2 >= nd || a1 == a2) {
			throw new CodegenException("tensor.transpose axes out of range or equal", call.span());
		}
		if (it.dtype() == DType.FP4 && (a1 == nd - 1 || a2 == nd - 1)) {
			throw new CodegenException("tensor.transpose cannot move the packed FP4 last axis in Orchestration functions "
					+ "because the runtime ChipTensor carries physical x2 elements; keep the last axis fixed or transpose "
					+ "inside an InCore function", call.span());
		}
		return "ChipTensor " + r() + " = " + in + ".transpose(" + a1 + ", " + a2 + ");";
	}

	private String view(CallView call) {
		String in = st.external(inputName(call, "tensor.view"));
		Type.Tensor it = tensorType(call.args().get(0).type(), call, "tensor.view input");
		String src = it.view() != null && it.view().layout() != null ? it.view().layout() : "ND";
		String target = call.kwarg("layout") != null ? call.kwarg("layout").toString() : src;
		if (call.args().size() >= 2) {
			if (!target.equals(src)) {
				throw new CodegenException("tensor.view orchestration lowering cannot combine shape reinterpret with layout "
						+ "change: runtime ChipTensor::reshape has no arbitrary-stride layout view; pass only a shape argument "
						+ "(no layout change) in orchestration code or lower the view through PTO in-core codegen", call.span());
			}
			if (!src.equals("ND")) {
				throw new CodegenException("tensor.view orchestration lowering only supports shape reinterpret for ND layout "
						+ "tensors: runtime ChipTensor::reshape assumes row-major contiguous storage; lower non-ND views "
						+ "through PTO in-core codegen", call.span());
			}
			List<Expr> shape;
			if (call.args().get(1) instanceof Expr.MakeTuple t) {
				shape = t.elements();
			} else if (call.args().get(1).type() instanceof Type.Tuple tt) {
				shape = new ArrayList<>();
				for (int i = 0; i < tt.elements().size(); i++) {
					shape.add(new Expr.TupleGetItem(call.args().get(1), i, call.span()));
				}
			} else {
				throw new CodegenException("tensor.view shape must be TupleType", call.span());
			}
			return shapesArray(shape, it.dtype()) + "ChipTensor " + r() + " = " + in + ".reshape(" + r() + "_shapes, "
					+ shape.size() + ");";
		}
		if (target.equals(src)) {
			return "ChipTensor " + r() + " = " + in + ";";
		}
		int nd = it.shape().size();
		if (it.dtype() == DType.FP4) {
			throw new CodegenException("tensor.view cannot move the packed FP4 last axis during an Orchestration layout "
					+ "change because the runtime ChipTensor carries physical x2 elements; lower the view through PTO "
					+ "in-core codegen", call.span());
		}
		return "ChipTensor " + r() + " = " + in + ".transpose(" + (nd - 2) + ", " + (nd - 1) + ");";
	}

	private String dim(CallView call) {
		Type.Tensor it = tensorType(call.args().get(0).type(), call, "tensor.dim input");
		if (!(call.args().get(1) instanceof Expr.ConstInt c)) {
			throw new CodegenException("Internal error: tensor.dim axis must be ConstInt", call.span());
		}
		int rank = it.shape().size();
		int axis = (int) (c.value() < 0 ? c.value() + rank : c.value());
		if (axis < 0 || axis >= rank) {
			throw new CodegenException("Internal error: tensor.dim axis out of range", call.span());
		}
		Expr extent = it.shape().get(axis);
		String d = extent instanceof Expr.ConstInt ? exprs.render(extent) : shapeDim(inputName(call, "tensor.dim"), axis);
		return "int64_t " + r() + " = " + d + ";";
	}

	// ---- array ops ----

	private String arrayCreate(CallView call) {
		if (!(call.type() instanceof Type.Array a) || a.shape().isEmpty()
				|| !(a.shape().get(0) instanceof Expr.ConstInt n)) {
			throw new CodegenException("array.create extent must be a compile-time ConstInt", call.span());
		}
		if (a.dtype() == DType.TASK_ID) {
			// PTO2TaskId's invalid sentinel is not bit-zero: fill it explicitly.
			return "PTO2TaskId " + r() + "[" + n.value() + "]; for (int64_t __init_i = 0; __init_i < " + n.value()
					+ "; ++__init_i) " + r() + "[__init_i] = PTO2TaskId::invalid();";
		}
		return a.dtype().ctype() + " " + r() + "[" + n.value() + "] = {0};";
	}

	private String arrayGet(CallView call) {
		String array = exprs.render(call.args().get(0));
		String index = exprs.render(call.args().get(1));
		if (!(call.type() instanceof Type.Scalar s)) {
			throw new CodegenException("array.get_element must return ScalarType", call.span());
		}
		String ctype = s.dtype() == DType.TASK_ID ? "PTO2TaskId" : s.dtype().ctype();
		return ctype + " " + r() + " = " + array + "[" + index + "];";
	}

	private String arrayUpdate(CallView call) {
		return exprs.render(call.args().get(0)) + "[" + exprs.render(call.args().get(1)) + "] = "
				+ exprs.render(call.args().get(2)) + ";";
	}
}
