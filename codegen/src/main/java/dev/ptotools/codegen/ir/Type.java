package dev.ptotools.codegen.ir;

import java.util.List;

import dev.ptotools.codegen.types.DType;

/**
 * Types of the program IR, after pypto's {@code include/pypto/ir/type.h}. Shapes are expressions: a
 * constant extent is a {@link Expr.ConstInt}, a dynamic one a {@link Var} (a {@code pl.dynamic}
 * symbol or a scalar parameter).
 */
public sealed interface Type {

	/** A type whose value is not known to the front end (pypto's UnknownType). */
	record Unknown() implements Type {
	}

	record Scalar(DType dtype) implements Type {
	}

	/**
	 * A global-memory tensor. {@code view} is the tensor view (layout, strides) when one was given,
	 * else null; {@code distributed} marks {@code pld.DistributedTensor}; {@code window} names the
	 * window buffer a {@code pld.tensor.window} view is carved from (MaterializeCommDomainScopes), or null.
	 */
	record Tensor(List<Expr> shape, DType dtype, TensorView view, boolean distributed, String window)
			implements Type {

		public Tensor(List<Expr> shape, DType dtype) {
			this(shape, dtype, null, false, null);
		}

		public Tensor withShape(List<Expr> s) {
			return new Tensor(s, dtype, view, distributed, window);
		}

		public int rank() {
			return shape.size();
		}
	}

	/** An on-chip tile; memory is null until InferTileMemorySpace fills it in. */
	record Tile(List<Expr> shape, DType dtype, MemorySpace memory, List<Expr> validShape) implements Type {

		public Tile(List<Expr> shape, DType dtype) {
			this(shape, dtype, null, null);
		}

		public Tile withMemory(MemorySpace m) {
			return new Tile(shape, dtype, m, validShape);
		}
	}

	record Tuple(List<Type> elements) implements Type {
	}

	/** A fixed-size on-core array ({@code pl.array}), never a parameter. */
	record Array(DType dtype, List<Expr> shape) implements Type {
	}

	/** pld's communication context of a distributed tensor (MaterializeDistTensorCtx). */
	record CommCtx() implements Type {
	}

	/** A window buffer allocation ({@code pld.alloc_window_buffer}). */
	record WindowBuffer(String name) implements Type {
	}

	/** An opaque pointer (ptr-typed ops). */
	record Ptr(DType dtype) implements Type {
	}

	Unknown UNKNOWN = new Unknown();

	static boolean isTensor(Type t) {
		return t instanceof Tensor;
	}

	static boolean isScalar(Type t) {
		return t instanceof Scalar;
	}

	/** The tensor view pypto attaches to a TensorType: its layout and, when set, strides. */
	record TensorView(String layout, List<Expr> stride, List<Expr> validShape) {
	}
}
