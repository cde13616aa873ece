package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Result types of ops, after pypto's C++ type deducers (src/ir/op/): elementwise ops broadcast their
 * operands, scalar forms keep the lhs, reductions keep one row or column, matmul gives [M, N] with a
 * float or int32 accumulator, views take the shape they are given. An op this table does not know
 * gets an Unknown type; the compiler rejects such a value where its type would reach the generated
 * code.
 */
final class OpTypes {

	private OpTypes() {
	}

	private static final Set<String> SAME_AS_FIRST = Set.of("exp", "log", "sin", "cos", "neg", "abs", "recip", "sqrt",
			"rsqrt", "relu", "not", "lrelu", "fillpad", "fillpad_inplace", "fillpad_expand", "expands", "row_expand",
			"row_expand_add", "row_expand_sub", "row_expand_mul", "row_expand_div", "row_expand_max", "row_expand_min",
			"row_expand_expdif", "col_expand", "col_expand_add", "col_expand_sub", "col_expand_mul", "col_expand_div",
			"col_expand_max", "col_expand_min", "col_expand_expdif", "adds", "subs", "muls", "divs", "maximums",
			"minimums", "ands", "ors", "xors", "shls", "shrs", "fmods", "rems", "cmps", "addsc", "subsc", "sels",
			"set_validshape", "write", "scatter_update", "prelu", "addc", "subc", "tget_scale_addr", "matmul_acc",
			"gemv_acc", "batch_matmul_acc", "matmul_mx_acc", "assemble", "scatter", "scatter_mask");

	/** The tensor scalar ops whose result dtype is PromoteDataTypes(tensor, scalar) (tensor.subs keeps the tensor's). */
	private static final Set<String> PROMOTING_SCALAR = Set.of("adds", "muls", "divs", "fmods");

	/** The element-wise binary ops whose result dtype is PromoteDataTypes of the operands'. */
	private static final Set<String> PROMOTING_BINARY = Set.of("add", "sub", "mul", "maximum", "minimum", "fmod", "rem",
			"part_add", "part_mul", "part_max", "part_min", "and", "or", "xor");

	/**
	 * pypto's PromoteDataTypes (type_inference.cpp): a float over an int, else the wider, else at equal width
	 * a signed int, else the first.
	 */
	static DType promote(DType a, DType b) {
		if (a == b) {
			return a;
		}
		if (a.isFloat() != b.isFloat()) {
			return a.isFloat() ? a : b;
		}
		if (a.bits() != b.bits()) {
			return a.bits() > b.bits() ? a : b;
		}
		if (!a.isFloat() && signedInt(a)) {
			return a;
		}
		if (!b.isFloat() && signedInt(b)) {
			return b;
		}
		return a;
	}

	private static boolean signedInt(DType d) {
		return d.name().startsWith("INT");
	}

	private static DType dtypeOf(Type t) {
		return t instanceof Type.Tile x ? x.dtype() : t instanceof Type.Tensor x ? x.dtype() : null;
	}

	private static final Set<String> BROADCAST = Set.of("add", "sub", "mul", "div", "maximum", "minimum", "and", "or",
			"xor", "shl", "shr", "fmod", "rem", "part_add", "part_mul", "part_max", "part_min", "cmp", "sel");

	/** Ops whose tile result lives in a fixed memory space (op_memory.tsv, pypto's set_output_memory). */
	private static final Map<String, MemorySpace> FIXED_MEMORY = fixedMemory();

