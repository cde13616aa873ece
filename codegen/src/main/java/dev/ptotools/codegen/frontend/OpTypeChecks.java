package dev.ptotools.codegen.frontend;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.types.DType;

/**
 * The operand checks pypto's C++ type deducers make when an op is built (src/ir/op/tile_ops and
 * tensor_ops), with their messages: tile ops need tiles and tensor ops tensors, element-wise operands
 * broadcast, tile.div's operands match exactly, matmul's inner dimensions agree.
 *
 * <p>Needs: the operands' deduced types. A check only fails on what pypto would certainly reject: a
 * dimension is compared only when both sides are constants (pypto compares symbolic dims structurally,
 * which this compiler does not reproduce), and an operand of unknown type is never judged. Produces:
 * nothing, or an {@link IrTypeError} whose message is pypto's; the caller locates it at the call.
 */
final class OpTypeChecks {

	private OpTypeChecks() {
	}

	/** DeduceTileOpElementwiseBinaryType (tile_ops/elementwise.cpp); tile.div adds the tdiv contract. */
	private static final Set<String> TILE_BINARY = Set.of("add", "sub", "mul", "div", "maximum", "minimum", "part_add",
			"part_mul", "part_max", "part_min", "fmod", "and", "or");

	/** DeduceTensorOpElementwiseBinaryType (tensor_ops/elementwise.cpp). */
	private static final Set<String> TENSOR_BINARY = Set.of("add", "sub", "mul", "div", "maximum", "minimum", "part_add",
			"part_mul", "part_max", "part_min", "fmod");

	/** DeduceTileUnaryType and the deducers built on it (tile_ops/unary.cpp). */
	private static final Set<String> TILE_UNARY = Set.of("neg", "exp", "sqrt", "abs", "relu", "recip", "log", "not",
			"sin", "cos");

	/** DeduceTileOpScalarBinaryType: a tile, then a scalar. */
	private static final Set<String> TILE_SCALAR = Set.of("muls", "adds", "divs", "fmods", "maximums", "minimums",
			"lrelu");

	/** DeduceTileRowReductionType (tile_ops/reduction.cpp): a tile and a scratch tile. */
	private static final Set<String> ROW_REDUCE = Set.of("row_sum", "row_max", "row_min", "row_prod", "row_argmax",
			"row_argmin");

	/** DeduceTileColReductionType. */
	private static final Set<String> COL_REDUCE = Set.of("col_sum", "col_max", "col_min", "col_prod", "col_argmax",
			"col_argmin");

	/** DeduceTileRowExpandType (tile_ops/broadcast.cpp): a tile, then a row vector [rows, 1]. */
	private static final Set<String> ROW_EXPAND = Set.of("row_expand", "row_expand_sub", "row_expand_div",
			"row_expand_mul", "row_expand_max", "row_expand_min", "row_expand_expdif");

	/** DeduceTileColExpandType: a target tile, then a column tile. */
	private static final Set<String> COL_EXPAND = Set.of("col_expand", "col_expand_mul", "col_expand_add",
			"col_expand_div", "col_expand_sub", "col_expand_max", "col_expand_min", "col_expand_expdif");

	/** tile.row_expand_add's dtypes (IsTRowExpandAddDataType). */
	private static final Set<DType> ROW_EXPAND_ADD_DTYPES = Set.of(DType.INT8, DType.INT16, DType.INT32, DType.FP16,
			DType.FP32);

	/** tile.div's dtypes (IsTDivDataType). */
	private static final Set<DType> TDIV_DTYPES = Set.of(DType.INT16, DType.INT32, DType.FP16, DType.FP32);

