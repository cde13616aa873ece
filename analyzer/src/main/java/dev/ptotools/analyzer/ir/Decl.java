package dev.ptotools.analyzer.ir;

/**
 * What a decorator declared about a function, before derivation: each value with the span it was
 * written at (null span when not written). Invalid values keep their text in {@code problems}.
 */
public record Decl(FunctionType type, Span typeSpan, Level level, Span levelSpan, Role role, Span roleSpan,
		Span decoratorSpan, String decoratorText, java.util.List<String> problems) {
}
