package dev.ptotools.codegen.chip;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's orchestration op templates (tensor_op_codegen.cpp): each returns the lines of one op, with
 * the result named {@code r}; lines are later emitted at the current indent, empty ones dropped.
 */
final class ChipTensorOps {

	private final ChipNames names;
	private final CppExprs exprs;
	/** Tensor parameter emit name -> its index among tensor parameters. */
	private final Map<String, Integer> paramIndex;
	/** Emit name of an FP4 tensor -> its packed (last) axis. */
	private final Map<String, Integer> packedFp4Axis;

	ChipTensorOps(ChipNames names, CppExprs exprs, Map<String, Integer> paramIndex,
			Map<String, Integer> packedFp4Axis) {
		this.names = names;
		this.exprs = exprs;
		this.paramIndex = paramIndex;
		this.packedFp4Axis = packedFp4Axis;
	}

	String generate(OExpr.Call call, String r) {
		return switch (call.op()) {
		case "tensor.create" -> create(call, r);
		case "tensor.read" -> read(call, r);
		case "tensor.write" -> write(call);
		case "tensor.slice" -> slice(call, r);
		case "tensor.reshape" -> reshape(call, r);
		case "tensor.transpose" -> transpose(call, r);
		case "tensor.view" -> view(call, r);
		case "tensor.dim" -> dim(call, r);
		case "tensor.reinterpret_view" -> throw new CodegenException("tensor.reinterpret_view is not supported in "
				+ "Orchestration functions because the runtime ChipTensor API cannot change the element dtype of a "
				+ "view; place reinterpret_view inside an InCore function", call.span());
		default -> throw new CodegenException(
				"Misplaced tensor op '" + call.op() + "' in Orchestration function (should be inside InCore block)",
				call.span());
		};
	}

