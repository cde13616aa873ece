package dev.ptotools.codegen.frontend;

/**
 * A type error of pypto's C++ IR constructors and type deducers (a TypeError/ValueError there). pypto's
 * front end does not locate these: it reports "Failed to parse function '<f>': <message>" at the
 * function's def line, and so does ours.
 */
final class IrTypeError extends RuntimeException {

	private static final long serialVersionUID = 1L;

	IrTypeError(String message) {
		super(message);
	}
}
