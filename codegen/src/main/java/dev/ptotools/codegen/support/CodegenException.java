package dev.ptotools.codegen.support;

import dev.ptotools.analyzer.ir.Span;

/**
 * A construct a generator cannot translate, or one pypto rejects at codegen time; carries the source
 * span so the compiler can report it at the line that caused it. Generation of the program stops.
 */
public final class CodegenException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient Span span;

	public CodegenException(String message, Span span) {
		super(message);
		this.span = span == null ? Span.NONE : span;
	}

	public Span span() {
		return span;
	}
}
