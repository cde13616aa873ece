package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Deep nesting parses or gives a syntax error; it never overflows the stack or throws. */
class DeepNestingTest {

	@Test
	void twoHundredDeepParenthesesParse() {
		String source = "x = " + "(".repeat(200) + "1" + ")".repeat(200) + "\n";
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertEquals(0, parsed.problems().size(), parsed.problems().toString());
	}

	/** CPython 3.11's tokenizer stops at the 201st open bracket: one error, at it (column 205 here). */
	@ParameterizedTest
	@ValueSource(ints = { 201, 1000, 100_000 })
	void deeperIsCPythonsOneError(int depth) {
		for (String source : List.of("x = " + "(".repeat(depth) + "1" + ")".repeat(depth) + "\n",
				"x = " + "(".repeat(depth) + "1\n", "x = " + "f(".repeat(depth) + "1" + ")".repeat(depth) + "\n")) {
			ParsedFile parsed = PythonFrontEnd.get().parse(source);
			assertEquals(1, parsed.problems().size(), parsed.problems().toString());
			SyntaxProblem p = parsed.problems().get(0);
			assertEquals("too many nested parentheses", p.message());
			assertEquals(source.indexOf("(", 4 + (source.startsWith("x = f") ? 400 : 200)), p.offset());
		}
	}

	@Test
	void bracketsInStringsAndCommentsDoNotCount() {
		String deep = "(".repeat(300);
		String source = "x = '" + deep + "'  # " + deep + "\ny = \"\"\"" + deep + "\n" + deep + "\"\"\"\n";
		assertEquals(List.of(), PythonFrontEnd.get().parse(source).problems());
	}

	@Test
	void hundredDeepBlocks() {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < 100; i++) {
			b.append("    ".repeat(i)).append("if x").append(i).append(":\n");
		}
		b.append("    ".repeat(100)).append("pass\n");
		ParsedFile parsed = PythonFrontEnd.get().parse(b.toString());
		assertEquals(0, parsed.problems().size(), parsed.problems().toString());
	}

	@Test
	void twoHundredDeepMixedBrackets() {
		String open = "([{".repeat(66) + "(";
		StringBuilder close = new StringBuilder();
		for (int i = open.length() - 1; i >= 0; i--) {
			char c = open.charAt(i);
			close.append(c == '(' ? ')' : c == '[' ? ']' : '}');
		}
		ParsedFile parsed = PythonFrontEnd.get().parse("x = " + open + "1" + close + "\n");
		// Sets cannot hold lists, but that is for the interpreter: syntactically it is fine.
		assertEquals(0, parsed.problems().size(), parsed.problems().toString());
	}

	@Test
	void longChainOfOperators() {
		ParsedFile parsed = PythonFrontEnd.get().parse("x = " + "1 + ".repeat(20_000) + "1\n");
		assertEquals(0, parsed.problems().size());
	}
}
