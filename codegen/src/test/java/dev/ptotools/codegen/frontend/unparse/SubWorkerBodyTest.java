package dev.ptotools.codegen.frontend.unparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.gson.Gson;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.Python;

/**
 * A HOST SubWorker's body is what pypto's decorator captures: each statement through CPython 3.11's
 * ast.unparse, joined by newlines. The expected texts are what CPython 3.11 writes for our snippets; when
 * the machine's python3 is a 3.11, the snippets and the function bodies of a sample of its standard library
 * are also checked against it directly.
 */
class SubWorkerBodyTest {

	@TempDir
	Path tmp;

	private static String def(String statements) {
		return "def f():\n" + String.join("\n", statements.lines().map(l -> "    " + l).toList()) + "\n";
	}

	/** The body of {@code def f():} with the given (unindented) statements, as pypto captures it. */
	static String body(String statements) {
		String text = def(statements);
		return SubWorkerBody.of(text, new Span(0, text.length()), "f");
	}

	static Stream<Arguments> snippets() {
		return Stream.of(
				Arguments.of("print(\"positive\")",
						"print('positive')"),
				Arguments.of("return a, b",
						"return (a, b)"),
				Arguments.of("x = yield a, b",
						"x = (yield (a, b))"),
				Arguments.of("f(a=1, *b)",
						"f(*b, a=1)"),
				Arguments.of("f(x for x in y)",
						"f((x for x in y))"),
				Arguments.of("a or b or (c and d)",
						"a or b or (c and d)"),
				Arguments.of("a ** -b",
						"a ** (-b)"),
				Arguments.of("-(-1)",
						"--1"),
				Arguments.of("1 .real",
						"1 .real"),
				Arguments.of("x[a,]",
						"x[a,]"),
				Arguments.of("x[(a, b)]",
						"x[a, b]"),
				Arguments.of("x[*ts]",
						"x[*ts,]"),
				Arguments.of("del (a, b)",
						"del (a, b)"),
				Arguments.of("del a, b",
						"del a, b"),
				Arguments.of("(x): int = 1",
						"(x): int = 1"),
				Arguments.of("for (a, b) in c: pass",
						"for a, b in c:\n    pass"),
				Arguments.of("if a:\n    pass\nelse:\n    if b:\n        pass",
						"if a:\n    pass\nelif b:\n    pass"),
				Arguments.of("lambda x, *y, z=1, **k: 0",
						"lambda x, *y, z=1, **k: 0"),
				Arguments.of("def g(a, /, b=2, *, c):\n    '''doc'''\n    return a",
						"def g(a, /, b=2, *, c):\n    \"\"\"doc\"\"\"\n    return a"),
				Arguments.of("y = 1e-5, 1e16, 1e15, 0x10, 1_000, 2.5e-7j, 1e400",
						"y = (1e-05, 1e+16, 1000000000000000.0, 16, 1000, 2.5e-07j, 1e309)"),
				Arguments.of("s = 'it''s', \"q\\\"\", b'a\\x00\"', u'u', '\\u00a0\\t'",
						"s = ('its', 'q\"', b'a\\x00\"', u'u', '\\xa0\\t')"),
				Arguments.of("t = f'{x!r:>{w}} {y=} {{}}', f'{x}\\n', f'{\"a\"}', f'{a if b else c}'",
						"t = (f'{x!r:>{w}} y={y!r} {{}}', f'{x}\\n', f\"{'a'}\", f'{(a if b else c)}')"),
				Arguments.of("match p:\n    case [1, *rest] | (2 as two):\n        pass\n    case Point(x=0, y=_) if ok:\n        pass\n    case {'k': v, **kw}:\n        pass",
						"match p:\n    case [1, *rest] | (2 as two):\n        pass\n    case Point(x=0, y=_) if ok:\n        pass\n    case {'k': v, **kw}:\n        pass"),
				Arguments.of("try:\n    pass\nexcept* E as e:\n    raise X from e\nfinally:\n    pass",
						"try:\n    pass\nexcept* E as e:\n    raise X from e\nfinally:\n    pass"),
				Arguments.of("with a as b, c:\n    x = [i async for i in g()]",
						"with a as b, c:\n    x = [i async for i in g()]"),
				Arguments.of("global \u00b5",
						"global \u03bc"),
				Arguments.of("class C(B, metaclass=M):\n    x = {**a, 'b': {1, 2}}",
						"class C(B, metaclass=M):\n    x = {**a, 'b': {1, 2}}"));
	}