	static void check(String op, List<Expr> args, Map<String, Object> kwargs) {
		int dot = op.indexOf('.');
		if (dot < 0 || args.stream().anyMatch(a -> a.type() instanceof Type.Unknown)) {
			return; // an operand this compiler cannot type may be what pypto's wrapper dispatched on
		}
		String ns = op.substring(0, dot);
		String name = op.substring(dot + 1);
		if (name.equals("matmul_acc")) {
			initCond(op, args.size() >= 4 ? args.get(3) : kwargs.get("init_cond"));
		}
		if (name.equals("reshape") && args.size() >= 2 && args.get(1) instanceof Expr.MakeTuple to) {
			reshape(op, ns, args.get(0).type(), to.elements());
		}
		if (name.equals("cast") && args.size() == 1) {
			sameDtypeCast(op, args.get(0).type(), kwargs.get("target_type"));
		}
		if (op.equals("tile.store") && !args.isEmpty() && args.get(0).type() instanceof Type.Tile t) {
			atomicStore(op, t, kwargs.get("atomic"));
		}
		structural(op, ns, name, args);
		if (ns.equals("tile")) {
			tileOp(op, name, args);
		} else if (ns.equals("tensor")) {
			tensorOp(op, name, args, kwargs);
		}
	}

	/**
	 * DeduceTileCastType / DeduceTensorCastType: a cast to the dtype it has is refused (pto.tcvt is for
	 * conversions; a same-dtype one can corrupt values).
	 */
	static void sameDtypeCast(String op, Type input, Object target) {
		DType from = input instanceof Type.Tile t ? t.dtype() : input instanceof Type.Tensor t ? t.dtype() : null;
		if (from != null && target instanceof DType to && from == to) {
			throw new IrTypeError(op + ": target_type " + to.text() + " equals input dtype; same-dtype cast is not a valid"
					+ " operation. Remove the cast or use a different target_type.");
		}
	}

	/** The dtypes the hardware's atomic add takes (tile.store, tensor.assemble, the remote stores). */
	static final Set<DType> ATOMIC_ADD = Set.of(DType.FP32, DType.BF16, DType.FP16, DType.INT32, DType.INT16, DType.INT8);

	/** An atomic kwarg as pypto's int: None_ 0, Add 1, another member -1; absent 0. */
	static long atomicValue(Object atomic) {
		return atomic instanceof Long l ? l
				: atomic instanceof dev.ptotools.analyzer.facts.Values.EnumValue e
						? (e.member().equals("Add") ? 1 : e.member().equals("None_") ? 0 : -1)
						: 0;
	}

	/** tile.store's atomic kwarg: None_ or Add, and Add only on the hardware's atomic-add dtypes. */
	static void atomicStore(String op, Type.Tile tile, Object atomic) {
		long value = atomicValue(atomic);
		if (value != 0 && value != 1 && atomic instanceof Long) {
			throw new IrTypeError("The operator " + op + " atomic kwarg must be AtomicType.None_ or AtomicType.Add, but got int "
					+ value);
		}
		if (value == 1 && !ATOMIC_ADD.contains(tile.dtype())) {
			throw new IrTypeError("The operator " + op + " with atomic=AtomicType.Add requires an fp32/bf16/fp16/int32/int16/int8"
					+ " tile (hardware atomic-add dtypes), but got " + tile.dtype().text());
		}
	}

