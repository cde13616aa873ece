package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.types.DType;

/**
 * The checks of pypto's paged-gather deducers (src/ir/op/tensor_ops/paged_gather.cpp,
 * tile_ops/paged_gather.cpp, type_inference.cpp CheckGatherRowOperands): {@code tensor.create_l1}'s
 * shape is positive constants; {@code gather_row}'s accumulator (a tensor from create_l1, or a tile) and
 * GM source share a dtype, its window {@code shapes} are constants, an optional {@code valid_shape} has
 * their rank, integer extents, constant ones with {@code transpose=True}, and no extent provably
 * negative or past the window.
 *
 * <p>Needs: the operands' deduced types; {@code valid_shape} as the wrapper passes it (a tuple, or a list
 * of Python constants). Produces: nothing, or an {@link IrTypeError} with pypto's message.
 */
final class GatherRowChecks {

	private GatherRowChecks() {
	}

	static void check(String op, List<Expr> args, Map<String, Object> kwargs) {
		if (op.equals("tensor.create_l1")) {
			createL1(op, args);
			return;
		}
		boolean tile = op.equals("tile.gather_row");
		if (!tile && !op.equals("tensor.gather_row") || args.size() < 5
				|| args.get(0).type() instanceof Type.Unknown || args.get(1).type() instanceof Type.Unknown) {
			return;
		}
		Type acc = args.get(0).type();
		if (tile ? !(acc instanceof Type.Tile) : !(acc instanceof Type.Tensor)) {
			throw new IrTypeError("The operator " + op + " requires " + (tile ? "dst to be a TileType" : "acc to be a "
					+ "TensorType (from tensor.create_l1)") + ", but got " + ScalarOps.typeName(acc));
		}
		if (!(args.get(1).type() instanceof Type.Tensor src)) {
			throw new IrTypeError("The operator " + op + " requires src to be a TensorType (GM), but got "
					+ ScalarOps.typeName(args.get(1).type()));
		}
		DType accDtype = acc instanceof Type.Tile t ? t.dtype() : ((Type.Tensor) acc).dtype();
		if (accDtype != src.dtype()) {
			throw new IrTypeError("The operator " + op + " requires " + (tile ? "dst" : "acc") + " and src to share dtype, "
					+ "but got " + accDtype.text() + " and " + src.dtype().text());
		}
		if (!(args.get(4) instanceof Expr.MakeTuple shapes)) {
			return;
		}
		for (int i = 0; i < shapes.elements().size(); i++) {
			if (!(shapes.elements().get(i) instanceof Expr.ConstInt)) {
				throw new IrTypeError("The operator " + op + " requires shapes[" + i + "] to be a compile-time constant (it "
						+ "sizes pto.subview, whose sizes is a static attribute), but got a runtime value. Pass a dynamic row "
						+ "count through valid_shape instead — it keeps the window (and so the tile allocation and box "
						+ "alignment) static while varying only the transfer length.");
			}
		}
		List<Object> valid = extents(args.size() >= 6 ? args.get(5) : kwargs.get("valid_shape"));
		if (valid == null) {
			return;
		}
		if (valid.size() != shapes.elements().size()) {
			throw new IrTypeError("The operator " + op + " requires valid_shape to have the same rank as shapes ("
					+ shapes.elements().size() + "), but got rank " + valid.size());
		}
		for (int i = 0; i < valid.size(); i++) {
			String dtype = dtypeText(valid.get(i));
			if (dtype != null) {
				throw new IrTypeError("The operator " + op + " requires valid_shape[" + i + "] to be an integer extent, but "
						+ "got " + dtype);
			}
		}
		if (Boolean.TRUE.equals(kwargs.get("transpose")) && valid.stream().anyMatch(v -> constant(v) == null)) {
			throw new IrTypeError("The operator " + op + " does not support a dynamic valid_shape together with "
					+ "transpose=True (the DN2NZ per-row path would need a runtime column extent on a boxed NZ tile). Use a "
					+ "static valid_shape with transpose=True, or gather without transpose and read the operand with "
					+ "matmul(b_trans=True).");
		}
		// ValidateValidShapeBounds: every provable violation, joined
		List<String> errors = new ArrayList<>();
		for (int i = 0; i < valid.size(); i++) {
			Long v = constant(valid.get(i));
			long physical = ((Expr.ConstInt) shapes.elements().get(i)).value();
			if (v != null && v < 0) {
				errors.add(op + " valid_shape dimension " + i + " has provably negative extent " + v + "; expected 0 <= "
						+ "valid_shape[" + i + "] <= shape[" + i + "] (" + physical + ")");
			}
			if (v != null && v > physical) {
				errors.add(op + " valid_shape dimension " + i + " extent " + v + " provably exceeds physical shape extent "
						+ physical);
			}
		}
		if (!errors.isEmpty()) {
			throw new IrTypeError(String.join("; ", errors));
		}
	}

	/** DeduceTensorCreateL1Type: a tuple of positive constant dims. */
	private static void createL1(String op, List<Expr> args) {
		if (args.isEmpty() || !(args.get(0) instanceof Expr.MakeTuple shape)) {
			return;
		}
		for (int i = 0; i < shape.elements().size(); i++) {
			if (!(shape.elements().get(i) instanceof Expr.ConstInt c && c.value() > 0)) {
				throw new IrTypeError("The operator " + op + " shape element " + i + " must be a positive compile-time "
						+ "ConstInt");
			}
		}
	}

	/** The elements of a valid_shape operand: IR of a tuple, or the Python values of a list; null otherwise. */
	private static List<Object> extents(Object v) {
		if (v instanceof Expr.MakeTuple t) {
			return new ArrayList<>(t.elements());
		}
		if (v instanceof List<?> l) {
			return new ArrayList<>(l);
		}
		return null;
	}

	private static Long constant(Object v) {
		return v instanceof Long l ? l : v instanceof Expr.ConstInt c ? c.value() : null;
	}

	/** The dtype of a non-integer extent (a float, or a scalar of a float dtype), or null for an integer one. */
	private static String dtypeText(Object v) {
		if (v instanceof Double) {
			return DType.FP32.text();
		}
		if (v instanceof Expr e && e.type() instanceof Type.Scalar s && s.dtype().isFloat()) {
			return s.dtype().text();
		}
		return null;
	}
}
