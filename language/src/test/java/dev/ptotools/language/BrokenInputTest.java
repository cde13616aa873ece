package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Broken inputs of the kinds an editor sees all day. Each gives its first problem at the expected
 * line and column with a message a Python programmer understands (CPython's words where CPython has
 * them), and never an ANTLR token dump.
 */
class BrokenInputTest {

	static Stream<Arguments> cases() {
		return Stream.of(
				// name, source, line, column, message
				Arguments.of("bad unindent", "def f():\n        x = 1\n    y = 2\n", 3, 5,
						"unindent does not match any outer indentation level"),
				Arguments.of("missing colon", "for x in range(3)\n    print(x)\n", 1, 18, "expected ':'"),
				Arguments.of("missing colon on def", "def f(a)\n    return a\n", 1, 9, "expected ':'"),
				Arguments.of("unclosed paren", "x = foo(1,\n      2\ny = 3\n", 1, 8, "'(' was never closed"),
				Arguments.of("unclosed string", "x = \"abc\ny = 2\n", 1, 5,
						"unterminated string literal (detected at line 1)"),
				Arguments.of("unclosed triple-quoted string", "x = \"\"\"abc\ny = 2\n", 1, 5,
						"unterminated triple-quoted string literal (detected at line 3)"),
				Arguments.of("stray dedent", "if x:\n    a = 1\n  b = 2\n", 3, 3,
						"unindent does not match any outer indentation level"),
				Arguments.of("tab/space mix", "if x:\n        a = 1\n\tb = 2\n", 3, 2,
						"inconsistent use of tabs and spaces in indentation"),
				Arguments.of("half-typed rank loop", "import pypto.language as pl\ndef f():\n    for r in pl.range(\n",
						3, 22, "'(' was never closed"),
				Arguments.of("half-typed dispatch", "self.chip_step(data, device=\n", 1, 15,
						"'(' was never closed"),
				Arguments.of("lone decorator at end of file", "x = 1\n@pl.function\n", 2, 13,
						"expected 'def' or 'class' after a decorator"),
				Arguments.of("unexpected indent", "x = 1\n    y = 2\n", 2, 5, "unexpected indent"),
				Arguments.of("indented first line", "  x = 1\n", 1, 3, "unexpected indent"),
				Arguments.of("missing block", "for x in y:\nprint(x)\n", 2, 1,
						"expected an indented block after 'for' statement on line 1"),
				Arguments.of("missing block at end of file", "def f():\n", 2, 1,
						"expected an indented block after function definition on line 1"),
				Arguments.of("missing class body", "class A:\n\nx = 1\n", 3, 1,
						"expected an indented block after class definition on line 1"),
				Arguments.of("unmatched close", "x = (1, 2))\n", 1, 11, "unmatched ')'"),
				Arguments.of("mismatched close", "x = [1, 2)\n", 1, 10,
						"closing parenthesis ')' does not match opening parenthesis '['"),
				Arguments.of("assign to call", "f() = 1\n", 1, 1,
						"cannot assign to function call here. Maybe you meant '==' instead of '='?"),
				Arguments.of("= in condition", "if x = 1:\n    pass\n", 1, 6,
						"invalid syntax. Maybe you meant '==' or ':=' instead of '='?"),
				Arguments.of("missing comma", "x = [1 2]\n", 1, 8, "invalid syntax. Perhaps you forgot a comma?"),
				Arguments.of("missing comma in call", "f(a b)\n", 1, 5, "invalid syntax. Perhaps you forgot a comma?"),
				Arguments.of("invalid character", "x = 1 \u20ac 2\n", 1, 7, "invalid character '\u20ac' (U+20AC)"),
				Arguments.of("dollar", "x = $y\n", 1, 5, "invalid syntax"),
				Arguments.of("keyword argument order", "f(a=1, 2)\n", 1, 8, "positional argument follows keyword argument"),
				Arguments.of("default argument order", "def f(a=1, b):\n    pass\n", 1, 12,
						"non-default argument follows default argument"),
				Arguments.of("bare generator argument", "f(x for x in y, 1)\n", 1, 3,
						"Generator expression must be parenthesized"),
				Arguments.of("incomplete assignment", "x = \n", 1, 5, "invalid syntax: expected an expression"),
				Arguments.of("else without if", "else:\n    pass\n", 1, 1, "invalid syntax: unexpected 'else'"),
				Arguments.of("keyword as a name", "class = 3\n", 1, 7, "invalid syntax: expected a name, found '='"),
				Arguments.of("null byte", "x = 1\0\n", 1, 6, "source code cannot contain null bytes"),
				Arguments.of("try without except", "try:\n    pass\nx = 1\n", 3, 1, "expected 'except' or 'finally' block"),
				Arguments.of("text after line continuation", "x = 1 \\ 2\n", 1, 7,
						"unexpected character after line continuation character"),
				Arguments.of("bad hex literal", "x = 0x\n", 1, 5, "invalid hexadecimal literal"),
				Arguments.of("unclosed bracket before a def", "def f():\n    x = [1, 2\n\ndef g():\n    return 1\n", 2, 9,
						"'[' was never closed"),
				Arguments.of("delete a call", "del f()\n", 1, 5, "cannot delete function call"),
				Arguments.of("augmented assignment to literal", "1 += x\n", 1, 1,
						"'literal' is an illegal expression for augmented assignment"),
				Arguments.of("tuple annotation", "a, b: int\n", 1, 1, "only single target (not tuple) can be annotated"),
				Arguments.of("CRLF positions", "x = 1\r\nif y\r\n    pass\r\n", 2, 5, "expected ':'"),
				Arguments.of("CR-only positions", "x = 1\rif y\r    pass\r", 2, 5, "expected ':'"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void firstProblemIsWhereAndWhatExpected(String name, String source, int line, int column, String message) {
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertTrue(parsed.hasProblems(), name + " must report a problem");
		SyntaxProblem first = parsed.problems().get(0);
		assertEquals(message, first.message(), name);
		assertEquals(line, first.line(), name + " line");
		assertEquals(column, first.column(), name + " column");
		for (SyntaxProblem p : parsed.problems()) {
			assertReadable(p.message());
		}
	}

	/** CPython stops at the first error of a line: `x = 1)))` is one unmatched ')', not three. */
	@org.junit.jupiter.api.Test
	void oneProblemPerLine() {
		ParsedFile parsed = PythonFrontEnd.get().parse("x = 1)))\ny = f(a))\nz = ]\n");
		assertEquals(java.util.List.of("1:6: unmatched ')'", "2:9: unmatched ')'", "3:5: unmatched ']'"),
				parsed.problems().stream().map(SyntaxProblem::toString).toList());
	}

	/**
	 * A NUL byte: CPython refuses the file with that one error, whatever else it holds; a binary file with
	 * a pypto import gave hundreds of parser errors.
	 */
	@org.junit.jupiter.api.Test
	void aNulByteIsTheOnlyProblem() {
		StringBuilder binary = new StringBuilder("import pypto.language as pl\n");
		java.util.Random random = new java.util.Random(7);
		for (int i = 0; i < 20_000; i++) {
			binary.append((char) random.nextInt(256));
		}
		ParsedFile parsed = PythonFrontEnd.get().parse(binary.toString());
		assertEquals(1, parsed.problems().size(), parsed.problems().toString());
		SyntaxProblem p = parsed.problems().get(0);
		assertEquals("source code cannot contain null bytes", p.message());
		assertEquals(binary.indexOf("\0"), p.offset());
	}

	/** The NUL byte wins wherever it is: in a comment, in a string, or after another error on its line. */
	@ParameterizedTest
	@org.junit.jupiter.params.provider.ValueSource(strings = { "x = 1 # a\0b\n", "s = 'a\0b'\n", "x = 1)) \0\n" })
	void aNulByteAnywhereIsTheOnlyProblem(String source) {
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertEquals(java.util.List.of("1:" + (source.indexOf('\0') + 1) + ": source code cannot contain null bytes"),
				parsed.problems().stream().map(SyntaxProblem::toString).toList());
	}

	static void assertReadable(String message) {
		for (String antlr : new String[] { "RULE_", "mismatched", "expecting", "<EOF>", "viable", "synthetic:" }) {
			assertFalse(message.contains(antlr), "raw parser text in: " + message);
		}
	}
}
