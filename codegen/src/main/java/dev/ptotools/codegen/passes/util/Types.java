package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;

/** Helpers over the expressions inside types (shapes, tensor views, tile valid shapes). */
public final class Types {

	private Types() {
	}

	/**
	 * The type with f applied to every shape, stride and valid-shape expression (tuple elements included);
	 * the very same object when f changed nothing. Passes that port pypto compare types by identity
	 * where pypto compares TypePtrs, so an unchanged type must stay the same object.
	 */
	public static Type mapExprs(Type t, UnaryOperator<Expr> f) {
		if (t instanceof Type.Tuple tu) {
			List<Type> els = new ArrayList<>();
			boolean changed = false;
			for (Type e : tu.elements()) {
				Type n = mapExprs(e, f);
				changed |= n != e;
				els.add(n);
			}
			return changed ? new Type.Tuple(els) : t;
		}
		if (t instanceof Type.Tensor x) {
			List<Expr> shape = map(x.shape(), f);
			Type.TensorView view = x.view();
			if (view != null) {
				List<Expr> stride = map(view.stride(), f);
				List<Expr> valid = map(view.validShape(), f);
				if (stride != view.stride() || valid != view.validShape()) {
					view = new Type.TensorView(view.layout(), stride, valid);
				}
			}
			if (shape == x.shape() && view == x.view()) {
				return t;
			}
			return new Type.Tensor(shape, x.dtype(), view, x.distributed(), x.window());
		}
		if (t instanceof Type.Tile x) {
			List<Expr> shape = map(x.shape(), f);
			List<Expr> valid = map(x.validShape(), f);
			if (shape == x.shape() && valid == x.validShape()) {
				return t;
			}
			return new Type.Tile(shape, x.dtype(), x.memory(), valid);
		}
		return t;
	}

	/** f applied to each expression; the same list when nothing changed (null stays null). */
	public static List<Expr> map(List<Expr> es, UnaryOperator<Expr> f) {
		if (es == null) {
			return null;
		}
		List<Expr> out = null;
		for (int i = 0; i < es.size(); i++) {
			Expr n = f.apply(es.get(i));
			if (n != es.get(i) && out == null) {
				out = new ArrayList<>(es.subList(0, i));
			}
			if (out != null) {
				out.add(n);
			}
		}
		return out == null ? es : out;
	}
}
