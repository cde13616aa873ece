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
		if (tile) {
			return tileSlice(p, base, (Type.Tile) t, indices, span);
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
		return dev.ptotools.codegen.ir.Expr.Call.op("tensor.slice", args, Map.of(), ((Type.Tensor) t).withShape(kept), span);
	}

	/**
	 * {@code tile[...]} with a slice (pypto's _build_tile_subscript_slice_args): each slice has a static
	 * allocation extent (its constant bounds, clamped to the source's static extent) and a valid extent
	 * (its upper bound intersected with the source's valid extent, less its lower bound, at least 0); the
	 * valid shape is given only where the two differ. Lower bounds must be constants. A result below 2-D
	 * gets unit axes in front, tiles being 2-D.
	 */
	private static dev.ptotools.codegen.ir.Expr tileSlice(FunctionParser p, dev.ptotools.codegen.ir.Expr base, Type.Tile t,
			List<Expr> indices, Span span) {
		List<dev.ptotools.codegen.ir.Expr> shape = t.shape();
		List<dev.ptotools.codegen.ir.Expr> logical = t.validShape() != null && t.validShape().size() == shape.size()
				? t.validShape() : shape;
		List<dev.ptotools.codegen.ir.Expr> alloc = new ArrayList<>();
		List<dev.ptotools.codegen.ir.Expr> offsets = new ArrayList<>();
		List<dev.ptotools.codegen.ir.Expr> valid = new ArrayList<>();
		List<Integer> drop = new ArrayList<>();
		boolean needsValid = false;
		for (int d = 0; d < indices.size(); d++) {
			Expr idx = indices.get(d);
			if (!(idx instanceof Expr.SliceExpr s)) {
				offsets.add(p.exprs.expr(idx));
				alloc.add(dev.ptotools.codegen.ir.Expr.index(1));
				valid.add(dev.ptotools.codegen.ir.Expr.index(1));
				drop.add(d);
				continue;
			}
			if (s.step() != null) {
				throw new CodegenException("Slice step is not supported in tile subscript", span);
			}
			dev.ptotools.codegen.ir.Expr lower = s.lower() == null ? dev.ptotools.codegen.ir.Expr.index(0) : p.exprs.expr(s.lower());
			Long lowerConst = constant(lower);
			if (s.lower() != null && lowerConst == null) {
				throw new CodegenException("Dynamic lower bounds are not supported in tile subscript", span);
			}
			offsets.add(lower);
			dev.ptotools.codegen.ir.Expr upper = s.upper() == null ? null : p.exprs.expr(s.upper());
			dev.ptotools.codegen.ir.Expr validUpper = upper == null ? logical.get(d) : intersect(upper, logical.get(d), span);
			dev.ptotools.codegen.ir.Expr validExtent = s.lower() == null ? validUpper : clampedExtent(validUpper, lower, span);
			dev.ptotools.codegen.ir.Expr allocExtent = allocExtent(shape.get(d), lowerConst, upper, span);
			alloc.add(allocExtent);
			valid.add(validExtent);
			needsValid |= !sameExtent(allocExtent, validExtent);
		}
		for (int d = indices.size(); d < shape.size(); d++) {
			offsets.add(dev.ptotools.codegen.ir.Expr.index(0));
			alloc.add(shape.get(d));
			valid.add(logical.get(d));
			needsValid |= !sameExtent(shape.get(d), logical.get(d));
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>(List.of(base,
				new dev.ptotools.codegen.ir.Expr.MakeTuple(alloc, span), new dev.ptotools.codegen.ir.Expr.MakeTuple(offsets, span)));
		if (needsValid || !drop.isEmpty()) {
			args.add(new dev.ptotools.codegen.ir.Expr.MakeTuple(needsValid ? valid : List.of(), span));
		}
		List<dev.ptotools.codegen.ir.Expr> kept = new ArrayList<>();
		List<dev.ptotools.codegen.ir.Expr> keptValid = new ArrayList<>();
		for (int d = 0; d < alloc.size(); d++) {
			if (!drop.contains(d)) {
				kept.add(alloc.get(d));
				keptValid.add(valid.get(d));
			}
		}
		if (!drop.isEmpty()) {
			List<dev.ptotools.codegen.ir.Expr> drops = new ArrayList<>();
			for (int d : drop) {
				drops.add(dev.ptotools.codegen.ir.Expr.index(d));
			}
			args.add(new dev.ptotools.codegen.ir.Expr.MakeTuple(drops, span));
		}
		while (kept.size() < 2) {
			kept.add(0, dev.ptotools.codegen.ir.Expr.index(1)); // tiles are at least 2-D
			keptValid.add(0, dev.ptotools.codegen.ir.Expr.index(1));
		}
		return dev.ptotools.codegen.ir.Expr.Call.op("tile.slice", args, Map.of(),
				new Type.Tile(kept, t.dtype(), null, needsValid && drop.isEmpty() ? keptValid : null), span);
	}

	private static Long constant(dev.ptotools.codegen.ir.Expr e) {
		return e instanceof dev.ptotools.codegen.ir.Expr.ConstInt c ? c.value() : null;
	}

	/** pypto's _intersect_slice_upper_bound: min of the two, folded when both are constants. */
	private static dev.ptotools.codegen.ir.Expr intersect(dev.ptotools.codegen.ir.Expr requested,
			dev.ptotools.codegen.ir.Expr source, Span span) {
		Long r = constant(requested);
		Long s = constant(source);
		if (r != null && s != null) {
			return dev.ptotools.codegen.ir.Expr.index(Math.min(r, s));
		}
		return ScalarOps.binary("min", requested, source, span);
	}

	/** pypto's _build_clamped_slice_shape_expr: upper - lower, at least 0. */
	private static dev.ptotools.codegen.ir.Expr clampedExtent(dev.ptotools.codegen.ir.Expr upper,
			dev.ptotools.codegen.ir.Expr lower, Span span) {
		Long u = constant(upper);
		Long l = constant(lower);
		if (u != null && l != null) {
			return dev.ptotools.codegen.ir.Expr.index(Math.max(u - l, 0));
		}
		return ScalarOps.binary("max", extent(upper, lower, span), dev.ptotools.codegen.ir.Expr.index(0), span);
	}

	/** pypto's _build_tile_alloc_extent: the largest static extent that can back the slice. */
	private static dev.ptotools.codegen.ir.Expr allocExtent(dev.ptotools.codegen.ir.Expr staticExtent, Long lower,
			dev.ptotools.codegen.ir.Expr upper, Span span) {
		Long st = constant(staticExtent);
		Long up = upper == null ? null : constant(upper);
		Long max = lower != null && st != null ? Math.max(st - lower, 0) : null;
		if (up != null) {
			long extent = lower != null ? Math.max(up - lower, 0) : up;
			if (max != null) {
				extent = Math.min(extent, max);
			}
			if (extent <= 0) {
				throw new CodegenException("Tile subscript must produce a positive static extent", span);
			}
			return dev.ptotools.codegen.ir.Expr.index(extent);
		}
		if (max != null) {
			if (max <= 0) {
				throw new CodegenException("Tile subscript must produce a positive static extent", span);
			}
			return dev.ptotools.codegen.ir.Expr.index(max);
		}
		return staticExtent;
	}

	private static boolean sameExtent(dev.ptotools.codegen.ir.Expr a, dev.ptotools.codegen.ir.Expr b) {
		Long x = constant(a);
		Long y = constant(b);
		return x != null && y != null ? x.equals(y) : a == b;
	}

}