	private static Map<String, MemorySpace> fixedMemory() {
		Map<String, MemorySpace> out = new java.util.HashMap<>();
		try (java.io.InputStream in = OpTypes.class.getResourceAsStream("/dev/ptotools/codegen/ops/op_memory.tsv")) {
			for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
				String[] f = line.split("\t", -1);
				if (line.startsWith("#") || f.length < 2) {
					continue;
				}
				MemorySpace m = MemorySpace.named(f[1]);
				if (m != null) {
					out.put(f[0], m);
				}
			}
		} catch (java.io.IOException | NullPointerException e) {
			throw new IllegalStateException("op_memory.tsv missing from the jar", e);
		}
		return Map.copyOf(out);
	}

	static Type deduce(String op, List<Expr> args, Map<String, Object> kwargs, Span span) {
		Type t = deduceShape(op, args, kwargs, span);
		MemorySpace m = FIXED_MEMORY.get(op);
		if (m != null && t instanceof Type.Tile tile) {
			return tile.withMemory(m);
		}
		return t;
	}

	private static Type deduceShape(String op, List<Expr> args, Map<String, Object> kwargs, Span span) {
		int dot = op.indexOf('.');
		String ns = dot < 0 ? "" : op.substring(0, dot);
		String name = op.substring(op.lastIndexOf('.') + 1);
		Type first = args.isEmpty() ? Type.UNKNOWN : args.get(0).type();
		if (ns.equals("pld")) {
			return distributed(op, args, kwargs);
		}
		if (ns.equals("system")) {
			return system(name);
		}
		if (op.equals("tensor.create_l1") && !args.isEmpty()
				&& args.get(0) instanceof Expr.MakeTuple shape) {
			// an on-chip accumulator typed as a tensor (paged_gather.cpp): the shape, the dtype (FP32 unless given)
			DType d = kwargs.get("dtype") instanceof DType x ? x : DType.FP32;
			return new Type.Tensor(shape.elements(), d);
		}
		if (ns.equals("array")) {
			if (name.equals("create") && !args.isEmpty() && kwargs.get("dtype") instanceof DType d) {
				return new Type.Array(d, List.of(args.get(0)));
			}
			return first;
		}
		if (!(ns.equals("tile") || ns.equals("tensor"))) {
			return Type.UNKNOWN;
		}
		boolean tile = ns.equals("tile");
		if (name.startsWith("fillpad") && first instanceof Type.Tile t) {
			return new Type.Tile(t.shape(), t.dtype(), t.memory(), null); // padding makes the whole tile valid
		}
		if (name.equals("set_validshape") && args.size() == 3) {
			// the same storage with a narrower valid region (DeduceTileSetValidShapeType / tensor's)
			List<Expr> valid = List.of(args.get(1), args.get(2));
			Type same = stripMemory(first);
			if (same instanceof Type.Tile t) {
				return new Type.Tile(t.shape(), t.dtype(), t.memory(), valid);
			}
			if (same instanceof Type.Tensor t) {
				Type.TensorView v = t.view();
				return new Type.Tensor(t.shape(), t.dtype(), new Type.TensorView(v == null ? "ND" : v.layout(),
						v == null ? List.of() : v.stride(), valid), t.distributed(), t.window());
			}
		}
		if (ns.equals("tensor") && PROMOTING_SCALAR.contains(name) && args.size() == 2
				&& args.get(1).type() instanceof Type.Scalar sc && sc.dtype() != null && sc.dtype() != DType.INDEX
				&& first instanceof Type.Tensor t) {
			// DeduceTensorOpElementwiseScalarType: the scalar's dtype joins in (a float literal is FP32, so an FP16
			// tensor times 0.5 is FP32); an int literal is a placeholder the wrapper gives the tensor's dtype
			return withDtype(stripMemory(first), promote(t.dtype(), sc.dtype()));
		}
		if (SAME_AS_FIRST.contains(name)) {
			return stripMemory(first);
		}
		if (name.equals("mscatter") && args.size() >= 3) {
			return args.get(2).type(); // the output tensor's type unchanged (pypto's DeduceTileMscatterType)
		}
		if (BROADCAST.contains(name) && args.size() >= 2) {
			// the element-wise deducers promote the operands' dtypes (tile.div's are equal; shifts keep the lhs's)
			DType a = dtypeOf(first);
			DType b = dtypeOf(args.get(1).type());
			DType promoted = PROMOTING_BINARY.contains(name) && a != null && b != null && a != b ? promote(a, b) : null;
			return broadcast(first, args.get(1).type(), promoted);
		}
		switch (name) {
		case "row_sum", "row_max", "row_min", "row_prod", "row_argmax", "row_argmin":
			return reduce(first, true, name.contains("arg") ? DType.INT32 : null);
		case "col_sum", "col_max", "col_min", "col_prod", "col_argmax", "col_argmin":
			return reduce(first, false, name.contains("arg") ? DType.INT32 : null);
		case "matmul", "gemv", "batch_matmul", "matmul_bias", "gemv_bias", "matmul_mx", "matmul_mx_bias":
			return matmul(tile, name, args, kwargs);
		case "reshape", "view", "reinterpret_view":
			if (args.size() >= 2 && args.get(1) instanceof Expr.MakeTuple t) {
				return withShape(first, t.elements());
			}
			if (name.equals("reinterpret_view") && (kwargs.get("shape") != null || kwargs.get("dtype") instanceof DType)) {
				// pl.tile.reinterpret_view(t, dtype=..., shape=[...]): the same bytes seen as another shape and dtype
				List<Expr> to = shapeValue(kwargs.get("shape"));
				Type r = to != null ? withShape(first, to) : first;
				return kwargs.get("dtype") instanceof DType d ? withDtype(r, d) : r;
			}
			if (name.equals("view") && !tile && first instanceof Type.Tensor src && kwargs.get("layout") != null) {
				return layoutView(src, kwargs.get("layout"));
			}
			return first;
		case "slice":
			if (args.size() >= 2 && args.get(1) instanceof Expr.MakeTuple t) {
				return withShape(first, t.elements());
			}
			return first;
		case "transpose", "transpose_view":
			return transposed(first, args);
		case "concat":
			if (args.size() == 2 && shape(first) != null && shape(args.get(1).type()) != null) {
				List<Expr> a = shape(first);
				List<Expr> b = shape(args.get(1).type());
				List<Expr> s = new ArrayList<>(a);
				if (!s.isEmpty() && a.get(a.size() - 1) instanceof Expr.ConstInt x
						&& b.get(b.size() - 1) instanceof Expr.ConstInt y) {
					s.set(s.size() - 1, Expr.index(x.value() + y.value()));
				}
				return withShape(first, s);
			}
			return first;
		case "read", "get_element":
			return new Type.Scalar(dtype(first));
		case "dim":
			return new Type.Scalar(DType.INDEX);
		case "full", "create", "ci", "tri", "random":
			if (!args.isEmpty() && args.get(args.size() == 2 && name.equals("ci") ? 1 : 0) instanceof Expr.MakeTuple t) {
				DType d = kwargs.get("dtype") instanceof DType dd ? dd : DType.FP32;
				return tile ? new Type.Tile(t.elements(), d) : new Type.Tensor(t.elements(), d);
			}
			return Type.UNKNOWN;
		case "get_block_idx", "get_subblock_idx", "get_block_num":
			return new Type.Scalar(DType.INDEX);
		case "cast": // pl.tile.cast / pl.tensor.cast (pl.cast has its own builder)
			return kwargs.get("target_type") instanceof DType d ? withDtype(first, d) : first;
		default:
			return Type.UNKNOWN;
		}
	}

	private static Type distributed(String op, List<Expr> args, Map<String, Object> kwargs) {
		switch (op) {
		case "pld.system.world_size", "pld.system.rank", "pld.system.nranks":
			return new Type.Scalar(DType.INDEX);
		case "pld.system.get_comm_ctx":
			return new Type.CommCtx();
		case "pld.tensor.allgather", "pld.tensor.all_to_all", "pld.tensor.all_to_all_v":
			// the window every rank's chunk lands in (pypto returns the target's type: window-as-result)
			return args.size() >= 2 ? args.get(1).type() : Type.UNKNOWN;
		case "pld.tensor.window": {
			if (args.size() >= 2 && args.get(1) instanceof Expr.MakeTuple t) {
				DType d = kwargs.get("dtype") instanceof DType dd ? dd : DType.FP32;
				String window = args.get(0).type() instanceof Type.WindowBuffer w ? w.name() : null;
				return new Type.Tensor(t.elements(), d, null, true, window);
			}
			return Type.UNKNOWN;
		}
		case "pld.tile.remote_load": {
			// shape given positionally (a tuple) or by name (a list of ints, as the wrapper passes it)
			Object shape = args.size() >= 4 ? args.get(3) : kwargs.get("shape");
			List<Expr> dims = shape instanceof Expr.MakeTuple t ? t.elements() : null;
			if (shape instanceof List<?> l && l.stream().allMatch(x -> x instanceof Long)) {
				dims = l.stream().map(x -> (Expr) Expr.index((Long) x)).toList();
			}
			if (dims != null && !args.isEmpty()) {
				return new Type.Tile(dims, dtype(args.get(0).type()));
			}
			return Type.UNKNOWN;
		}
		default:
			return args.isEmpty() ? Type.UNKNOWN : stripMemory(args.get(0).type());
		}
	}

	private static Type system(String name) {
		return switch (name) {
		case "task_invalid", "task_dummy" -> new Type.Scalar(DType.TASK_ID);
		case "available_cluster_count", "available_aiv_count" -> new Type.Scalar(DType.INT32);
		case "task_is_valid" -> new Type.Scalar(DType.BOOL);
		default -> Type.UNKNOWN;
		};
	}

	private static Type stripMemory(Type t) {
		return t;
	}

	static Type withDtype(Type t, DType d) {
		if (t instanceof Type.Tile x) {
			return new Type.Tile(x.shape(), d, x.memory(), x.validShape());
		}
		if (t instanceof Type.Tensor x) {
			return new Type.Tensor(x.shape(), d, x.view(), x.distributed(), x.window());
		}
		return new Type.Scalar(d);
	}

	/**
	 * pypto's tensor.view type without a target shape (DeduceTensorViewType, src/ir/op/tensor_ops/transform.cpp):
	 * a layout change swaps the last two dims and their strides; without source strides the view gets the
	 * canonical strides of the new layout (row-major for ND; for DN 1 and shape[-2] innermost, the block
	 * volume before them); a source valid shape follows the swap.
	 */
	private static Type layoutView(Type.Tensor src, Object layoutValue) {
		String layout = layoutValue instanceof dev.ptotools.analyzer.facts.Values.EnumValue e ? e.member()
				: String.valueOf(layoutValue);
		layout = layout.substring(layout.lastIndexOf('.') + 1);
		String srcLayout = src.view() != null && src.view().layout() != null ? src.view().layout() : "ND";
		boolean flip = !srcLayout.equals(layout);
		int n = src.shape().size();
		if (flip && n < 2) {
			return src;
		}
		List<Expr> shape = new ArrayList<>(src.shape());
		if (flip) {
			java.util.Collections.swap(shape, n - 2, n - 1);
		}
		List<Expr> stride;
		if (src.view() != null && src.view().stride() != null && !src.view().stride().isEmpty()) {
			stride = new ArrayList<>(src.view().stride());
			if (flip) {
				java.util.Collections.swap(stride, n - 2, n - 1);
			}
		} else {
			stride = canonicalStrides(shape, layout);
		}
		List<Expr> valid = List.of();
		if (src.view() != null && src.view().validShape() != null && !src.view().validShape().isEmpty()) {
			valid = new ArrayList<>(src.view().validShape());
			if (flip && valid.size() >= 2) {
				java.util.Collections.swap(valid, valid.size() - 2, valid.size() - 1);
			}
		}
		return new Type.Tensor(shape, src.dtype(), new Type.TensorView(layout, stride, valid), src.distributed(),
				src.window());
	}

	private static List<Expr> canonicalStrides(List<Expr> shape, String layout) {
		int n = shape.size();
		Expr[] st = new Expr[n];
		if (n == 0) {
			return List.of();
		}
		if (layout.equals("DN") && n >= 2) {
			st[n - 2] = Expr.index(1);
			st[n - 1] = shape.get(n - 2);
			if (n >= 3) {
				st[n - 3] = mul(shape.get(n - 2), shape.get(n - 1));
				for (int i = n - 4; i >= 0; i--) {
					st[i] = mul(st[i + 1], shape.get(i + 1));
				}
			}
		} else {
			st[n - 1] = Expr.index(1);
			for (int i = n - 2; i >= 0; i--) {
				st[i] = mul(st[i + 1], shape.get(i + 1));
			}
		}
		return List.of(st);
	}

	private static Expr mul(Expr a, Expr b) {
		if (a instanceof Expr.ConstInt x && b instanceof Expr.ConstInt y) {
			return Expr.index(x.value() * y.value());
		}
		return new Expr.Binary(Expr.BinaryOp.Mul, a, b, DType.INDEX, null);
	}

	static Type withShape(Type t, List<Expr> s) {
		if (t instanceof Type.Tile x) {
			return new Type.Tile(s, x.dtype(), x.memory(), null);
		}
		if (t instanceof Type.Tensor x) {
			return new Type.Tensor(s, x.dtype(), x.view(), x.distributed(), x.window());
		}
		return t;
	}

	/** A shape given as a keyword: a tuple of IR values, or a list of folded ints. */
	private static List<Expr> shapeValue(Object v) {
		if (v instanceof Expr.MakeTuple t) {
			return t.elements();
		}
		if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof Long)) {
			return l.stream().map(x -> (Expr) Expr.index((Long) x)).toList();
		}
		return null;
	}

	static List<Expr> shape(Type t) {
		if (t instanceof Type.Tile x) {
			return x.shape();
		}
		if (t instanceof Type.Tensor x) {
			return x.shape();
		}
		return null;
	}

	static DType dtype(Type t) {
		if (t instanceof Type.Tile x) {
			return x.dtype();
		}
		if (t instanceof Type.Tensor x) {
			return x.dtype();
		}
		if (t instanceof Type.Scalar x) {
			return x.dtype();
		}
		return DType.FP32;
	}

	/** numpy broadcasting of two shapes (a constant 1 stretches); the lhs dtype. */
	private static Type broadcast(Type a, Type b, DType override) {
		List<Expr> sa = shape(a);
		List<Expr> sb = shape(b);
		if (sa == null) {
			return a;
		}
		if (sb == null) {
			return a;
		}
		int n = Math.max(sa.size(), sb.size());
		List<Expr> out = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			Expr x = i - (n - sa.size()) >= 0 ? sa.get(i - (n - sa.size())) : null;
			Expr y = i - (n - sb.size()) >= 0 ? sb.get(i - (n - sb.size())) : null;
			if (x == null) {
				out.add(y);
			} else if (y == null) {
				out.add(x);
			} else if (x instanceof Expr.ConstInt cx && cx.value() == 1) {
				out.add(y);
			} else {
				out.add(x);
			}
		}
		Type r = withShape(a, out);
		return override == null ? r : withDtype(r, override);
	}

	private static Type reduce(Type t, boolean row, DType d) {
		List<Expr> s = shape(t);
		if (s == null || s.size() < 2) {
			return t;
		}
		List<Expr> out = new ArrayList<>(s);
		out.set(row ? s.size() - 1 : s.size() - 2, Expr.index(1));
		Type r = withShape(t, out);
		return d == null ? r : withDtype(r, d);
	}

	private static Type transposed(Type t, List<Expr> args) {
		List<Expr> s = shape(t);
		if (s == null || s.size() < 2) {
			return t;
		}
		int a1 = s.size() - 2;
		int a2 = s.size() - 1;
		if (args.size() >= 3 && args.get(1) instanceof Expr.ConstInt x && args.get(2) instanceof Expr.ConstInt y) {
			a1 = (int) (x.value() < 0 ? s.size() + x.value() : x.value());
			a2 = (int) (y.value() < 0 ? s.size() + y.value() : y.value());
		}
		List<Expr> out = new ArrayList<>(s);
		out.set(a1, s.get(a2));
		out.set(a2, s.get(a1));
		return withShape(t, out);
	}

	private static Type matmul(boolean tile, String name, List<Expr> args, Map<String, Object> kwargs) {
		// the mx forms take (lhs, lhs_scale, rhs, rhs_scale[, bias]): the rhs is the third operand
		int rhs = name.startsWith("matmul_mx") ? 2 : 1;
		if (args.size() <= rhs) {
			return Type.UNKNOWN;
		}
		List<Expr> a = shape(args.get(0).type());
		List<Expr> b = shape(args.get(rhs).type());
		if (a == null || b == null || a.isEmpty() || b.isEmpty()) {
			return Type.UNKNOWN;
		}
		DType da = dtype(args.get(0).type());
		DType db = dtype(args.get(rhs).type());
		if (tile) {
			if (da != db && rhs == 1) { // matmul_mx mixes fp8/fp4 operands (its own deducer, matmul_mx.cpp)
				throw new IrTypeError("The operator tile.matmul requires identical lhs and rhs data types, but got "
						+ da.text() + " and " + db.text());
			}
			DType acc = da.isFloat() && db.isFloat() ? DType.FP32 : DType.INT32;
			return new Type.Tile(List.of(a.get(0), b.get(b.size() - 1)), acc, MemorySpace.Acc, null);
		}
		boolean at = Boolean.TRUE.equals(kwargs.get("a_trans"));
		boolean bt = Boolean.TRUE.equals(kwargs.get("b_trans"));
		DType out = kwargs.get("out_dtype") instanceof DType d ? d : da.bits() >= db.bits() ? da : db;
		List<Expr> shape = new ArrayList<>();
		if (a.size() >= 2 && b.size() >= 2) {
			shape.addAll(a.subList(0, a.size() - 2));
			shape.add(at ? a.get(a.size() - 1) : a.get(a.size() - 2));
			shape.add(bt ? b.get(b.size() - 2) : b.get(b.size() - 1));
		} else if (a.size() == 2) {
			shape.add(at ? a.get(1) : a.get(0));
		} else if (b.size() == 2) {
			shape.add(bt ? b.get(0) : b.get(1));
		}
		return new Type.Tensor(shape, out);
	}

	static void requireKnown(Type t, String what, Span span) {
		if (t instanceof Type.Unknown) {
			throw new CodegenException("the type of " + what + " is not known to this compiler", span);
		}
	}
}
