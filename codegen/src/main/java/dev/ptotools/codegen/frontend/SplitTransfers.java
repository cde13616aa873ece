package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * {@code pl.aiv_shard(x)} / {@code pl.aic_gather(x)}, the values that cross between the cube and the two
 * vector lanes of a {@code pl.split_aiv} region (pypto's parser, _parse_split_transfer, and the deducers
 * DeduceSplitReshape / DeduceSplitReshapeTensor in src/ir/op/tile_ops/cross_core.cpp): a tensor operand
 * becomes {@code tensor.<op>}, a tile {@code tile.<op>}, with the region's split mode as the {@code split}
 * attribute (0 none, 1 up/down, 2 left/right), or an explicit integer {@code split=} outside a region
 * (tiles only). The result halves (shard) or doubles (gather) the split axis (the ceil half for an odd
 * extent), and the valid shape with it; with no split axis it is the operand's shape.
 */
final class SplitTransfers {

	private SplitTransfers() {
	}

	static dev.ptotools.codegen.ir.Expr build(FunctionParser p, Expr.Call c, boolean shard) {
		String op = shard ? "aiv_shard" : "aic_gather";
		Expr explicitSplit = null;
		for (Expr.Keyword k : c.keywords()) {
			switch (k.name() == null ? "" : k.name()) {
			case "split" -> explicitSplit = k.value();
			case "lane_stride" -> {
				if (!shard) {
					throw new CodegenException("pl.aic_gather() does not take a lane_stride= argument: only the Cube -> "
							+ "Vector shard is ever rebalanced onto a ragged boundary's valid region, so the gather always "
							+ "re-joins the lanes on the box partition", c.span());
				}
			}
			case "mode" -> throw new CodegenException("pl." + op + "() does not take a mode= argument — pass the lowered "
					+ "integer 'split=' (outlined form) or rely on the enclosing pl.split_aiv(mode=...) scope (high-level "
					+ "form)", c.span());
			default -> throw new CodegenException("pl." + op + "() does not accept keyword argument '" + k.name() + "'",
					c.span());
			}
		}
		if (c.args().size() != 1) {
			throw new CodegenException("pl." + op + "() takes exactly one positional argument (the tile to "
					+ (shard ? "shard" : "gather") + "), got " + c.args().size(), c.span());
		}
		dev.ptotools.codegen.ir.Expr operand = p.exprs.expr(c.args().get(0));
		if (operand.type() instanceof Type.Tensor t && t.distributed()) {
			throw new CodegenException("pl." + op + " does not support distributed tensors (AIV/AIC split only)", c.span());
		}
		boolean tensor = operand.type() instanceof Type.Tensor;
		long split;
		if (explicitSplit != null) {
			if (p.splitAivMode != null) {
				throw new CodegenException("pl." + op + "() does not take a split= argument inside a 'for ... in "
						+ "pl.split_aiv(...)' loop — the split mode is inherited from that scope", c.span());
			}
			if (tensor) {
				throw new CodegenException("pl." + op + "(..., split=N) does not accept a high-level Tensor operand — the "
						+ "outlined split= form is tile-only. Wrap the Tensor in a 'for aiv_id in pl.split_aiv(...)' region "
						+ "instead, which supplies the split mode and lowers to the tile op.", c.span());
			}
			if (!(explicitSplit instanceof Expr.Literal l && l.value() instanceof Long n)) {
				throw new CodegenException("pl." + op + "(..., split=N) requires an integer split (the lowered SplitMode "
						+ "value)", c.span());
			}
			split = n;
		} else {
			if (p.splitAivMode == null) {
				throw new CodegenException("pl." + op + "() must be used inside a 'for ... in pl.split_aiv(...)' loop (or "
						+ "pass an explicit integer 'split=' in the outlined form); it otherwise inherits the split mode "
						+ "from that scope", c.span());
			}
			split = switch (p.splitAivMode) {
			case "UpDown" -> 1;
			case "LeftRight" -> 2;
			default -> 0;
			};
		}
		String name = (tensor ? "tensor." : "tile.") + op;
		if (split < 0 || split > 2) {
			throw new CodegenException(name + " split must be 0 (NONE/no split axis), 1 (UP_DOWN/axis0) or 2 "
					+ "(LEFT_RIGHT/axis1), but got " + split, c.span());
		}
		Type type = resultType(name, operand, (int) split, shard, c);
		return dev.ptotools.codegen.ir.Expr.Call.op(name, List.of(operand), Map.of("split", split), type, c.span());
	}

