package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.emf.ecore.EObject;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.python.Statement;

/**
 * The incremental parse of a broken version equals a whole parse where the parser's recovery reaches
 * around the broken statement, and still reuses the statements after it: a half-typed call (a bracket
 * never closed), a stray line in column 0 under a def. IncrementalAnalysisTest compares the same over
 * random edit sequences; these are the shapes that once differed or were parsed whole.
 */
class IncrementalParserTest {

	private static final String MODULE = """
			import os


			def first(a):
			    x = os.path.join(a, "b")
			    return x


			def second(b):
			    for i in range(3):
			        b = first(b)
			    return b


			class Third:
			    def method(self):
			        return second(1)


			RESULT = Third().method()
			""";

	/** What a parse says about a text, to compare two parses of it. */
	private static List<String> shape(ParsedFile f) {
		List<String> out = new ArrayList<>();
		out.add("problems " + f.problems());
		out.add("error nodes " + f.syntaxErrorNodeOffsets());
		for (Statement s : f.ast().getBody()) {
			out.add(s.eClass().getName() + " " + f.spans().of(s));
		}
		for (int at : f.syntaxErrorNodeOffsets()) {
			StringBuilder chain = new StringBuilder("around " + at + ":");
			for (EObject o = f.objectAt(at); o != null; o = o.eContainer()) {
				chain.append(' ').append(o.eClass().getName());
			}
			out.add(chain.toString());
		}
		return out;
	}

	private static void assertSameAsWhole(IncrementalParser parser, String text) {
		assertEquals(shape(PythonFrontEnd.get().parse(text)), shape(parser.parse(text)), text);
	}

	@Test
	void aHalfTypedCallIsCutAtTheNextStatementInColumnZero() {
		IncrementalParser parser = new IncrementalParser(PythonFrontEnd.get());
		parser.parse(MODULE);
		String typed = MODULE.replace("        b = first(b)\n", "        b = first(b)\n        c = first(\n");
		assertNotNull(TopLevelChunks.starts(typed), "the text is cut");
		assertSameAsWhole(parser, typed);
		int[] counts = parser.lastCounts();
		assertEquals(1, counts[2], "built from pieces");
		assertTrue(counts[0] >= 2, "the statements after the broken one are reused: " + counts[0]);
		assertTrue(parser.parse(typed).problems().get(0).message().contains("was never closed"));
	}

	@Test
	void aHalfTypedCallInTheLastStatementKeepsTheStatementsBefore() {
		IncrementalParser parser = new IncrementalParser(PythonFrontEnd.get());
		parser.parse(MODULE);
		String typed = MODULE + "\n\ndef last():\n    y = first(\n    return y\n";
		int[] starts = TopLevelChunks.starts(typed);
		assertNotNull(starts, "the text is cut");
		assertEquals(typed.indexOf("def last"), starts[starts.length - 1], "the bracket is in the last piece");
		assertSameAsWhole(parser, typed);
		assertEquals(1, parser.lastCounts()[2], "built from pieces");
		assertSameAsWhole(parser, MODULE + "\nEND = max(1,\n");
		assertSameAsWhole(parser, MODULE + "\nEND = max(1,\n  2,\n# a comment\n");
	}

	@Test
	void aStrayLineInColumnZeroUnderADefKeepsItsRecovery() {
		IncrementalParser parser = new IncrementalParser(PythonFrontEnd.get());
		parser.parse(MODULE);
		// the parser hangs the stray line's error nodes on the def before it, whose rule is still open
		assertSameAsWhole(parser, MODULE.replace("    return x\n", "``stray\n    return x\n"));
		assertSameAsWhole(parser, MODULE.replace("        return second(1)\n", "        return second(1)\n``\n"));
	}

	@Test
	void aCloserInColumnZeroStillClosesItsBracket() {
		String text = MODULE.replace("RESULT = Third().method()\n", "RESULT = max(\n1,\n2,\n)\nOTHER = 1\n");
		int[] starts = TopLevelChunks.starts(text);
		assertNotNull(starts);
		assertEquals(text.indexOf("OTHER"), starts[starts.length - 1]);
		assertSameAsWhole(new IncrementalParser(PythonFrontEnd.get()), text);
	}
}
