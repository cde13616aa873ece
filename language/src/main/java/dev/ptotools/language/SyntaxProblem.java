package dev.ptotools.language;

/**
 * A syntax problem of a source file, positioned for people and for editors.
 *
 * @param offset start, in UTF-16 units of the text
 * @param length length of the marked text (0 for a point, such as end of file)
 * @param line 1-based line of the start
 * @param column 1-based column of the start (UTF-16 units)
 * @param endLine 1-based line of the end
 * @param endColumn 1-based column just past the end
 * @param message the message, in CPython's words where it has them
 * @param code stable kind of problem ({@code syntax} for parser errors)
 */
public record SyntaxProblem(int offset, int length, int line, int column, int endLine, int endColumn, String message,
		String code) {

	@Override
	public String toString() {
		return line + ":" + column + ": " + message;
	}
}
