package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The Python values a program's bodies see besides their own variables (pypto's {@code closure_vars}:
 * module constants, a builder's parameters and locals), folded ahead of time, and their conversion to
 * IR ({@code python_value_to_ir}): int is {@code ConstInt(INDEX)}, float {@code ConstFloat(FP32)}, a
 * {@code pl.dynamic} symbol the one Var the whole program shares.
 */
public final class Closure {

	private final Map<String, Object> values;
	private final ConstEval eval;
	private final dev.ptotools.analyzer.ir.Imports imports;
	private final Map<String, Var> dynVars = new HashMap<>();

	public Closure(Map<String, Object> values, String pl, String pld) {
		this(values, dev.ptotools.analyzer.ir.Imports.of(pl, pld));
	}

	/** A closure whose names resolve through what the module's imports bind (math.inf, pl.FP32...). */
	public Closure(Map<String, Object> values, dev.ptotools.analyzer.ir.Imports imports) {
		this.values = Map.copyOf(values);
		this.imports = imports;
		this.eval = new ConstEval(this.values, imports);
	}

	/** Folds an expression over the closure and some names more (a comprehension's loop variable). */
	public Object evalWith(Map<String, Object> more, dev.ptotools.analyzer.ir.Expr e) {
		Map<String, Object> env = new HashMap<>(values);
		env.putAll(more);
		return new ConstEval(env, imports).eval(e);
	}

	/** The folded value of a name, or null when the closure does not bind it. */
	public Object value(String name) {
		return values.get(name);
	}

	public boolean has(String name) {
		return values.containsKey(name);
	}

	/** Folds an expression with Python's semantics over the closure only; Unknown when it cannot. */
	public Object eval(dev.ptotools.analyzer.ir.Expr e) {
		return eval.eval(e);
	}

	/** The program-wide Var of a {@code pl.dynamic(name)} symbol. */
	public Var dynVar(String name) {
		return dynVars.computeIfAbsent(name, n -> new Var(n, new Type.Scalar(DType.INDEX)));
	}

	/** A closure value as IR, or null when pypto has no IR for it (a string, a dtype...). */
	public Expr toIr(Object value, Span span) {
		if (value instanceof Boolean b) {
			return new Expr.ConstBool(b, span);
		}
		if (value instanceof Long l) {
			return new Expr.ConstInt(l, DType.INDEX, span);
		}
		if (value instanceof Double d) {
			return new Expr.ConstFloat(d, DType.FP32, span);
		}
		if (value instanceof Values.DynVar d) {
			return dynVar(d.name());
		}
		if (value instanceof List<?> list) {
			List<Expr> out = new ArrayList<>();
			for (Object o : list) {
				Expr x = toIr(o, span);
				if (x == null) {
					throw new CodegenException("Unsupported closure variable type: " + typeName(o), span);
				}
				out.add(x);
			}
			return new Expr.MakeTuple(out, span);
		}
		return null;
	}

	static String typeName(Object o) {
		if (o instanceof String) {
			return "<class 'str'>";
		}
		if (o instanceof Values.DType) {
			return "<class 'pypto.pypto_core.DataType'>";
		}
		return o == null ? "<class 'NoneType'>" : "<class '" + o.getClass().getSimpleName() + "'>";
	}
}
