package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * {@code dst[...] = src} (pypto's {@code _parse_subscript_assignment}): {@code dst = tensor.assemble(dst,
 * src, offsets)} (tile.assemble for tiles; array.update_element for arrays), the source lifted to the
 * window's rank with a reshape when scalar indices dropped axes.
 */
final class SubscriptWrites {

	private final FunctionParser p;

	SubscriptWrites(FunctionParser p) {
		this.p = p;
	}

	void write(Expr.Subscript target, Expr value, Span span, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (p.strictSsa) {
			throw new CodegenException("Subscript-write syntax 'dst[...] = src' is only supported before SSA conversion",
					target.span());
		}
		if (!(target.value() instanceof Expr.Name n)) {
			throw new CodegenException("Subscript-write target must be a variable name, got " + Render.expr(target.value()),
					target.span());
		}
		dev.ptotools.codegen.ir.Expr base = p.exprs.expr(target.value());
		Type bt = base.type();
		if (bt instanceof Type.Array) {
			if (target.indices().size() != 1) {
				throw new CodegenException("Array subscript-write takes one index", target.span());
			}
			dev.ptotools.codegen.ir.Expr idx = p.exprs.expr(target.indices().get(0));
			dev.ptotools.codegen.ir.Expr v = p.exprs.expr(value);
			dev.ptotools.codegen.ir.Expr call = dev.ptotools.codegen.ir.Expr.Call.op("array.update_element",
					List.of(base, idx, v), Map.of(), bt, span);
			p.assignOrLet(n.id(), call, span, null, out);
			return;
		}
		boolean tile = bt instanceof Type.Tile;
		if (!(bt instanceof Type.Tensor) && !tile) {
			throw new CodegenException("Subscript-write requires a Tensor, Tile, or Array target, got "
					+ ScalarOps.typeName(bt), target.span());
		}
		String kind = tile ? "tile" : "tensor";
		List<dev.ptotools.codegen.ir.Expr> shape = tile ? ((Type.Tile) bt).shape() : ((Type.Tensor) bt).shape();
		if (target.indices().size() > shape.size()) {
			throw new CodegenException((tile ? "Tile" : "Tensor") + " subscript-write has " + target.indices().size()
					+ " indices but the " + kind + " is " + shape.size() + "D", target.span());
		}
		Subscripts.Window win = Subscripts.window(p, target.indices(), shape, target.span());
		if (win.allScalar()) {
			throw new CodegenException("Element-write 'dst[i, j] = scalar' is not supported for " + kind + " targets",
					target.span());
		}
		dev.ptotools.codegen.ir.Expr src = p.exprs.expr(value);
		Type st = src.type();
		if (tile ? !(st instanceof Type.Tile) : !(st instanceof Type.Tensor)) {
			throw new CodegenException("Subscript-write source must also be a " + (tile ? "tile" : "tensor") + ", got "
					+ ScalarOps.typeName(st), span);
		}
		List<dev.ptotools.codegen.ir.Expr> srcShape = tile ? ((Type.Tile) st).shape() : ((Type.Tensor) st).shape();
		List<dev.ptotools.codegen.ir.Expr> srcValid = tile ? ((Type.Tile) st).validShape()
				: ((Type.Tensor) st).view() == null ? null : ((Type.Tensor) st).view().validShape();
		checkSourceShape(win, srcShape, srcValid, kind, target.span());
		if (srcShape.size() != win.extents().size()) {
			// lift the source to the window's full rank: unit axes where scalar indices dropped one
			List<dev.ptotools.codegen.ir.Expr> lifted = new ArrayList<>();
			for (int d = 0; d < win.extents().size(); d++) {
				lifted.add(win.dropDims().contains(d) ? dev.ptotools.codegen.ir.Expr.index(1) : win.extents().get(d));
			}
			Type liftedType = tile ? new Type.Tile(lifted, ((Type.Tile) st).dtype())
					: ((Type.Tensor) st).withShape(lifted);
			src = dev.ptotools.codegen.ir.Expr.Call.op(tile ? "tile.reshape" : "tensor.reshape",
					List.of(src, new dev.ptotools.codegen.ir.Expr.MakeTuple(lifted, span)), Map.of(), liftedType, span);
		}
		dev.ptotools.codegen.ir.Expr call = dev.ptotools.codegen.ir.Expr.Call.op(tile ? "tile.assemble" : "tensor.assemble",
				List.of(base, src, new dev.ptotools.codegen.ir.Expr.MakeTuple(win.offsets(), span)), Map.of(), bt, span);
		Var v = p.assignOrLet(n.id(), call, span, null, out);
		p.scopes.define(n.id(), v);
	}

	/**
	 * The source fits the window: its rank is the window's after scalar indices dropped their axes (a tile
	 * may keep leading unit axes up to 2-D, as tile.slice floors its result), and each constant extent
	 * matches (a tile's constant valid_shape may stand for a padded static one; a dynamic one is trusted).
	 */
	private static void checkSourceShape(Subscripts.Window win, List<dev.ptotools.codegen.ir.Expr> src,
			List<dev.ptotools.codegen.ir.Expr> srcValid, String kind, Span at) {
		List<Integer> kept = new ArrayList<>();
		for (int d = 0; d < win.extents().size(); d++) {
			if (!win.dropDims().contains(d)) {
				kept.add(d);
			}
		}
		int natural = kept.size();
		int floored = kind.equals("tile") ? Math.max(2, natural) : natural;
		if (src.size() != natural && src.size() != floored) {
			String expected = natural == floored ? natural + "D" : natural + "D or " + floored + "D";
			throw new CodegenException("Subscript-write source must be " + expected + " to match the rank-reduced " + kind
					+ " window, got " + src.size() + "D", at);
		}
		int lead = src.size() - natural;
		for (int axis = 0; axis < src.size(); axis++) {
			Long want = axis < lead ? Long.valueOf(1) : constant(win.extents().get(kept.get(axis - lead)));
			Long have = constant(src.get(axis));
			if (want == null || have == null || want.equals(have)) {
				continue;
			}
			if (srcValid != null && axis < srcValid.size()) {
				Long valid = constant(srcValid.get(axis));
				if (valid == null || valid.equals(want)) {
					continue;
				}
			}
			throw new CodegenException("Subscript-write shape mismatch on source axis " + axis + ": window expects " + want
					+ " elements, source has " + have, at);
		}
	}

	private static Long constant(dev.ptotools.codegen.ir.Expr e) {
		return e instanceof dev.ptotools.codegen.ir.Expr.ConstInt c ? c.value() : null;
	}
}
