package dev.ptotools.language.parser;

/**
 * A problem found while laying out tokens (indentation, brackets, strings, characters), before the
 * parser sees them. Offsets are in UTF-16 units of the parsed text.
 *
 * @param offset start of the problem
 * @param length length of the marked text, possibly 0
 * @param message what a Python programmer reads, in CPython's words where CPython has words for it
 * @param code stable identifier of the kind of problem, for tests and tooling
 * @param consequencesEnd end of the text whose parser errors are consequences of this problem (an
 *        unclosed bracket makes everything up to where it is closed by recovery one long line)
 * @param consequencesStart start of that text: the problem itself, or for a closer that does not match,
 *        the bracket it meets, whose contents the parser read in the wrong bracket
 */
public record LexicalProblem(int offset, int length, String message, String code, int consequencesEnd,
		int consequencesStart) {

	public LexicalProblem(int offset, int length, String message, String code, int consequencesEnd) {
		this(offset, length, message, code, consequencesEnd, offset);
	}

	public LexicalProblem(int offset, int length, String message, String code) {
		this(offset, length, message, code, offset + length);
	}
}
