package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * A PyPTO program: a {@code @pl.program} class, or the {@code @pl.jit} functions of one scope
 * (function style, where calls name functions bare). {@code bindings} are the names the program's
 * bodies can see besides their own locals, in source order: module-level assignments first, then
 * those of enclosing functions (a program defined inside a test function sees its locals).
 */
public record Program(String name, Style style, List<Function> functions, List<Binding> bindings, Span span,
		Span nameSpan) {

	public enum Style {
		CLASS, JIT
	}

	/** {@code name = value} in a scope around the program. */
	public record Binding(String name, Expr value, Span span) {
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
