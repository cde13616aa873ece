package dev.ptotools.codegen.frontend;

import java.util.List;

import dev.ptotools.codegen.ir.Expr;

/**
 * pypto's bounds rules for a window read and a write (src/ir/op/type_inference.cpp,
 * CheckWindowReadDimBounds and CheckWriteDimBounds), as tile.load and tile.store apply them: a window
 * starts inside its source, and, unless the read clamps, the extent it touches ends inside it.
 *
 * <p>Needs: the source and window shapes and the offsets, of one rank. pypto rejects only what it can
 * disprove and trusts what stays symbolic; here only constants are compared, a subset of what it
 * disproves. Produces: nothing, or an {@link IrTypeError} with pypto's message.
 */
final class WindowBounds {

	private WindowBounds() {
	}

	static final String LOAD_REMEDY = "Pass clamp=True -- pl.load(x, offsets, shapes, clamp=True) -- to narrow the "
			+ "read to the source edge instead";

	static final String STORE_REMEDY = "A store performs no layout conversion (RFC #1300 P7): the offsets and the tile "
			+ "extent must already be in the destination's coordinate system. If the tile was read through a view whose "
			+ "layout differs from the destination's -- a DN view transposes it -- take the matching view of the "
			+ "destination, pl.view(out, layout=...), and store into that";

	/**
	 * A read of {@code reach} elements (the requested valid shape, else the window) at {@code offsets}
	 * from a source of {@code source} elements per dimension.
	 */
	static void read(String op, List<Expr> source, List<Expr> offsets, List<Expr> reach, boolean clamp, String remedy) {
		if (source.size() != offsets.size() || reach.size() != offsets.size()) {
			return;
		}
		for (int i = 0; i < offsets.size(); i++) {
			Long off = constant(offsets.get(i));
			if (off != null && off < 0) {
				throw new IrTypeError(op + " offset " + i + " is provably negative (" + off
						+ "); a window must start inside its source");
			}
			Long ext = constant(reach.get(i));
			Long src = constant(source.get(i));
			if (!clamp && off != null && ext != null && src != null && off + ext > src) {
				throw new IrTypeError(op + " reads past the end of dimension " + i + ": offset " + off + " + extent " + ext
						+ " exceeds the source extent " + src + ". " + remedy);
			}
		}
	}

	/** A write of {@code reach} elements (the tile's valid shape) at {@code offsets} into {@code target}. */
	static void write(String op, List<Expr> target, List<Expr> offsets, List<Expr> reach, String remedy) {
		if (target.size() != offsets.size() || reach.size() != offsets.size()) {
			return;
		}
		for (int i = 0; i < offsets.size(); i++) {
			Long off = constant(offsets.get(i));
			if (off != null && off < 0) {
				throw new IrTypeError(op + " offset " + i + " is provably negative (" + off
						+ "); a write must start inside its target");
			}
			Long ext = constant(reach.get(i));
			Long dst = constant(target.get(i));
			if (off != null && ext != null && dst != null && off + ext > dst) {
				throw new IrTypeError(op + " writes past the end of dimension " + i + ": offset " + off + " + extent " + ext
						+ " exceeds the target extent " + dst + (remedy.isEmpty() ? "" : ". ") + remedy);
			}
		}
	}

	private static Long constant(Expr e) {
		return e instanceof Expr.ConstInt c ? c.value() : null;
	}
}
