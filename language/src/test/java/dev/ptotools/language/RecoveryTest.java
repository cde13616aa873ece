package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.FunctionDef;

/** An error inside one function leaves the other functions and classes of the file in the AST. */
class RecoveryTest {

	private static List<String> definitions(ParsedFile parsed) {
		List<String> names = new ArrayList<>();
		for (TreeIterator<EObject> it = parsed.ast().eAllContents(); it.hasNext();) {
			EObject o = it.next();
			if (o instanceof FunctionDef f && f.getName() != null) {
				names.add("def " + f.getName());
			} else if (o instanceof ClassDef c && c.getName() != null) {
				names.add("class " + c.getName());
			}
		}
		return names;
	}

	private static void assertKeeps(String source, String... expected) {
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertTrue(parsed.hasProblems(), "the input is broken");
		List<String> names = definitions(parsed);
		for (String e : expected) {
			assertTrue(names.contains(e), e + " is lost; AST has " + names + "; problems " + parsed.problems());
		}
	}

	@Test
	void badExpressionInOneFunction() {
		assertKeeps("""
				def first():
				    return 1

				def broken():
				    x = (1 +
				    return x ]

				class After:
				    def method(self):
				        return 2

				def last():
				    pass
				""", "def first", "class After", "def method", "def last");
	}

	@Test
	void unclosedCallInOneFunction() {
		assertKeeps("""
				import pypto.language as pl

				@pl.program
				class P:
				    def host(self):
				        for r in pl.range(pld.world_size(:
				            self.chip(x, device=r

				    def chip(self, x):
				        return x

				def helper():
				    return 0
				""", "class P", "def host", "def chip", "def helper");
	}

	@Test
	void missingColonAndBadIndent() {
		assertKeeps("""
				def a()
				    return 1

				def b():
				        x = 1
				    y = 2

				class C:
				    pass
				""", "def a", "def b", "class C");
	}

	@Test
	void halfTypedStatementInMethod() {
		assertKeeps("""
				class K:
				    def one(self):
				        self.
				    def two(self):
				        return 2
				""", "class K", "def one", "def two");
	}

	@Test
	void garbageLine() {
		ParsedFile parsed = PythonFrontEnd.get().parse("def f():\n    return 1\n$$$ ??? !!!\ndef g():\n    return 2\n");
		assertEquals(List.of("def f", "def g"), definitions(parsed));
	}

	/** The kinds of the statements of the first function's body, one line each, and the problems. */
	private static String body(String source) {
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		StringBuilder b = new StringBuilder();
		for (TreeIterator<EObject> it = parsed.ast().eAllContents(); it.hasNext();) {
			if (it.next() instanceof FunctionDef f) {
				for (dev.ptotools.language.python.Statement st : f.getBody().getBody()) {
					b.append(st.eClass().getName()).append('\n');
				}
				break;
			}
		}
		parsed.problems().forEach(p -> b.append(p).append('\n'));
		return b.toString();
	}

	@Test
	void aCallLeftOpenEndsWithItsStatement() {
		// typing dtype=pl. with the call still open: the lines after it stay statements of their own
		assertEquals("""
				Assign
				ExprStmt
				ForStmt
				Return
				2:22: '(' was never closed
				""", body("""
				def host(self):
				    data = pld.window(buf, dtype=pl.
				    self.chip_step(data, device=0)
				    for r in pl.range(4):
				        self.chip_step(data, device=r)
				    return 0
				"""));
	}

	@Test
	void aLoopHeaderLeftOpenKeepsItsBody() {
		assertEquals("""
				Assign
				ForStmt
				Return
				3:22: '(' was never closed
				""", body("""
				def host(self):
				    n = 4
				    for r in pl.range(
				        self.chip_step(data, device=r)
				    return 0
				"""));
	}

	@Test
	void aHalfTypedAttributeDoesNotTakeTheNextLine() {
		// ANTLR would delete the line break as an unwanted token and read x = pl.y = 2
		assertEquals("""
				Assign
				Assign
				Return
				2:12: invalid syntax: expected a name, found end of line
				""", body("""
				def f():
				    x = pl.
				    y = 2
				    return y
				"""));
	}

	/** The problems of a source, one per line, and whether its first function still ends with its return. */
	private static String problemsAndReturn(String source) {
		String body = body(source);
		return body.substring(body.indexOf('\n', body.lastIndexOf("Return")) + 1) + (body.contains("Return") ? "return kept"
				: "return lost");
	}

	@Test
	void theLinesLeftOfACallWhoseFirstLineWasCutAreNoMoreErrors() {
		// the lines under the cut line, indented, and the lone ')' that ends them: CPython names one error
		// (the ')', found by its tokenizer); we name the line that broke, where the author is typing
		assertEquals("2:16: invalid syntax: expected a name, found end of line\nreturn kept", problemsAndReturn("""
				def f():
				    recv = pld.
				        scratch,
				        peer=left,
				    )
				    acc = 1
				    return acc
				"""));
	}

	@Test
	void aBracketLeftOpenInsideACallOverSeveralLinesIsOneError() {
		assertEquals("6:5: closing parenthesis ')' does not match opening parenthesis '[' on line 4\nreturn kept",
				problemsAndReturn("""
						def f():
						    pld.system.notify(
						        signal,
						        offsets=[
						        value=1,
						    )
						    return 0
						"""));
	}

	@Test
	void aKeywordLeftEmptyInsideACallOverSeveralLinesIsOneError() {
		// the parser's first error; the ones after it in the same logical line are its cascade
		assertEquals("5:14: invalid syntax: expected ')', found '='\nreturn kept", problemsAndReturn("""
				def f():
				    pld.system.notify(
				        signal,
				        peer=
				        value=1,
				    )
				    return 0
				"""));
	}
}
