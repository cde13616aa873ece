package dev.ptotools.analyzer.facts.jit;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape, dtype and layout a tensor parameter is specialized to (pypto's {@code TensorMeta}). Each dim
 * is a Long or a {@link DynDim}; dtype is pypto's DataType name ("FP32"); layout is the annotated layout
 * slot ("NZ", "ND"...) or null when the annotation has none.
 */
public record TensorMeta(List<Object> shape, String dtype, String layout) {

	public TensorMeta {
		shape = List.copyOf(shape);
	}

	public int rank() {
		return shape.size();
	}

	/** The extent of each dim, a dynamic one at its bound. */
	public List<Long> staticShape() {
		List<Long> out = new ArrayList<>();
		for (Object d : shape) {
			out.add(d instanceof DynDim dd ? dd.bound() : (Long) d);
		}
		return out;
	}

	public TensorMeta withShape(List<Object> newShape) {
		return new TensorMeta(newShape, dtype, layout);
	}

	public TensorMeta withLayout(String newLayout) {
		return new TensorMeta(shape, dtype, newLayout);
	}

	/** {@code pl.Tensor[[d0, d1], pl.DT(, pl.LAYOUT)]} as pypto's specializer writes it (no ND slot). */
	public String annotation(String head) {
		StringBuilder b = new StringBuilder(head).append("[[");
		for (int i = 0; i < shape.size(); i++) {
			b.append(i == 0 ? "" : ", ").append(shape.get(i));
		}
		b.append("], pl.").append(dtype);
		if (layout != null && !layout.equals("ND")) {
			b.append(", pl.").append(layout);
		}
		return b.append(']').toString();
	}

	@Override
	public String toString() {
		return annotation("pl.Tensor");
	}
}