	/**
	 * Checks of the operands' structure that tile and tensor deducers share: a transpose needs two
	 * dimensions (DeduceTileTransposeType / tensor's), a read or write one index per dimension, a matmul_acc
	 * the accumulator dtype of its inputs (FP32 for float inputs, INT32 for int8).
	 */
	private static void structural(String op, String ns, String name, List<Expr> args) {
		if (args.isEmpty()) {
			return;
		}
		Type first = args.get(0).type();
		List<Expr> shape = first instanceof Type.Tile t ? t.shape() : first instanceof Type.Tensor t ? t.shape() : null;
		if ((name.equals("transpose") || name.equals("transpose_view")) && shape != null && shape.size() < 2) {
			throw new IrTypeError(op + " requires at least 2 dimensions, but got " + shape.size());
		}
		if ((name.equals("read") || name.equals("write")) && shape != null && args.size() >= 2
				&& args.get(1) instanceof Expr.MakeTuple idx && idx.elements().size() != shape.size()) {
			throw new IrTypeError(op + " indices count (" + idx.elements().size() + ") must match " + ns + " rank ("
					+ shape.size() + ")");
		}
		if (op.equals("tile.matmul_bias")) {
			matmulBias(op, args);
		}
		if (op.equals("tile.slice") && args.size() >= 2 && args.get(1) instanceof Expr.MakeTuple sizes) {
			// DeduceTileSliceType: InitMemRef allocates the slice, so its shape is static and positive
			for (int i = 0; i < sizes.elements().size(); i++) {
				Expr d = sizes.elements().get(i);
				if (d instanceof dev.ptotools.codegen.ir.Var) {
					throw new IrTypeError("tile.slice shape element " + i + " must be a compile-time constant so InitMemRef can"
							+ " allocate storage");
				}
				if (d instanceof Expr.ConstInt c && c.value() <= 0) {
					throw new IrTypeError("tile.slice shape element " + i + " must be positive, got " + c.value());
				}
			}
		}
		if ((op.equals("tile.create") || op.equals("tile.full")) && args.get(0) instanceof Expr.MakeTuple dims) {
			for (int i = 0; i < dims.elements().size(); i++) {
				Expr d = dims.elements().get(i);
				if (d instanceof dev.ptotools.codegen.ir.Var) {
					throw new IrTypeError("The operator " + op + " shape element " + i
							+ " must be a compile-time constant (ConstInt), but got Var");
				}
				if (d instanceof Expr.ConstInt c && c.value() <= 0) {
					throw new IrTypeError("The operator " + op + " shape element " + i + " must be positive, got " + c.value());
				}
			}
		}
		if (op.equals("tile.matmul_acc") && args.size() >= 3 && first instanceof Type.Tile acc
				&& args.get(1).type() instanceof Type.Tile lhs && args.get(2).type() instanceof Type.Tile rhs
				&& lhs.dtype() == rhs.dtype()) {
			// the aliased Acc result has the product's physical M and N
			physical(op, "M", acc.shape(), 0, lhs.shape(), 0);
			physical(op, "N", acc.shape(), 1, rhs.shape(), 1);
			DType expected = lhs.dtype().isFloat() ? DType.FP32 : lhs.dtype() == DType.INT8 ? DType.INT32 : null;
			if (expected != null && acc.dtype() != expected) {
				throw new IrTypeError("The operator " + op + " requires accumulator dtype " + expected.text() + ", but got "
						+ acc.dtype().text());
			}
		}
	}

	private static void physical(String op, String dim, List<Expr> acc, int ai, List<Expr> product, int pi) {
		if (acc.size() != 2 || product.size() != 2) {
			return;
		}
		Long a = constant(acc.get(ai));
		Long p = constant(product.get(pi));
		if (a != null && p != null && !a.equals(p)) {
			throw new IrTypeError("The operator " + op + " requires matching physical " + dim + " dimensions, but got acc " + dim
					+ "=" + a + " and product " + dim + "=" + p);
		}
	}

	/** DeduceTileMatmulBiasType: the bias is [1, N] of the output's N, in the accumulator's dtype. */
	private static void matmulBias(String op, List<Expr> args) {
		if (args.size() < 3 || !(args.get(0).type() instanceof Type.Tile lhs) || !(args.get(1).type() instanceof Type.Tile rhs)
				|| !(args.get(2).type() instanceof Type.Tile bias) || bias.shape().size() != 2 || rhs.shape().size() != 2) {
			return;
		}
		Long rows = constant(bias.shape().get(0));
		if (rows == null || rows != 1) {
			throw new IrTypeError("The operator " + op + " requires bias to have shape [1, N], but got "
					+ IrPrinter.shape(bias.shape()));
		}
		Long biasN = constant(bias.shape().get(1));
		Long outN = constant(rhs.shape().get(1));
		if (biasN != null && outN != null && !biasN.equals(outN)) {
			throw new IrTypeError("The operator " + op + " requires bias N dimension to match output N=" + outN
					+ ", but got bias N=" + biasN);
		}
		DType acc = lhs.dtype() == rhs.dtype() ? lhs.dtype().isFloat() ? DType.FP32 : lhs.dtype() == DType.INT8 ? DType.INT32 : null
				: null;
		if (acc != null && bias.dtype() != acc) {
			throw new IrTypeError("The operator " + op + " requires bias dtype " + acc.text() + " to match the accumulator, but got "
					+ bias.dtype().text());
		}
	}

