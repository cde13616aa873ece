package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Subscripts of tensors and tiles as pypto's parser reads them (numpy rules): an all-scalar,
 * full-rank index is a read ({@code tensor.read} / {@code tile.read}); anything else is a slice view
 * whose scalar-indexed axes are dropped ({@code drop_dims}).
 */
final class Subscripts {

	private Subscripts() {
	}

	/** A window of a shaped value: full-rank offsets and extents, and the axes scalar indices drop. */
	record Window(List<dev.ptotools.codegen.ir.Expr> offsets, List<dev.ptotools.codegen.ir.Expr> extents,
			List<Integer> dropDims, boolean allScalar) {
	}

	static Window window(FunctionParser p, List<Expr> indices, List<dev.ptotools.codegen.ir.Expr> shape, Span span) {
		List<dev.ptotools.codegen.ir.Expr> offsets = new ArrayList<>();
		List<dev.ptotools.codegen.ir.Expr> extents = new ArrayList<>();
		List<Integer> drop = new ArrayList<>();
		boolean anySlice = false;
		for (int d = 0; d < indices.size(); d++) {
			Expr idx = indices.get(d);
			if (!(idx instanceof Expr.SliceExpr s)) {
				offsets.add(p.exprs.expr(idx));
				extents.add(dev.ptotools.codegen.ir.Expr.index(1));
				drop.add(d);
				continue;
			}
			anySlice = true;
			if (s.step() != null) {
				throw new CodegenException("Slice step is not supported in tensor subscript", span);
			}
			if (s.lower() == null) {
				offsets.add(dev.ptotools.codegen.ir.Expr.index(0));
				extents.add(s.upper() == null ? shape.get(d) : p.exprs.expr(s.upper()));
				continue;
			}
			dev.ptotools.codegen.ir.Expr lower = p.exprs.expr(s.lower());
			offsets.add(lower);
			dev.ptotools.codegen.ir.Expr upper = s.upper() == null ? shape.get(d) : p.exprs.expr(s.upper());
			extents.add(extent(upper, lower, span));
		}
		for (int d = indices.size(); d < shape.size(); d++) {
			offsets.add(dev.ptotools.codegen.ir.Expr.index(0));
			extents.add(shape.get(d));
		}
		return new Window(offsets, extents, drop, !anySlice && indices.size() == shape.size());
	}

	/** upper - lower, folded when both are constants, {@code (k + C) - k} simplified to C. */
	static dev.ptotools.codegen.ir.Expr extent(dev.ptotools.codegen.ir.Expr upper, dev.ptotools.codegen.ir.Expr lower,
			Span span) {
		if (upper instanceof dev.ptotools.codegen.ir.Expr.ConstInt u && lower instanceof dev.ptotools.codegen.ir.Expr.ConstInt l) {
			return dev.ptotools.codegen.ir.Expr.index(u.value() - l.value());
		}
		if (upper instanceof dev.ptotools.codegen.ir.Expr.Binary b && b.op() == BinaryOp.Add && sameExpr(b.left(), lower)
				&& b.right() instanceof dev.ptotools.codegen.ir.Expr.ConstInt c) {
			return dev.ptotools.codegen.ir.Expr.index(c.value());
		}
		if (upper instanceof dev.ptotools.codegen.ir.Expr.Binary b && b.op() == BinaryOp.Add && sameExpr(b.right(), lower)
				&& b.left() instanceof dev.ptotools.codegen.ir.Expr.ConstInt c) {
			return dev.ptotools.codegen.ir.Expr.index(c.value());
		}
		return ScalarOps.binary("-", upper, lower, span);
	}

	private static boolean sameExpr(dev.ptotools.codegen.ir.Expr a, dev.ptotools.codegen.ir.Expr b) {
		if (a == b) {
			return true;
		}
		if (a instanceof dev.ptotools.codegen.ir.Expr.ConstInt x && b instanceof dev.ptotools.codegen.ir.Expr.ConstInt y) {
			return x.value() == y.value();
		}
		if (a instanceof dev.ptotools.codegen.ir.Expr.Binary x && b instanceof dev.ptotools.codegen.ir.Expr.Binary y) {
			return x.op() == y.op() && sameExpr(x.left(), y.left()) && sameExpr(x.right(), y.right());
		}
		return false;
	}

	/** {@code base[...]} for a tensor or tile base. */
	static dev.ptotools.codegen.ir.Expr read(FunctionParser p, dev.ptotools.codegen.ir.Expr base, List<Expr> indices,
			Span span) {
		Type t = base.type();
		boolean tile = t instanceof Type.Tile;
		List<dev.ptotools.codegen.ir.Expr> shape = tile ? ((Type.Tile) t).shape() : ((Type.Tensor) t).shape();
		DType dtype = tile ? ((Type.Tile) t).dtype() : ((Type.Tensor) t).dtype();
		String kind = tile ? "Tile" : "Tensor";
		if (indices.size() > shape.size()) {
			throw new CodegenException(kind + " subscript has " + indices.size() + " indices but the " + kind.toLowerCase()
					+ " is " + shape.size() + "D", span);
		}
		boolean anySlice = indices.stream().anyMatch(i -> i instanceof Expr.SliceExpr);
		if (!anySlice && indices.size() == shape.size()) {
			List<dev.ptotools.codegen.ir.Expr> idx = new ArrayList<>();
			for (Expr i : indices) {
				idx.add(p.exprs.expr(i));
			}
			return dev.ptotools.codegen.ir.Expr.Call.op(tile ? "tile.read" : "tensor.read",
					List.of(base, new dev.ptotools.codegen.ir.Expr.MakeTuple(idx, span)), Map.of(), new Type.Scalar(dtype),
					span);
		}
		Window w = window(p, indices, shape, span);
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>(List.of(base,
				new dev.ptotools.codegen.ir.Expr.MakeTuple(w.extents(), span),
				new dev.ptotools.codegen.ir.Expr.MakeTuple(w.offsets(), span)));
		List<dev.ptotools.codegen.ir.Expr> kept = new ArrayList<>();
		for (int d = 0; d < w.extents().size(); d++) {
			if (!w.dropDims().contains(d)) {
				kept.add(w.extents().get(d));
			}
		}
		if (!w.dropDims().isEmpty()) {
			args.add(new dev.ptotools.codegen.ir.Expr.MakeTuple(List.of(), span));
			List<dev.ptotools.codegen.ir.Expr> drops = new ArrayList<>();
			for (int d : w.dropDims()) {
				drops.add(dev.ptotools.codegen.ir.Expr.index(d));
			}
			args.add(new dev.ptotools.codegen.ir.Expr.MakeTuple(drops, span));
		}
		if (tile) {
			while (kept.size() < 2) {
				kept.add(0, dev.ptotools.codegen.ir.Expr.index(1)); // tiles are at least 2-D
			}
			return dev.ptotools.codegen.ir.Expr.Call.op("tile.slice", args, Map.of(), new Type.Tile(kept, dtype), span);
		}
		return dev.ptotools.codegen.ir.Expr.Call.op("tensor.slice", args, Map.of(), ((Type.Tensor) t).withShape(kept), span);
	}
}
