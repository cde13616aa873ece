package dev.ptotools.analyzer.ir;

import java.util.List;

/** A parameter or variable type as written in the DSL. */
public sealed interface TypeSpec {

	/** Which tensor-like type: pl.Tensor, pld.DistributedTensor or pl.Tile. */
	enum TensorKind {
		TENSOR, DISTRIBUTED, TILE
	}

	/**
	 * {@code pl.Tensor[[shape], dtype]} and friends. shape is null for a bare {@code pl.Tensor} (jit
	 * style); dtype is the DataType name ("FP32") or null when not resolvable.
	 */
	record Tensor(TensorKind kind, List<Expr> shape, String dtype, Span span) implements TypeSpec {
	}

	record Scalar(String dtype, Span span) implements TypeSpec {
	}

	/** Anything else (pl.Ptr, tuple[...], unresolvable text). */
	record Other(String text, Span span) implements TypeSpec {
	}
}