	/** CheckMatmulInitCond: matmul_acc's optional predicate is a BOOL scalar (a comparison, not an index). */
	private static void initCond(String op, Object cond) {
		if (!(cond instanceof Expr e) || e.type() instanceof Type.Unknown) {
			return;
		}
		if (!(e.type() instanceof Type.Scalar s)) {
			throw new IrTypeError("The operator " + op + " requires init_cond to be a boolean scalar, but got "
					+ ScalarOps.typeName(e.type()));
		}
		if (s.dtype() != DType.BOOL) {
			throw new IrTypeError("The operator " + op + " requires init_cond to have dtype BOOL, but got " + s.dtype().text()
					+ ". Write a comparison such as `k == 0` rather than passing the index itself.");
		}
	}

	private static void tileOp(String op, String name, List<Expr> args) {
		if (TILE_BINARY.contains(name) && args.size() == 2) {
			Type.Tile a = tileArg(op, args, 0, "first argument");
			Type.Tile b = tileArg(op, args, 1, "second argument");
			if (a == null || b == null) {
				return;
			}
			if (name.equals("div")) {
				tdivContract(op, a, b);
				return;
			}
			if (!broadcasts(a.shape(), b.shape())) {
				throw new IrTypeError("The operator " + op + " requires compatible shapes, but got " + IrPrinter.shape(a.shape())
						+ " and " + IrPrinter.shape(b.shape()));
			}
		} else if (TILE_UNARY.contains(name) && args.size() == 1) {
			Type.Tile t = tileArg(op, args, 0, "argument");
			if (t != null) {
				unaryDtype(op, name, t.dtype());
			}
		} else if (ROW_REDUCE.contains(name) || COL_REDUCE.contains(name)) {
			Type.Tile t = args.isEmpty() ? null : tileArg(op, args, 0, "first argument");
			if (t != null && t.shape().size() < 2) {
				throw new IrTypeError("The operator " + op + " requires at least a 2D tile, but got " + t.shape().size()
						+ " dimensions");
			}
			if (t != null && ROW_REDUCE.contains(name) && args.size() == 2) {
				scratch(op, t, args.get(1).type());
			}
		} else if (TILE_SCALAR.contains(name) && args.size() == 2) {
			tileArg(op, args, 0, "first argument");
		} else if (ROW_EXPAND.contains(name) && args.size() == 2) {
			rowExpand(op, args);
		} else if (name.equals("row_expand_add") && (args.size() == 2 || args.size() == 3)) {
			rowExpandAdd(op, args);
		} else if (COL_EXPAND.contains(name) && args.size() == 2) {
			// PromoteDataTypes finds a common dtype for any two: only the kinds are checked
			tileArg(op, args, 0, "first argument");
			tileArg(op, args, 1, "second argument");
		} else if (name.equals("expands") && args.size() == 2) {
			tileArg(op, args, 0, "first argument");
			Type t = args.get(1).type();
			if (t instanceof Type.Tile || t instanceof Type.Tensor) {
				throw new IrTypeError("The operator " + op + " requires second argument to be a ScalarType, but got "
						+ ScalarOps.typeName(t));
			}
		} else if (name.equals("matmul") && args.size() == 2) {
			Type.Tile a = tileArg(op, args, 0, "first argument");
			Type.Tile b = tileArg(op, args, 1, "second argument");
			if (a == null || b == null) {
				return;
			}
			if (a.shape().size() != 2 || b.shape().size() != 2) {
				String side = a.shape().size() != 2 ? "lhs" : "rhs";
				int rank = a.shape().size() != 2 ? a.shape().size() : b.shape().size();
				throw new IrTypeError("The operator " + op + " requires " + side + " to be 2D, but got " + rank
						+ " dimensions");
			}
			Long k1 = constant(a.shape().get(1));
			Long k2 = constant(b.shape().get(0));
			if (k1 != null && k2 != null && !k1.equals(k2)) {
				throw new IrTypeError("The operator " + op + " requires matching physical inner dimensions (physical K), "
						+ "but got lhs K=" + k1 + " and rhs K=" + k2);
			}
		}
	}

