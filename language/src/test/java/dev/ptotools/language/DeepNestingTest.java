package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Deep nesting parses or gives a syntax error; it never overflows the stack or throws. */
class DeepNestingTest {

	@Test
	void thousandDeepParentheses() {
		String source = "x = " + "(".repeat(1000) + "1" + ")".repeat(1000) + "\n";
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertEquals(0, parsed.problems().size(), parsed.problems().toString());
	}

	@Test
	void thousandDeepUnclosedParentheses() {
		ParsedFile parsed = PythonFrontEnd.get().parse("x = " + "(".repeat(1000) + "1\n");
		assertTrue(parsed.hasProblems());
		assertEquals("'(' was never closed", parsed.problems().get(0).message());
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
	void fiveThousandDeepMixedBrackets() {
		String open = "([{".repeat(1700);
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
