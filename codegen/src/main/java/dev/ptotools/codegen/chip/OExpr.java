package dev.ptotools.codegen.chip;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.types.DType;

/** Expressions of the lowered orchestration IR (pypto's Expr nodes the orchestration codegen reads). */
sealed interface OExpr {

	OType type();

	record Ref(OVar var) implements OExpr {
		@Override
		public OType type() {
			return var.type;
		}
	}

	record ConstInt(long value, DType dtype) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(dtype);
		}
	}

	record ConstFloat(double value, DType dtype) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(dtype);
		}
	}

	record ConstBool(boolean value) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(DType.BOOL);
		}
	}

	/**
	 * A binary scalar expression; op is one of + - * // % min max == != < <= > >= and or (pypto's Add,
	 * Sub, Mul, FloorDiv, FloorMod, Min, Max, comparisons, And, Or).
	 */
	record Binary(String op, OExpr left, OExpr right, DType dtype) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(dtype);
		}
	}

	/** Unary scalar expression: "-" (Neg), "not", "~". */
	record Unary(String op, OExpr operand, DType dtype) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(dtype);
		}
	}

	record Cast(OExpr operand, DType dtype) implements OExpr {
		@Override
		public OType type() {
			return new OType.Scalar(dtype);
		}
	}

	record TupleGet(OVar tuple, int index, OType type) implements OExpr {
	}

	record MakeTuple(List<OExpr> elements) implements OExpr {
		@Override
		public OType type() {
			return new OType.Tuple(elements.stream().map(OExpr::type).toList());
		}
	}

	/**
	 * A call: of a builtin op ({@code op} is pypto's op name, {@code callee} null) or of a program
	 * function ({@code op} is its name). {@code directions} are the per-argument directions
	 * (DeriveCallDirections) of a function call; {@code dumps} the arguments tagged with pl.dump_tag.
	 */
	record Call(String op, Function callee, List<OExpr> args, Map<String, Object> kwargs,
			List<CallDirections.Arg> directions, Set<OVar> dumps, OType type, Span span) implements OExpr {

		boolean isOp(String name) {
			return callee == null && op.equals(name);
		}

		Object kwarg(String name) {
			return kwargs.get(name);
		}
	}
}