	private String create(OExpr.Call call, String r) {
		OType.Tensor t = (OType.Tensor) call.type();
		int nd = t.shape().size();
		StringBuilder b = new StringBuilder("uint32_t ").append(r).append("_ci_shapes[").append(nd).append("] = {");
		for (int i = 0; i < nd; i++) {
			if (i > 0) {
				b.append(", ");
			}
			OExpr dim = t.shape().get(i);
			boolean packed = t.dtype() == DType.FP4 && i + 1 == nd;
			String d = exprs.render(dim);
			if (!packed && !(dim instanceof OExpr.ConstInt)) {
				d = "static_cast<uint32_t>(" + d + ")";
			}
			if (packed && dim instanceof OExpr.ConstInt c) {
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
		Object init = call.kwarg("init_value");
		if (init instanceof Double v) {
			b.append('\n').append(r).append("_ci.set_initial_value(").append(initValue(v, t.dtype(), call)).append(");");
		}
		return b.toString();
	}

	private static String initValue(double v, DType dtype, OExpr.Call call) {
		if (v == 0.0) {
			return "0";
		}
		if (dtype.isFloat() && dtype.bits() < 32) {
			throw new CodegenException("tensor.create: non-zero init_value is not supported for " + dtype.text()
					+ " (sub-32-bit float) runtime-allocated outputs; only init_value=0 is supported for these dtypes."
					+ " Use a 32-bit dtype or init_value=0.", call.span());
		}
		if (dtype.isFloat()) {
			return "static_cast<" + dtype.ctype() + ">(" + maxDigits10(v) + ")";
		}
		if (v != Math.floor(v)) {
			throw new CodegenException("tensor.create: init_value " + maxDigits10(v) + " is not an integer but the "
					+ "tensor dtype is " + dtype.text() + "; use a whole-number init_value for integer dtypes.",
					call.span());
		}
		return "static_cast<" + dtype.ctype() + ">(" + (long) v + ")";
	}

	/** C++ ostream output of a double at max_digits10 (17) significant digits, %g style. */
	static String maxDigits10(double v) {
		BigDecimal d = new BigDecimal(v).round(new java.math.MathContext(17));
		String plain = d.stripTrailingZeros().toPlainString();
		int exp = d.precision() - d.scale() - 1;
		if (exp < -4 || exp >= 17) {
			String s = String.format(java.util.Locale.ROOT, "%.16e", v);
			String mant = s.substring(0, s.indexOf('e')).replaceAll("0+$", "").replaceAll("\\.$", "");
			int e = Integer.parseInt(s.substring(s.indexOf('e') + 1));
			return mant + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
		}
		return plain;
	}

	private String runtimeShapeDim(DType dtype, int axis, int ndim, String logical) {
		if (dtype != DType.FP4 || axis + 1 != ndim) {
			return logical;
		}
		return "([&]() -> uint32_t { const int64_t fp4_logical_dim = static_cast<int64_t>(" + logical
				+ "); always_assert(fp4_logical_dim > 0 && (fp4_logical_dim & 1u) == 0u); return "
				+ "static_cast<uint32_t>(fp4_logical_dim / 2); }())";
	}

	private String runtimeTensorShapeDim(OExpr e, DType dtype, int axis, int ndim) {
		if (dtype == DType.FP4 && axis + 1 == ndim && e instanceof OExpr.ConstInt c) {
			return Long.toString(c.value() / 2);
		}
		String logical = exprs.render(e);
		if (dtype != DType.FP4 || axis + 1 != ndim) {
			logical = exprs.asUint32(e);
		}
		return runtimeShapeDim(dtype, axis, ndim, logical);
	}

	private String inputName(OExpr.Call call, String what) {
		String n = names.tryVarName(call.args().get(0));
		if (n.isEmpty()) {
			throw new CodegenException(what + " input must be a variable", call.span());
		}
		return n;
	}

	private static List<OExpr> tuple(OExpr e) {
		return ((OExpr.MakeTuple) e).elements();
	}

	private String read(OExpr.Call call, String r) {
		String t = names.external(inputName(call, "tensor.read"));
		String ctype = ((OType.Scalar) call.type()).dtype().ctype();
		List<OExpr> idx = tuple(call.args().get(1));
		if (idx.isEmpty()) {
			return ctype + " " + r + " = get_tensor_data<" + ctype + ">(" + t + ", 0, nullptr);";
		}
		return "uint32_t indices_" + r + "[" + idx.size() + "] = {" + joinUint32(idx) + "};\n" + ctype + " " + r
				+ " = get_tensor_data<" + ctype + ">(" + t + ", " + idx.size() + ", indices_" + r + ");";
	}

	private String write(OExpr.Call call) {
		String name = inputName(call, "tensor.write");
		String t = names.external(name);
		OExpr value = call.args().get(2);
		if (!(value.type() instanceof OType.Scalar s)) {
			throw new CodegenException("tensor.write value must be ScalarType", call.span());
		}
		String ctype = s.dtype().ctype();
		String v = exprs.render(value);
		List<OExpr> idx = tuple(call.args().get(1));
		if (idx.isEmpty()) {
			return "set_tensor_data<" + ctype + ">(" + t + ", 0, nullptr, " + v + ");";
		}
		return "{\n  uint32_t indices_" + name + "[" + idx.size() + "] = {" + joinUint32(idx) + "};\n  set_tensor_data<"
				+ ctype + ">(" + t + ", " + idx.size() + ", indices_" + name + ", " + v + ");\n}";
	}

	private String joinUint32(List<OExpr> items) {
		List<String> out = new ArrayList<>();
		for (OExpr e : items) {
			out.add(exprs.asUint32(e));
		}
		return String.join(", ", out);
	}

	private String slice(OExpr.Call call, String r) {
		String in = names.external(inputName(call, "tensor.slice"));
		OType.Tensor it = (OType.Tensor) call.args().get(0).type();
		List<OExpr> shape = tuple(call.args().get(1));
		List<OExpr> offset = tuple(call.args().get(2));
		int nd = shape.size();
		if (offset.size() != nd) {
			throw new CodegenException("tensor.slice offset must have same rank as shape", call.span());
		}
		StringBuilder b = new StringBuilder();
		List<String> offsets = new ArrayList<>();
		for (int i = 0; i < nd; i++) {
			OExpr o = offset.get(i);
			if (it.dtype() != DType.FP4 || i + 1 != nd) {
				offsets.add(exprs.asUint32(o));
			} else if (o instanceof OExpr.ConstInt c) {
				if (c.value() < 0 || c.value() % 2 != 0) {
					throw new CodegenException("tensor.slice packed FP4 last-axis offset must be byte-aligned (even), "
							+ "but got " + c.value(), call.span());
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
			for (OExpr d : tuple(call.args().get(4))) {
				int k = (int) ((OExpr.ConstInt) d).value();
				if (!drop[k]) {
					drop[k] = true;
					dropCount++;
				}
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

	private String shapesArray(String r, List<OExpr> shape, DType dtype) {
		StringBuilder b = new StringBuilder("uint32_t ").append(r).append("_shapes[").append(shape.size()).append("] = {");
		for (int i = 0; i < shape.size(); i++) {
			if (i > 0) {
				b.append(", ");
			}
			b.append(runtimeTensorShapeDim(shape.get(i), dtype, i, shape.size()));
		}
		return b.append("};\n").toString();
	}

	private String reshape(OExpr.Call call, String r) {
		String in = names.external(inputName(call, "tensor.reshape"));
		OType.Tensor it = (OType.Tensor) call.args().get(0).type();
		List<OExpr> shape = tuple(call.args().get(1));
		return shapesArray(r, shape, it.dtype()) + "ChipTensor " + r + " = " + in + ".reshape(" + r + "_shapes, "
				+ shape.size() + ");";
	}

	private String transpose(OExpr.Call call, String r) {
		String in = names.external(inputName(call, "tensor.transpose"));
		OType.Tensor it = (OType.Tensor) call.args().get(0).type();
		int nd = it.shape().size();
		long a1 = ((OExpr.ConstInt) call.args().get(1)).value();
		long a2 = ((OExpr.ConstInt) call.args().get(2)).value();
		if (a1 < 0) {
			a1 += nd;
		}
		if (a2 < 0) {
			a2 += nd;
		}
		if (a1 < 0 || a1 >= nd || a2 < 0 || a2 >= nd || a1 == a2) {
			throw new CodegenException("tensor.transpose axes out of range or equal", call.span());
		}
		if (it.dtype() == DType.FP4 && (a1 == nd - 1 || a2 == nd - 1)) {
			throw new CodegenException("tensor.transpose cannot move the packed FP4 last axis in Orchestration "
					+ "functions because the runtime ChipTensor carries physical x2 elements; keep the last axis fixed "
					+ "or transpose inside an InCore function", call.span());
		}
		return "ChipTensor " + r + " = " + in + ".transpose(" + a1 + ", " + a2 + ");";
	}

	private String view(OExpr.Call call, String r) {
		String in = names.external(inputName(call, "tensor.view"));
		OType.Tensor it = (OType.Tensor) call.args().get(0).type();
		String src = it.layout();
		String target = call.kwarg("layout") instanceof String l ? l : src;
		if (call.args().size() >= 2) {
			if (!target.equals(src)) {
				throw new CodegenException("tensor.view orchestration lowering cannot combine shape reinterpret with "
						+ "layout change", call.span());
			}
			if (!src.equals("ND")) {
				throw new CodegenException("tensor.view orchestration lowering only supports shape reinterpret for ND "
						+ "layout tensors", call.span());
			}
			List<OExpr> shape = tuple(call.args().get(1));
			return shapesArray(r, shape, it.dtype()) + "ChipTensor " + r + " = " + in + ".reshape(" + r + "_shapes, "
					+ shape.size() + ");";
		}
		if (target.equals(src)) {
			return "ChipTensor " + r + " = " + in + ";";
		}
		int nd = it.shape().size();
		if (it.dtype() == DType.FP4) {
			throw new CodegenException("tensor.view cannot move the packed FP4 last axis during an Orchestration "
					+ "layout change", call.span());
		}
		return "ChipTensor " + r + " = " + in + ".transpose(" + (nd - 2) + ", " + (nd - 1) + ");";
	}

	private String dim(OExpr.Call call, String r) {
		OType.Tensor it = (OType.Tensor) call.args().get(0).type();
		int axis = (int) ((OExpr.ConstInt) call.args().get(1)).value();
		OExpr extent = it.shape().get(axis);
		String d;
		if (extent instanceof OExpr.ConstInt) {
			d = exprs.render(extent);
		} else {
			d = shapeDim(inputName(call, "tensor.dim"), axis);
		}
		return "int64_t " + r + " = " + d + ";";
	}

	/** pypto's GetTensorShapeDim: the runtime extent of a tensor's axis. */
	String shapeDim(String name, int axis) {
		Integer k = paramIndex.get(name);
		String physical = k != null ? "(int64_t)orch_args.tensor(" + k + ").ref().shapes[" + axis + "]"
				: "(int64_t)" + name + ".shapes[" + axis + "]";
		Integer packed = packedFp4Axis.get(name);
		if (packed != null && packed == axis) {
			return "([&]() -> int64_t { const int64_t fp4_carrier_dim = " + physical
					+ "; always_assert(fp4_carrier_dim > 0); return fp4_carrier_dim * 2; }())";
		}
		return physical;
	}
}