	/** DeduceTileRowExpandType: the row vector's last dimension is 1 and its rows are the tile's. */
	private static void rowExpand(String op, List<Expr> args) {
		Type.Tile tile = tileArg(op, args, 0, "first argument");
		Type.Tile row = tileArg(op, args, 1, "second argument");
		if (tile == null || row == null) {
			return;
		}
		atLeast2D(op, tile, "first");
		atLeast2D(op, row, "second");
		Long cols = constant(row.shape().get(row.shape().size() - 1));
		if (cols == null || cols != 1) {
			// pypto requires a constant 1 here (a symbolic last dimension is rejected too)
			throw new IrTypeError("The operator " + op + " requires second argument's last dimension to be 1, but got "
					+ IrPrinter.shape(row.shape()));
		}
		Long tileRows = constant(tile.shape().get(tile.shape().size() - 2));
		Long rowRows = constant(row.shape().get(row.shape().size() - 2));
		if (tileRows != null && rowRows != null && !tileRows.equals(rowRows)) {
			throw new IrTypeError("The operator " + op + " requires matching row dimensions, but got tile rows=" + tileRows
					+ " and row_vec rows=" + rowRows);
		}
	}

	/**
	 * DeduceTileRowExpandAddType, the checks that do not depend on tile layouts (its valid-extent checks
	 * read the effective block layout, which this compiler does not track for every tile).
	 */
	private static void rowExpandAdd(String op, List<Expr> args) {
		Type.Tile tile = tileArg(op, args, 0, "first argument");
		Type.Tile row = tileArg(op, args, 1, "second argument");
		if (args.size() == 3 && (args.get(2).type() instanceof Type.Tensor || args.get(2).type() instanceof Type.Scalar)) {
			throw new IrTypeError("The operator " + op + " requires optional third argument tmp to be a TileType, but got "
					+ ScalarOps.typeName(args.get(2).type()));
		}
		if (tile == null || row == null) {
			return;
		}
		atLeast2D(op, tile, "first");
		atLeast2D(op, row, "second");
		if (tile.dtype() != row.dtype()) {
			throw new IrTypeError("The operator " + op + " requires src0 and src1 to have the same dtype, but got "
					+ tile.dtype().text() + " and " + row.dtype().text());
		}
		if (!ROW_EXPAND_ADD_DTYPES.contains(tile.dtype())) {
			throw new IrTypeError("The operator " + op + " requires dtype in {INT8, INT16, INT32, FP16, FP32}, but got "
					+ tile.dtype().text());
		}
	}

	private static void atLeast2D(String op, Type.Tile t, String which) {
		if (t.shape().size() < 2) {
			throw new IrTypeError("The operator " + op + " requires " + which + " argument to have at least 2 dimensions, but got "
					+ t.shape().size() + " dimensions");
		}
	}

