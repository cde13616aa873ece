package dev.ptotools.codegen.ir;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.types.DType;

/**
 * Expressions of the program IR, after pypto's {@code expr.h} and {@code scalar_expr.h}. Every
 * expression has a type; scalar expressions carry their dtype.
 */
public sealed interface Expr permits Var, Expr.ConstInt, Expr.ConstFloat, Expr.ConstBool, Expr.Binary,
		Expr.Unary, Expr.Call, Expr.Submit, Expr.MakeTuple, Expr.TupleGetItem {

	Type type();

	Span span();

	record ConstInt(long value, DType dtype, Span span) implements Expr {
		public ConstInt(long value, DType dtype) {
			this(value, dtype, Span.NONE);
		}

		@Override
		public Type type() {
			return new Type.Scalar(dtype);
		}
	}

	record ConstFloat(double value, DType dtype, Span span) implements Expr {
		@Override
		public Type type() {
			return new Type.Scalar(dtype);
		}
	}

	record ConstBool(boolean value, Span span) implements Expr {
		@Override
		public Type type() {
			return new Type.Scalar(DType.BOOL);
		}
	}

	/** pypto's BinaryExpr subclasses. */
	enum BinaryOp {
		Add("+"), Sub("-"), Mul("*"), FloorDiv("//"), FloorMod("%"), FloatDiv("/"), Min("min"), Max("max"), Pow("**"),
		Eq("=="), Ne("!="), Lt("<"), Le("<="), Gt(">"), Ge(">="), And("and"), Or("or"), Xor("xor"), BitAnd("&"),
		BitOr("|"), BitXor("^"), BitShiftLeft("<<"), BitShiftRight(">>");

		private final String symbol;

		BinaryOp(String symbol) {
			this.symbol = symbol;
		}

		/** The Python spelling ("+", "//", "min" for the function form). */
		public String symbol() {
			return symbol;
		}

		public boolean isComparison() {
			return switch (this) {
			case Eq, Ne, Lt, Le, Gt, Ge -> true;
			default -> false;
			};
		}
	}

	record Binary(BinaryOp op, Expr left, Expr right, DType dtype, Span span) implements Expr {
		@Override
		public Type type() {
			return new Type.Scalar(dtype);
		}
	}

	/** pypto's UnaryExpr subclasses; Cast converts to {@code dtype}. */
	enum UnaryOp {
		Abs, Neg, Not, BitNot, Cast
	}

	record Unary(UnaryOp op, Expr operand, DType dtype, Span span) implements Expr {
		@Override
		public Type type() {
			return new Type.Scalar(dtype);
		}
	}

	/**
	 * A call of a builtin op ({@link Callee.Op}, pypto's registered op name such as {@code tensor.create})
	 * or of a program function ({@link Callee.Function}, pypto's GlobalVar). {@code kwargs} are the op's
	 * keyword metadata in order; {@code attrs} are compiler annotations passes add (argument directions,
	 * task dependencies...), also in order.
	 */
	record Call(Callee callee, List<Expr> args, Map<String, Object> kwargs, Map<String, Object> attrs, Type type,
			Span span) implements Expr {

		public Call {
			args = List.copyOf(args);
			kwargs = kwargs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
			attrs = attrs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
		}

		public static Call op(String name, List<Expr> args, Map<String, Object> kwargs, Type type, Span span) {
			return new Call(new Callee.Op(name), args, kwargs, Map.of(), type, span);
		}

		public static Call function(String name, List<Expr> args, Type type, Span span) {
			return new Call(new Callee.Function(name), args, Map.of(), Map.of(), type, span);
		}

		public boolean isOp(String name) {
			return callee instanceof Callee.Op o && o.name().equals(name);
		}

		public boolean isOp() {
			return callee instanceof Callee.Op;
		}

		/** The called program function's name, or null for an op call. */
		public String functionName() {
			return callee instanceof Callee.Function f ? f.name() : null;
		}

		public String name() {
			return callee.name();
		}

		public Object kwarg(String name) {
			return kwargs.get(name);
		}

		public Object attr(String name) {
			return attrs.get(name);
		}

		public Call withArgs(List<Expr> newArgs) {
			return new Call(callee, newArgs, kwargs, attrs, type, span);
		}

		public Call withType(Type newType) {
			return new Call(callee, args, kwargs, attrs, newType, span);
		}

		public Call withAttr(String key, Object value) {
			Map<String, Object> a = new LinkedHashMap<>(attrs);
			a.put(key, value);
			return new Call(callee, args, kwargs, a, type, span);
		}

		public Call withoutAttr(String key) {
			Map<String, Object> a = new LinkedHashMap<>(attrs);
			a.remove(key);
			return new Call(callee, args, kwargs, a, type, span);
		}

		public Call withKwarg(String key, Object value) {
			Map<String, Object> k = new LinkedHashMap<>(kwargs);
			k.put(key, value);
			return new Call(callee, args, k, attrs, type, span);
		}
	}

	/** What a call calls. */
	sealed interface Callee {
		String name();

		/** A builtin op, by pypto's registered name. */
		record Op(String name) implements Callee {
		}

		/** A function of the program (pypto's GlobalVar). */
		record Function(String name) implements Callee {
		}
	}

	/**
	 * {@code pl.submit(self.k, args..., deps=[...])} and {@code pl.spmd_submit}: a task launch whose value is
	 * the callee's returns followed by its {@code Scalar[TASK_ID]}. {@code args} may omit trailing Out
	 * parameters (the runtime allocates them); {@code coreNum} is null for a plain submit.
	 */
	record Submit(Callee callee, List<Expr> args, List<Expr> deps, Expr coreNum, boolean syncStart,
			Map<String, Object> attrs, Type type, Span span) implements Expr {

		public Submit {
			args = List.copyOf(args);
			deps = List.copyOf(deps);
			attrs = attrs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
		}

		public Object attr(String name) {
			return attrs.get(name);
		}

		public Submit withArgs(List<Expr> newArgs) {
			return new Submit(callee, newArgs, deps, coreNum, syncStart, attrs, type, span);
		}

		public Submit withAttr(String key, Object value) {
			Map<String, Object> a = new LinkedHashMap<>(attrs);
			a.put(key, value);
			return new Submit(callee, args, deps, coreNum, syncStart, a, type, span);
		}
	}

	record MakeTuple(List<Expr> elements, Span span) implements Expr {
		public MakeTuple {
			elements = List.copyOf(elements);
		}

		@Override
		public Type type() {
			return new Type.Tuple(elements.stream().map(Expr::type).toList());
		}
	}

	record TupleGetItem(Expr tuple, int index, Span span) implements Expr {
		@Override
		public Type type() {
			if (tuple.type() instanceof Type.Tuple t && index >= 0 && index < t.elements().size()) {
				return t.elements().get(index);
			}
			return Type.UNKNOWN;
		}
	}

	static ConstInt index(long v) {
		return new ConstInt(v, DType.INDEX);
	}
}
