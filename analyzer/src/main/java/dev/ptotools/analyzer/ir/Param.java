package dev.ptotools.analyzer.ir;

/**
 * A DSL function parameter; type is null when the parameter has no annotation. {@code annotation} is
 * the annotation as written inside any {@code pl.Out[...]}/{@code pl.InOut[...]} wrapper (null when
 * absent), for the compiler, which resolves layouts and shape expressions itself.
 */
public record Param(String name, TypeSpec type, Direction direction, Span span, Span nameSpan, Expr annotation) {
}
