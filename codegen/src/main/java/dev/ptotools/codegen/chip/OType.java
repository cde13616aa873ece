package dev.ptotools.codegen.chip;

import java.util.List;

import dev.ptotools.codegen.types.DType;

/** Types of the lowered orchestration IR. */
sealed interface OType {

	/** A tensor; distributed for {@code pld.DistributedTensor}; layout "ND" or "DN". */
	record Tensor(List<OExpr> shape, DType dtype, boolean distributed, String layout) implements OType {
	}

	record Scalar(DType dtype) implements OType {
	}

	record Tuple(List<OType> elements) implements OType {
	}

	/** pld's communication context, materialized as a trailing scalar parameter. */
	record CommCtx() implements OType {
	}

	/** No value (a call of a function without return annotation) or not known. */
	record None() implements OType {
	}

	static boolean isTensor(OType t) {
		return t instanceof Tensor;
	}
}
