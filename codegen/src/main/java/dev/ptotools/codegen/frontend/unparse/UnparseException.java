package dev.ptotools.codegen.frontend.unparse;

/** A construct ast.unparse cannot write, or a literal CPython's parser rejects; the message is CPython's. */
final class UnparseException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	UnparseException(String message) {
		super(message);
	}
}
