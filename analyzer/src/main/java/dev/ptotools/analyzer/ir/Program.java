package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * A PyPTO program: a {@code @pl.program} class, or the {@code @pl.jit} functions of one scope
 * (function style, where calls name functions bare). {@code bindings} are the names the program's
 * bodies can see besides their own locals, in source order: module-level assignments first, then
 * for each enclosing function its parameters and its assignments (a program defined inside a test
 * function or a builder sees its locals and parameters).
 */
public record Program(String name, Style style, List<Function> functions, List<Binding> bindings, Span span,
		Span nameSpan) {

	public enum Style {
		CLASS, JIT
	}

	/**
	 * {@code name = value} in a scope around the program, or a parameter of an enclosing function
	 * ({@code parameterOf} is that function's name and {@code value} its default, null without one),
	 * whose value is whatever the function is called with.
	 */
	public record Binding(String name, Expr value, Span span, String parameterOf) {

		public Binding(String name, Expr value, Span span) {
			this(name, value, span, null);
		}

		public boolean isParameter() {
			return parameterOf != null;
		}
	}

	public Function function(String functionName) {
		for (Function f : functions) {
			if (f.name().equals(functionName)) {
				return f;
			}
		}
		return null;
	}
}