	private static void tensorOp(String op, String name, List<Expr> args, Map<String, Object> kwargs) {
		if (TENSOR_BINARY.contains(name) && args.size() == 2) {
			Type.Tensor a = tensorArg(op, args, 0, "first");
			Type.Tensor b = tensorArg(op, args, 1, "second");
			if (a != null && b != null && !broadcasts(a.shape(), b.shape())) {
				throw new IrTypeError("The operator " + op + " requires compatible shapes, but got " + IrPrinter.shape(a.shape())
						+ " and " + IrPrinter.shape(b.shape()));
			}
		} else if (name.equals("matmul") && args.size() == 2 && args.get(0).type() instanceof Type.Tensor a
				&& args.get(1).type() instanceof Type.Tensor b) {
			boolean at = Boolean.TRUE.equals(kwargs.get("a_trans"));
			boolean bt = Boolean.TRUE.equals(kwargs.get("b_trans"));
			List<Expr> sa = a.shape();
			List<Expr> sb = b.shape();
			Expr kLhs = null;
			Expr kRhs = null;
			String context = "tensor.matmul requires matching inner dimensions";
			if (sa.size() == 1 && sb.size() == 1) {
				kLhs = sa.get(0);
				kRhs = sb.get(0);
				context = "tensor.matmul dot product requires matching dimensions";
			} else if (sa.size() == 2 && sb.size() == 1) {
				kLhs = at ? sa.get(0) : sa.get(1);
				kRhs = sb.get(0);
			} else if (sa.size() == 1 && sb.size() == 2) {
				kLhs = sa.get(0);
				kRhs = bt ? sb.get(1) : sb.get(0);
			} else if (sa.size() == 2 && sb.size() == 2) {
				kLhs = at ? sa.get(0) : sa.get(1);
				kRhs = bt ? sb.get(1) : sb.get(0);
			}
			Long k1 = kLhs == null ? null : constant(kLhs);
			Long k2 = kRhs == null ? null : constant(kRhs);
			if (k1 != null && k2 != null && !k1.equals(k2)) {
				throw new IrTypeError(context + ", but got lhs K=" + k1 + " and rhs K=" + k2);
			}
		}
	}

	/** A row reduction's scratch tile: a tile of the input's dtype and rank, no smaller in any dim. */
	private static void scratch(String op, Type.Tile input, Type tmpType) {
		if (!(tmpType instanceof Type.Tile tmp)) {
			if (tmpType instanceof Type.Tensor || tmpType instanceof Type.Scalar) {
				throw new IrTypeError("The operator " + op + " requires tmp_tile to be a TileType, but got "
						+ ScalarOps.typeName(tmpType));
			}
			return;
		}
		if (tmp.dtype() != input.dtype()) {
			throw new IrTypeError("The operator " + op + " requires tmp_tile dtype to match input dtype, but got tmp_tile "
					+ "dtype " + tmp.dtype().text() + " and input dtype " + input.dtype().text());
		}
		if (tmp.shape().size() != input.shape().size()) {
			throw new IrTypeError("The operator " + op + " requires tmp_tile to have the same rank as the input, but got "
					+ "tmp_tile shape " + IrPrinter.shape(tmp.shape()) + " and input shape " + IrPrinter.shape(input.shape()));
		}
		for (int i = 0; i < input.shape().size(); i++) {
			Long in = constant(input.shape().get(i));
			Long sc = constant(tmp.shape().get(i));
			if (in != null && sc != null && sc < in) {
				throw new IrTypeError("The operator " + op + " requires tmp_tile shape to be at least the input shape in "
						+ "every dimension, but tmp_tile dimension " + i + " is undersized; got tmp_tile shape "
						+ IrPrinter.shape(tmp.shape()) + " and input shape " + IrPrinter.shape(input.shape()));
			}
		}
	}

	/** The element count is kept when both shapes are static (tile_ops and tensor_ops transform.cpp). */
	private static void reshape(String op, String ns, Type from, List<Expr> to) {
		List<Expr> shape = from instanceof Type.Tile t ? t.shape() : from instanceof Type.Tensor t ? t.shape() : null;
		long before = shape == null ? -1 : product(shape);
		long after = product(to);
		if (before > 0 && after > 0 && before != after) {
			throw new IrTypeError(op + ": cannot reshape " + ns + " of size " + before + " into shape with size " + after);
		}
	}

	/** pypto's ComputeShapeProduct: -1 for a shape with a dim that is not a constant. */
	private static long product(List<Expr> shape) {
		long p = 1;
		for (Expr d : shape) {
			Long c = constant(d);
			if (c == null) {
				return -1;
			}
			p *= c;
		}
		return p;
	}

