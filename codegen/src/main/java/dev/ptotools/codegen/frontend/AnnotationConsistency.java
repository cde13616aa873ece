package dev.ptotools.codegen.frontend;

import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's check that an assignment's annotation agrees with the value's type
 * (TypeResolver.validate_annotation_consistency): the kind (Tensor, Tile, Scalar), the dtype, the rank
 * and every static dimension, with its messages, at the statement.
 *
 * <p>Needs: the annotation's type and the value. Judged only for values whose type this compiler
 * deduces exactly as pypto does (loads, creates, slices, reshapes); an annotation on another value is
 * taken as written. A load or create of rank 3 or more annotated 2-D is pypto's flattened form
 * (FlattenTileNdTo2D's printed output), which it accepts.
 */
final class AnnotationConsistency {

	private AnnotationConsistency() {
	}

	private static final Set<String> EXACT = Set.of("tile.load", "tile.create", "tensor.create", "tensor.slice",
			"tile.slice", "tile.reshape", "tensor.reshape");

	static void check(Type annotated, Expr value, String name, Span at) {
		if (!(value instanceof Expr.Call c) || !c.isOp() || EXACT.stream().noneMatch(c::isOp)) {
			return;
		}
		Type inferred = value.type();
		if (!(annotated instanceof Type.Tile || annotated instanceof Type.Tensor)
				|| !(inferred instanceof Type.Tile || inferred instanceof Type.Tensor)) {
			return;
		}
		String annKind = annotated instanceof Type.Tile ? "Tile" : "Tensor";
		String infKind = inferred instanceof Type.Tile ? "Tile" : "Tensor";
		if (!annKind.equals(infKind)) {
			throw new CodegenException("Type annotation for '" + name + "' is " + annKind + " but expression has type "
					+ infKind, at);
		}
		DType ad = OpTypes.dtype(annotated);
		DType id = OpTypes.dtype(inferred);
		if (ad != id && !(ad == DType.INDEX && id.isInteger()) && !(id == DType.INDEX && ad.isInteger())) {
			throw new CodegenException("Type annotation for '" + name + "' has dtype " + ad.text()
					+ " but expression has dtype " + id.text(), at);
		}
		List<Expr> as = OpTypes.shape(annotated);
		List<Expr> is = OpTypes.shape(inferred);
		if (annotated instanceof Type.Tile && as.size() <= 2 && is.size() > 2
				&& (c.isOp("tile.load") || c.isOp("tile.create"))) {
			return; // FlattenTileNdTo2D's printed form: the annotation carries the flattened shape
		}
		if (as.size() != is.size()) {
			throw new CodegenException("Type annotation for '" + name + "' has rank " + as.size()
					+ " but expression has rank " + is.size(), at);
		}
		for (int i = 0; i < as.size(); i++) {
			if (as.get(i) instanceof Expr.ConstInt x && is.get(i) instanceof Expr.ConstInt y && x.value() != y.value()) {
				throw new CodegenException("Type annotation for '" + name + "' has shape dimension " + i + " = " + x.value()
						+ " but expression has shape dimension " + i + " = " + y.value(), at);
			}
		}
	}
}
