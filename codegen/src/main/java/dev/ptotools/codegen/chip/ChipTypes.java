package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Resolves DSL type annotations to lowered types the way pypto's type resolver evaluates them: shape
 * extents are closure expressions (folded to constants), {@code pl.dynamic("M")} names become one
 * shared symbol per name, dtypes are {@code pl.<DTYPE>} members.
 */
final class ChipTypes {

	private final ConstEval eval;
	private final Map<String, OVar> dynSymbols = new LinkedHashMap<>();

	ChipTypes(ConstEval eval) {
		this.eval = eval;
	}

	/** The shared symbol of a dynamic dimension. */
	OVar dynSymbol(String name) {
		return dynSymbols.computeIfAbsent(name,
				n -> new OVar(n, new OType.Scalar(DType.INDEX), OVar.Kind.DYN_DIM, null));
	}

	OType of(TypeSpec spec, Expr annotation) {
		if (spec instanceof TypeSpec.Tensor t) {
			if (t.kind() == TypeSpec.TensorKind.TILE) {
				throw new CodegenException("a Tile is not an orchestration value", t.span());
			}
			if (t.shape() == null) {
				throw new CodegenException(
						"tensor type without a shape: orchestration codegen needs pl.Tensor[[shape], dtype]", t.span());
			}
			List<OExpr> shape = new ArrayList<>();
			for (Expr d : t.shape()) {
				shape.add(extent(d));
			}
			DType dtype = DType.named(t.dtype());
			if (dtype == null) {
				throw new CodegenException("unknown tensor dtype " + t.dtype(), t.span());
			}
			return new OType.Tensor(List.copyOf(shape), dtype, t.kind() == TypeSpec.TensorKind.DISTRIBUTED, "ND");
		}
		if (spec instanceof TypeSpec.Scalar s) {
			DType dtype = DType.named(s.dtype());
			if (dtype == null) {
				throw new CodegenException("unknown scalar dtype " + s.dtype(), s.span());
			}
			return new OType.Scalar(dtype);
		}
		if (annotation instanceof Expr.Subscript sub && isTupleHead(sub.value())) {
			List<OType> elements = new ArrayList<>();
			for (Expr e : sub.indices()) {
				elements.add(of(ModuleLowering.typeSpec(e), e));
			}
			return new OType.Tuple(List.copyOf(elements));
		}
		if (spec == null || annotation instanceof Expr.Literal) {
			return new OType.None();
		}
		throw new CodegenException("unsupported type annotation", annotation.span());
	}

	/** A function's return type from its annotation (None when there is none). */
	OType returnType(Expr annotation) {
		return annotation == null ? new OType.None() : of(ModuleLowering.typeSpec(annotation), annotation);
	}

	private static boolean isTupleHead(Expr e) {
		String text = e instanceof Expr.Name n ? n.id() : e instanceof Expr.Attribute a ? a.attr() : "";
		return text.equals("tuple") || text.equals("Tuple");
	}

	/** A shape extent: a folded constant, a dynamic symbol, or arithmetic over them. */
	OExpr extent(Expr d) {
		Object v = eval.eval(d);
		if (v instanceof Long l) {
			return new OExpr.ConstInt(l, DType.INDEX);
		}
		if (v instanceof Values.DynVar dyn) {
			return new OExpr.Ref(dynSymbol(dyn.name()));
		}
		if (d instanceof Expr.BinOp b) {
			String op = b.op();
			if (op.equals("+") || op.equals("-") || op.equals("*") || op.equals("//") || op.equals("%")) {
				return new OExpr.Binary(op, extent(b.left()), extent(b.right()), DType.INDEX);
			}
		}
		throw new CodegenException("shape extent must be a constant or a pl.dynamic symbol", d.span());
	}

	/** A dtype expression ({@code pl.FP32}), or null. */
	DType dtype(Expr e) {
		if (e == null) {
			return null;
		}
		Object v = eval.eval(e);
		if (v instanceof Values.DType d) {
			return DType.named(d.name());
		}
		return null;
	}
}
