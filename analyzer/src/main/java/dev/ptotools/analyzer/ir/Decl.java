package dev.ptotools.analyzer.ir;

/**
 * What a decorator declared about a function, before derivation: each value with the span it was
 * written at (null span when not written). Invalid values keep their text in {@code problems};
 * {@code keywords} are every keyword argument of the decorator call, for the compiler.
 */
public record Decl(FunctionType type, Span typeSpan, Level level, Span levelSpan, Role role, Span roleSpan,
		Span decoratorSpan, String decoratorText, java.util.List<String> problems,
		java.util.Map<String, Expr> keywords) {

	/** A decorator without keywords. */
	public Decl(FunctionType type, Span typeSpan, Level level, Span levelSpan, Role role, Span roleSpan,
			Span decoratorSpan, String decoratorText, java.util.List<String> problems) {
		this(type, typeSpan, level, levelSpan, role, roleSpan, decoratorSpan, decoratorText, problems, java.util.Map.of());
	}

	/** A keyword argument of the decorator call as written (auto_scope=, attrs=...), or null. */
	public Expr keyword(String name) {
		return keywords.get(name);
	}
}
