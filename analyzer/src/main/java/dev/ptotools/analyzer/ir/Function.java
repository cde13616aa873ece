package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * A DSL function: a {@code @pl.function} method of a program class, a {@code @pl.jit...} function,
 * or a module-level {@code @pl.function}. {@code index} is its position in the program, which pypto
 * uses (a callee defined later is not yet known when a caller is parsed).
 */
public record Function(String name, Decl decl, List<Param> params, Expr returnAnnotation, List<Stmt> body,
		int index, Span span, Span nameSpan, Span headerSpan) {

	public Param param(String paramName) {
		for (Param p : params) {
			if (p.name().equals(paramName)) {
				return p;
			}
		}
		return null;
	}
}
