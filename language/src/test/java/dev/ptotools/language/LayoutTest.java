package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.python.Call;
import dev.ptotools.language.python.ExprStmt;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.MatchStmt;
import dev.ptotools.language.python.Name;

/** Lexing and layout: indentation, line endings, continuation, comments, BOM, tabs, soft keywords. */
class LayoutTest {

	private static ParsedFile clean(String source) {
		ParsedFile parsed = PythonFrontEnd.get().parse(source);
		assertEquals(List.of(), parsed.problems(), source);
		return parsed;
	}

	@Test
	void newlinesInsideBracketsAndContinuations() {
		ParsedFile p = clean("x = f(1,\n\n      2)  # comment\ny = [\n  1,\n]\nz = 1 + \\\n    2\n");
		assertEquals(3, p.ast().getBody().size());
	}

	@Test
	void aNeverClosedBracketBeforeManyBlankLinesEndsWhereItsStatementDoes() {
		// each line break in the bracket asks for the next code line: found once for the whole blank run
		String text = "import os\nx = f(1,\n" + "        \n".repeat(20_000) + "y = 2\n";
		ParsedFile p = PythonFrontEnd.get().parse(text);
		assertEquals("[2:6: '(' was never closed]", p.problems().toString());
		assertEquals(3, p.ast().getBody().size());
	}

	@Test
	void blankAndCommentLinesDoNotEndBlocks() {
		ParsedFile p = clean("def f():\n    x = 1\n\n# a comment at column 0\n        # an indented comment\n    return x\n");
		FunctionDef f = assertInstanceOf(FunctionDef.class, p.ast().getBody().get(0));
		assertEquals(2, f.getBody().getBody().size());
	}

	@Test
	void crlfAndCrAndMixedLineEndings() {
		clean("def f():\r\n    return 1\r\n");
		clean("def f():\r    return 1\r");
		ParsedFile p = clean("a = 1\ndef f():\r\n    x = 1\r    return x\n");
		assertEquals(2, p.ast().getBody().size());
		assertEquals(4, p.lines().line(p.text().indexOf("return")));
	}

	@Test
	void byteOrderMarkIsDropped() {
		byte[] bom = { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF };
		byte[] body = "x = 1\n".getBytes(StandardCharsets.UTF_8);
		byte[] all = new byte[bom.length + body.length];
		System.arraycopy(bom, 0, all, 0, 3);
		System.arraycopy(body, 0, all, 3, body.length);
		ParsedFile p = PythonFrontEnd.get().parse(all);
		assertEquals(List.of(), p.problems());
		assertEquals("x = 1\n", p.text());
		clean("\uFEFFx = 1\n"); // a BOM that reached the text (from an editor) is whitespace
	}

	@Test
	void onlyABom() {
		ParsedFile p = PythonFrontEnd.get().parse(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF });
		assertEquals(List.of(), p.problems());
		assertEquals(0, p.ast().getBody().size());
	}

	@Test
	void tabsFollowPythonRules() {
		clean("if x:\n\ty = 1\n\tif y:\n\t\tz = 2\n");
		clean("if x:\n        y = 1\n        z = 2\n"); // eight spaces
		ParsedFile mixed = PythonFrontEnd.get().parse("if x:\n    \ty = 1\n\t    z = 2\n");
		// "    \t" and "\t    " are both column 8 with tab size 8 but differ with tab size 1.
		assertEquals("inconsistent use of tabs and spaces in indentation", mixed.problems().get(0).message());
	}

	@Test
	void formFeedResetsIndentation() {
		clean("x = 1\n\f\ny = 2\n\fz = 3\n");
	}

	@Test
	void emptyAndWhitespaceOnlyFiles() {
		clean("");
		clean("\n\n   \n\t\n");
		clean("# only a comment");
		clean("x = 1"); // no final newline
		clean("def f():\n    return 1"); // no final newline inside a block
	}

	@Test
	void softKeywordsAreNamesOutsideMatch() {
		ParsedFile p = clean("match = 1\ncase = match\nmatch(x)\nmatch[1]\nx = match.case\nfor match in case: pass\n");
		assertEquals(6, p.ast().getBody().size());
		assertInstanceOf(ExprStmt.class, p.ast().getBody().get(2));
		assertInstanceOf(ForStmt.class, p.ast().getBody().get(5));
	}

	@Test
	void matchStatementWithSoftKeywordSubjects() {
		ParsedFile p = clean("match (x):\n    case case:\n        match = case\nmatch match:\n    case _:\n        pass\n");
		assertInstanceOf(MatchStmt.class, p.ast().getBody().get(0));
		assertInstanceOf(MatchStmt.class, p.ast().getBody().get(1));
	}

	@Test
	void unicodeIdentifiersAndStrings() {
		ParsedFile p = clean("π = 3.14\nnaïve_名前 = \"字符串 😀\"\nprint(π, naïve_名前)\n");
		boolean found = false;
		for (TreeIterator<EObject> it = p.ast().eAllContents(); it.hasNext();) {
			EObject o = it.next();
			if (o instanceof Name n && n.getId().equals("naïve_名前")) {
				found = true;
			}
		}
		assertTrue(found);
		Call call = (Call) ((ExprStmt) p.ast().getBody().get(2)).getValue();
		assertEquals("print(π, naïve_名前)", p.text(Spans.of(call)));
	}

	@Test
	void invalidUtf8IsReportedNotFatal() {
		byte[] bytes = "x = 1\ny = '\u00ff'\n".getBytes(StandardCharsets.ISO_8859_1);
		ParsedFile p = PythonFrontEnd.get().parse(bytes);
		assertTrue(p.problems().get(0).message().startsWith("Non-UTF-8 code starting with '\\xff' on line 2"),
				p.problems().toString());
		assertEquals(2, p.ast().getBody().size());
	}

	@Test
	void codingDeclarationIsHonoured() {
		byte[] bytes = "# -*- coding: latin-1 -*-\ns = '\u00e9'\n".getBytes(StandardCharsets.ISO_8859_1);
		ParsedFile p = PythonFrontEnd.get().parse(bytes);
		assertEquals(List.of(), p.problems());
		assertTrue(p.text().contains("\u00e9"));
	}
}
