package dev.ptotools.analyzer.ir;

/** A DSL function parameter; type is null when the parameter has no annotation. */
public record Param(String name, TypeSpec type, Direction direction, Span span, Span nameSpan) {
}