	/** The dtype rules of the unary deducers that have one (tile_ops/unary.cpp). */
	private static void unaryDtype(String op, String name, DType d) {
		if ((name.equals("sin") || name.equals("cos")) && d != DType.FP32) {
			throw new IrTypeError(op + " is FP32-only, but got input with dtype " + d.text() + ". Cast the input to FP32 "
					+ "explicitly via pl.cast(tile, pl.FP32) before applying " + op + ".");
		}
		if (name.equals("log") && d != DType.FP16 && d != DType.FP32) {
			throw new IrTypeError("tile.log requires an FP16 or FP32 tile operand, but got " + d.text());
		}
		if (name.equals("not") && d != DType.INT16 && d != DType.UINT16) {
			throw new IrTypeError("The operator " + op + " requires int16 or uint16 tile dtype, but got " + d.text());
		}
	}

	/** The tdiv contract: one dtype of four, one physical shape (tile_ops/elementwise.cpp). */
	private static void tdivContract(String op, Type.Tile a, Type.Tile b) {
		if (a.dtype() != b.dtype()) {
			throw new IrTypeError("The operator " + op + " requires src0, src1, and dst to have the same dtype, but got "
					+ a.dtype().text() + " and " + b.dtype().text());
		}
		if (!TDIV_DTYPES.contains(a.dtype())) {
			throw new IrTypeError("The operator " + op + " requires dtype in {INT16, INT32, FP16, FP32}, but got "
					+ a.dtype().text());
		}
		if (a.shape().size() != b.shape().size()) {
			throw new IrTypeError("The operator " + op + " requires src0, src1, and dst to have the same physical shape "
					+ "rank, but got " + a.shape().size() + " and " + b.shape().size());
		}
		for (int i = 0; i < a.shape().size(); i++) {
			Long x = constant(a.shape().get(i));
			Long y = constant(b.shape().get(i));
			if (x != null && y != null && !x.equals(y)) {
				throw new IrTypeError("The operator " + op + " requires src0, src1, and dst to have the same physical "
						+ "shape, but dimension " + i + " differs; got src0 shape " + IrPrinter.shape(a.shape()) + " and src1 shape "
						+ IrPrinter.shape(b.shape()));
			}
		}
	}

	/** The operand as a tile; null when its type is not known; pypto's error when it is something else. */
	private static Type.Tile tileArg(String op, List<Expr> args, int i, String which) {
		Type t = args.get(i).type();
		if (t instanceof Type.Tile tile) {
			return tile;
		}
		if (t instanceof Type.Tensor || t instanceof Type.Scalar) {
			throw new IrTypeError("The operator " + op + " requires " + which + " to be a TileType, but got "
					+ ScalarOps.typeName(t));
		}
		return null;
	}

	private static Type.Tensor tensorArg(String op, List<Expr> args, int i, String which) {
		Type t = args.get(i).type();
		if (t instanceof Type.Tensor tensor) {
			return tensor;
		}
		if (t instanceof Type.Tile || t instanceof Type.Scalar) {
			throw new IrTypeError("The operator " + op + " requires " + which + " argument to be a TensorType or "
					+ "DistributedTensorType, but got " + ScalarOps.typeName(t));
		}
		return null;
	}

	/**
	 * pypto's BroadcastShapes, right-aligned, failing only where both dims are constants that differ and
	 * neither is 1 (unequal symbolic dims are left to pypto's structural comparison).
	 */
	static boolean broadcasts(List<Expr> a, List<Expr> b) {
		for (int i = 1; i <= Math.min(a.size(), b.size()); i++) {
			Long x = constant(a.get(a.size() - i));
			Long y = constant(b.get(b.size() - i));
			if (x != null && y != null && !x.equals(y) && x != 1 && y != 1) {
				return false;
			}
		}
		return true;
	}

	private static Long constant(Expr e) {
		return e instanceof Expr.ConstInt c ? c.value() : null;
	}
}