	@ParameterizedTest
	@MethodSource("snippets")
	void eachStatementIsWrittenAsAstUnparseWritesIt(String source, String expected) {
		assertEquals(expected, body(source));
	}

	@Test
	void anIndentedMethodIsReadWithItsOwnIndentation() {
		String text = "class P:\n    @deco\n    def w(x):\n        '''d'''\n        if x:\n            return {'a': x}\n";
		assertEquals("'d'\nif x:\n    return {'a': x}", SubWorkerBody.of(text, new Span(10, text.length()), "w"));
	}

	@Test
	void aBackslashInAnFStringExpressionIsCPythonsError() {
		CodegenException e = assertThrows(CodegenException.class, () -> body("x = f'{a[\"\\n\"]}'"));
		assertTrue(e.getMessage().contains("f-string expression part cannot include a backslash"), e.getMessage());
	}

	/** Our snippets, and every function body of a sample of the standard library, against python3's ast.unparse. */
	@Test
	void matchesTheMachinesCPython311() throws Exception {
		assumeTrue(Python.available(), "python3 is not on PATH");
		Python.Run version = Python.run(tmp, Map.of(), "-c", "import sys; print(sys.version_info[:2] == (3, 11))");
		assumeTrue(version.exit() == 0 && version.out().strip().equals("True"), "python3 is not a 3.11");
		Path dir = Files.createDirectories(tmp.resolve("src"));
		List<Arguments> cases = snippets().toList();
		for (int i = 0; i < cases.size(); i++) {
			Files.writeString(dir.resolve("s" + i + ".py"), def((String) cases.get(i).get()[0]));
		}
		Path script = Files.writeString(tmp.resolve("cases.py"), """
				import ast, glob, json, os, sys, sysconfig
				files = sorted(glob.glob(os.path.join(sys.argv[1], "*.py")))
				files += sorted(glob.glob(os.path.join(sysconfig.get_paths()["stdlib"], "*.py")))[::12]
				for fn in files:
				    src = open(fn, encoding="utf-8", newline="").read()
				    try:
				        tree = ast.parse(src)
				    except SyntaxError:
				        continue
				    lines = src.splitlines(keepends=True)
				    def off(line, col):
				        pre = "".join(lines[:line - 1]) + lines[line - 1].encode("utf-8")[:col].decode("utf-8")
				        return len(pre.encode("utf-16-le")) // 2
				    for node in ast.walk(tree):
				        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
				            body = "\\n".join(ast.unparse(s) for s in node.body)
				            print(json.dumps([fn, off(node.lineno, node.col_offset), off(node.end_lineno, node.end_col_offset),
				                              node.name, body]))
				""");
		Python.Run run = Python.run(tmp, Map.of(), script.toString(), dir.toString());
		assertEquals(0, run.exit(), run.err());
		int checked = 0;
		List<String> wrong = new ArrayList<>();
		for (String line : run.out().split("\n")) {
			if (line.isBlank()) {
				continue;
			}
			Object[] c = new Gson().fromJson(line, Object[].class);
			String text = Files.readString(Path.of((String) c[0]), StandardCharsets.UTF_8);
			String got;
			try {
				got = SubWorkerBody.of(text, new Span(((Number) c[1]).intValue(), ((Number) c[2]).intValue()), (String) c[3]);
			} catch (CodegenException e) {
				got = "error: " + e.getMessage();
			}
			checked++;
			if (!got.equals(c[4]) && wrong.size() < 5) {
				wrong.add(c[0] + " " + c[3] + ":\n" + c[4] + "\n---\n" + got);
			}
		}
		assertTrue(checked > cases.size(), run.out());
		assertEquals(List.of(), wrong);
	}
}