	private static Type resultType(String name, dev.ptotools.codegen.ir.Expr operand, int split, boolean halve,
			Expr.Call c) {
		Type in = operand.type();
		if (in instanceof Type.Tensor t) {
			if (split == 0) {
				return t;
			}
			if (t.shape().size() != 2) {
				throw new CodegenException(name + " requires a 2D tensor, but got rank " + t.shape().size() + ". Reshape "
						+ "the operand to 2D (pl.reshape) before the shard / gather so the UP_DOWN / LEFT_RIGHT split axis "
						+ "is unambiguous.", c.args().get(0).span());
			}
			List<dev.ptotools.codegen.ir.Expr> valid = t.view() != null && t.view().validShape() != null
					&& !t.view().validShape().isEmpty() ? t.view().validShape() : t.shape();
			List<dev.ptotools.codegen.ir.Expr> shape = reshape(t.shape(), split == 1 ? 0 : 1, halve, false);
			List<dev.ptotools.codegen.ir.Expr> newValid = reshape(valid, split == 1 ? 0 : 1, halve, true);
			if (newValid.equals(shape)) {
				return new Type.Tensor(shape, t.dtype());
			}
			return new Type.Tensor(shape, t.dtype(), new Type.TensorView("ND", List.of(), newValid), false, null);
		}
		if (in instanceof Type.Tile t) {
			List<dev.ptotools.codegen.ir.Expr> valid = t.validShape() != null && !t.validShape().isEmpty() ? t.validShape()
					: t.shape();
			if (split == 0) {
				return new Type.Tile(t.shape(), t.dtype(), null, valid.equals(t.shape()) ? null : valid);
			}
			if (t.shape().size() != 2) {
				throw new CodegenException(name + " requires a 2D tile, but got rank " + t.shape().size(),
						c.args().get(0).span());
			}
			List<dev.ptotools.codegen.ir.Expr> shape = reshape(t.shape(), split == 1 ? 0 : 1, halve, false);
			List<dev.ptotools.codegen.ir.Expr> newValid = reshape(valid, split == 1 ? 0 : 1, halve, true);
			return new Type.Tile(shape, t.dtype(), null, newValid.equals(shape) ? null : newValid);
		}
		if (in == Type.UNKNOWN) {
			return Type.UNKNOWN;
		}
		throw new CodegenException("The operator " + name + " requires argument to be a " + (name.startsWith("tensor")
				? "(non-distributed) TensorType" : "TileType") + ", but got " + Types.print(in), c.args().get(0).span());
	}

	/** The split axis halved (the ceil half) or doubled; a dynamic extent symbolically. */
	private static List<dev.ptotools.codegen.ir.Expr> reshape(List<dev.ptotools.codegen.ir.Expr> dims, int axis,
			boolean halve, boolean valid) {
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>(dims);
		if (axis >= out.size()) {
			return out;
		}
		dev.ptotools.codegen.ir.Expr d = out.get(axis);
		if (d instanceof dev.ptotools.codegen.ir.Expr.ConstInt ci) {
			out.set(axis, new dev.ptotools.codegen.ir.Expr.ConstInt(halve ? (ci.value() + 1) / 2 : ci.value() * 2,
					ci.dtype(), ci.span()));
			return out;
		}
		DType dt = d.type() instanceof Type.Scalar s ? s.dtype() : DType.INDEX;
		dev.ptotools.codegen.ir.Expr two = new dev.ptotools.codegen.ir.Expr.ConstInt(2, dt, d.span());
		if (halve) {
			dev.ptotools.codegen.ir.Expr base = valid
					? new dev.ptotools.codegen.ir.Expr.Binary(dev.ptotools.codegen.ir.Expr.BinaryOp.Add, d,
							new dev.ptotools.codegen.ir.Expr.ConstInt(1, dt, d.span()), dt, d.span())
					: d;
			out.set(axis, new dev.ptotools.codegen.ir.Expr.Binary(dev.ptotools.codegen.ir.Expr.BinaryOp.FloorDiv, base, two, dt,
					d.span()));
		} else {
			out.set(axis, new dev.ptotools.codegen.ir.Expr.Binary(dev.ptotools.codegen.ir.Expr.BinaryOp.Mul, d, two, dt,
					d.span()));
		}
		return out;
	}
}
