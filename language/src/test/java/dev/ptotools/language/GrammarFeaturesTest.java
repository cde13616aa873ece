package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.BinOp;
import dev.ptotools.language.python.Compare;
import dev.ptotools.language.python.ExprStmt;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.IfExp;
import dev.ptotools.language.python.Num;
import dev.ptotools.language.python.Str;
import dev.ptotools.language.python.UnaryOp;

/** The whole of Python 3.11 parses, and expressions get CPython's precedence. */
class GrammarFeaturesTest {

	@Test
	void everyConstructOfPython311Parses() throws Exception {
		ParsedFile parsed = PythonFrontEnd.get().parse(Path.of("src/test/resources/python/py311_features.py"));
		assertEquals(List.of(), parsed.problems());
		Map<String, Integer> kinds = new HashMap<>();
		for (TreeIterator<EObject> it = parsed.ast().eAllContents(); it.hasNext();) {
			kinds.merge(it.next().eClass().getName(), 1, Integer::sum);
		}
		for (String kind : new String[] { "MatchStmt", "MatchCase", "MatchClass", "MatchMapping", "MatchOr", "MatchAs",
				"MatchStar", "MatchSequence", "MatchValue", "MatchSingleton", "MatchKeyword", "TryStmt", "ExceptHandler",
				"WithStmt", "WithItem", "Lambda", "NamedExpr", "ListComp", "SetComp", "DictComp", "GeneratorExp",
				"Starred", "DoubleStarred", "Slice", "Compare", "Await", "Yield", "YieldFrom", "Global", "Nonlocal",
				"ImportFrom", "Import", "AnnAssign", "AugAssign", "Assign", "Delete", "Assert", "Raise", "Ellipsis",
				"IfExp", "BoolOp", "UnaryOp", "BinOp", "KeywordArg", "VarArgs", "KwArgs", "PositionalOnlyMarker",
				"DecoratorList", "ClassDef", "FunctionDef", "WhileStmt", "ForStmt", "IfStmt", "ElifClause" }) {
			assertTrue(kinds.containsKey(kind), kind + " missing from the AST of the feature file");
		}
	}

	private static EObject expr(String source) {
		ParsedFile p = PythonFrontEnd.get().parse(source + "\n");
		assertEquals(List.of(), p.problems(), source);
		return ((ExprStmt) p.ast().getBody().get(0)).getValue();
	}

	@Test
	void precedenceMatchesCPython() {
		BinOp sum = assertInstanceOf(BinOp.class, expr("1 + 2 * 3"));
		assertEquals("+", sum.getOp());
		assertInstanceOf(BinOp.class, sum.getRight());
		UnaryOp neg = assertInstanceOf(UnaryOp.class, expr("-x ** 2"));
		assertInstanceOf(BinOp.class, neg.getOperand());
		BinOp pow = assertInstanceOf(BinOp.class, expr("2 ** -1"));
		assertInstanceOf(UnaryOp.class, pow.getRight());
		Compare chain = assertInstanceOf(Compare.class, expr("a < b <= c"));
		assertEquals(2, chain.getOps().size());
		Compare notIn = assertInstanceOf(Compare.class, expr("a not in b"));
		assertEquals("not in", notIn.getOps().get(0).replaceAll("\\s+", " "));
		assertInstanceOf(IfExp.class, expr("a if b else c"));
		BinOp left = assertInstanceOf(BinOp.class, expr("a - b - c"));
		assertInstanceOf(BinOp.class, left.getLeft());
	}

	@Test
	void literalsKeepTheirSourceText() {
		assertEquals("0x_FF", ((Num) expr("0x_FF")).getValue());
		assertEquals(List.of("rb'a'", "B\"b\""), ((Str) expr("rb'a' B\"b\"")).getParts());
	}

	@Test
	void chainedAssignmentKeepsAllTargets() {
		ParsedFile p = PythonFrontEnd.get().parse("a = b = c = 0\n");
		Assign a = assertInstanceOf(Assign.class, p.ast().getBody().get(0));
		assertEquals(4, a.getTargets().size()); // three targets, then the value
	}

	@Test
	void asyncDefinitions() {
		ParsedFile p = PythonFrontEnd.get().parse("async def f():\n    await g()\n");
		FunctionDef f = assertInstanceOf(FunctionDef.class, p.ast().getBody().get(0));
		assertTrue(f.isAsync());
	}
}
