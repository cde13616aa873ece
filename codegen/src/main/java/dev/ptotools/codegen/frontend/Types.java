package dev.ptotools.codegen.frontend;

import java.util.List;
import java.util.stream.Collectors;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/** Comparing and printing types the way pypto's parser messages show them. */
final class Types {

	private Types() {
	}

	/** Whether two types are the same kind, dtype and shape (symbolic extents compared by identity). */
	static boolean match(Type a, Type b) {
		if (a instanceof Type.Tensor x && b instanceof Type.Tensor y) {
			return x.dtype() == y.dtype() && shapes(x.shape(), y.shape());
		}
		if (a instanceof Type.Tile x && b instanceof Type.Tile y) {
			return x.dtype() == y.dtype() && shapes(x.shape(), y.shape());
		}
		if (a instanceof Type.Scalar x && b instanceof Type.Scalar y) {
			return x.dtype() == y.dtype() || (isIndexLike(x) && isIndexLike(y));
		}
		if (a instanceof Type.Tuple x && b instanceof Type.Tuple y) {
			if (x.elements().size() != y.elements().size()) {
				return false;
			}
			for (int i = 0; i < x.elements().size(); i++) {
				if (!match(x.elements().get(i), y.elements().get(i))) {
					return false;
				}
			}
			return true;
		}
		return a.getClass() == b.getClass();
	}

	private static boolean isIndexLike(Type.Scalar s) {
		return s.dtype() == dev.ptotools.codegen.types.DType.INDEX || s.dtype() == dev.ptotools.codegen.types.DType.INT64;
	}

	static boolean shapes(List<Expr> a, List<Expr> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (int i = 0; i < a.size(); i++) {
			if (!sameExtent(a.get(i), b.get(i))) {
				return false;
			}
		}
		return true;
	}

	static boolean sameExtent(Expr a, Expr b) {
		if (a instanceof Expr.ConstInt x && b instanceof Expr.ConstInt y) {
			return x.value() == y.value();
		}
		if (a instanceof Var || b instanceof Var) {
			return a == b;
		}
		return true; // symbolic expressions: pypto compares structurally; do not reject what we cannot prove
	}

	/** pypto's python_print_type: {@code pl.Tensor[[16, 16], pl.FP32]}. */
	static String print(Type t) {
		if (t instanceof Type.Tensor x) {
			return (x.distributed() ? "pld.DistributedTensor" : "pl.Tensor") + "[[" + dims(x.shape()) + "], pl."
					+ x.dtype().dslName() + "]";
		}
		if (t instanceof Type.Tile x) {
			return "pl.Tile[[" + dims(x.shape()) + "], pl." + x.dtype().dslName() + "]";
		}
		if (t instanceof Type.Scalar s) {
			return "pl.Scalar[pl." + s.dtype().dslName() + "]";
		}
		if (t instanceof Type.Tuple tt) {
			return "tuple[" + tt.elements().stream().map(Types::print).collect(Collectors.joining(", ")) + "]";
		}
		return t.getClass().getSimpleName();
	}

	private static String dims(List<Expr> shape) {
		return shape.stream().map(Types::dim).collect(Collectors.joining(", "));
	}

	static String dim(Expr e) {
		if (e instanceof Expr.ConstInt c) {
			return Long.toString(c.value());
		}
		if (e instanceof Var v) {
			return v.name();
		}
		return "?";
	}
}
