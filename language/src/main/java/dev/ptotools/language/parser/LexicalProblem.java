package dev.ptotools.language.parser;

/**
 * A problem found while laying out tokens (indentation, brackets, strings, characters), before the
 * parser sees them. Offsets are in UTF-16 units of the parsed text.
 *
 * @param offset start of the problem
 * @param length length of the marked text, possibly 0
 * @param message what a Python programmer reads, in CPython's words where CPython has words for it
 * @param code stable identifier of the kind of problem, for tests and tooling
 */
public record LexicalProblem(int offset, int length, String message, String code) {
}
