package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.language.python.Call;
import dev.ptotools.language.support.Examples;
import dev.ptotools.language.support.Python3;

/**
 * Positions round-trip: for every call of a file, the text at the span we record is exactly the
 * text CPython's ast gives the same call (ast.get_source_segment), compared call by call. Calls inside
 * f-string replacement fields are not nodes of our AST (an f-string is one literal), so CPython's
 * calls under a JoinedStr are left out of the comparison.
 */
class CallSpansTest {

	/** Prints, per call in source order, the source segment CPython records, one JSON string per line. */
	private static final String CPYTHON_CALLS = String.join("\n", "import ast, sys, json",
			"src = open(sys.argv[1], 'rb').read().decode('utf-8-sig')",
			"tree = ast.parse(src)",
			"inside = {id(c) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for c in ast.walk(j)}",
			"calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and id(n) not in inside]",
			"calls.sort(key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset))",
			"for n in calls:",
			"    print(json.dumps(ast.get_source_segment(src, n)))");

	static Stream<Path> files() throws Exception {
		List<Path> files = new ArrayList<>(Examples.files());
		files.add(Path.of("src/test/resources/python/py311_features.py"));
		Python3.stdlib().ifPresent(std -> {
			for (String name : new String[] { "argparse.py", "ast.py", "dataclasses.py", "typing.py", "json/decoder.py",
					"asyncio/tasks.py", "re/_parser.py" }) {
				files.add(std.resolve(name));
			}
		});
		return files.stream();
	}

	@ParameterizedTest
	@MethodSource("files")
	void everyCallSpanIsTheCallsText(Path file) throws Exception {
		ParsedFile parsed = PythonFrontEnd.get().parse(file);
		assertEquals(List.of(), parsed.problems(), "a file of the round-trip set must parse cleanly");
		List<int[]> spans = new ArrayList<>();
		for (TreeIterator<EObject> it = parsed.ast().eAllContents(); it.hasNext();) {
			if (it.next() instanceof Call call) {
				Spans.Span s = Spans.of(call);
				spans.add(new int[] { s.offset(), s.end() });
			}
		}
		spans.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
		List<String> ours = spans.stream().map(s -> parsed.text().substring(s[0], s[1])).toList();
		assertTrue(!ours.isEmpty() || file.toString().contains("no_calls"));
		Assumptions.assumeTrue(Python3.available(), "python3 is not on PATH: CPython comparison skipped");
		List<String> theirs = Python3.run(CPYTHON_CALLS, file.toString()).lines()
				.map(l -> new com.google.gson.Gson().fromJson(l, String.class)).toList();
		assertEquals(theirs.size(), ours.size(), "number of calls");
		for (int i = 0; i < ours.size(); i++) {
			assertEquals(theirs.get(i).replace("\r\n", "\n"), ours.get(i).replace("\r\n", "\n"), "call " + i + " of " + file);
		}
	}

	@ParameterizedTest
	@MethodSource("dev.ptotools.language.CallSpansTest#examples")
	void examplesParseWithoutProblems(Path file) throws Exception {
		ParsedFile parsed = PythonFrontEnd.get().parse(Files.readAllBytes(file));
		assertEquals(List.of(), parsed.problems());
	}

	static Stream<Path> examples() throws Exception {
		return Examples.files().stream();
	}
}
