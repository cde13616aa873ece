package dev.ptotools.codegen.support;

import dev.ptotools.analyzer.ir.Span;

/**
 * A program pypto rejects (its front end, a pass or its codegen raises), or a construct this compiler
 * cannot reproduce yet ({@link #unsupported}); carries the source span so the compiler can report it at
 * the line that caused it. Generation of the program stops.
 */
public final class CodegenException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient Span span;
	private final boolean unsupported;

	/** pypto rejects the program here, with this message. */
	public CodegenException(String message, Span span) {
		this(message, span, false);
	}

	private CodegenException(String message, Span span, boolean unsupported) {
		super(message);
		this.span = span == null ? Span.NONE : span;
		this.unsupported = unsupported;
	}

	/** The program is valid pypto, but this compiler does not reproduce what pypto writes for it. */
	public static CodegenException unsupported(String message, Span span) {
		return new CodegenException(message, span, true);
	}

	public Span span() {
		return span;
	}

	/** Whether the limit is this compiler's rather than a rejection by pypto. */
	public boolean isUnsupported() {
		return unsupported;
	}
}
