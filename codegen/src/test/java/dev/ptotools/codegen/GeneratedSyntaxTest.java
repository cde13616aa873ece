package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.codegen.support.Gxx;
import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/**
 * Every generated C++ file (of the other test classes, of the bundled examples in docs/examples, of
 * the goldens and test programs) passes {@code g++ -std=c++17 -fsyntax-only} against the stub runtime
 * header, and every generated Python file passes {@code python3 -m py_compile}. Runs last (see
 * junit-platform.properties) to see what the other classes generated.
 */
@Order(Integer.MAX_VALUE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GeneratedSyntaxTest {

	@TempDir
	Path dir;

	private final Map<String, String> files = new LinkedHashMap<>();

	@BeforeAll
	void collect() throws IOException {
		for (GeneratedFile f : Sources.GENERATED) {
			files.putIfAbsent("tests/" + files.size() + "/" + f.path(), f.content());
		}
		List<Path> sources = new ArrayList<>();
		Path examples = Path.of(System.getProperty("pto.examples.dir", "../docs/examples"));
		if (Files.isDirectory(examples)) {
			try (Stream<Path> s = Files.list(examples)) {
				s.filter(p -> p.toString().endsWith(".py")).sorted().forEach(sources::add);
			}
		}
		for (String dirName : List.of("goldens", "programs")) {
			try (Stream<Path> s = Files.list(Gxx.resource(dirName))) {
				s.filter(p -> p.toString().endsWith(".py")).sorted().forEach(sources::add);
			}
		}
		for (Path src : sources) {
			for (CompileOptions o : List.of(CompileOptions.DEFAULT, Sources.PLAIN)) {
				Generation g = Compiler.generate(src.toString(), Files.readString(src), o.withDeviceIds(List.of(0, 1, 2, 3)));
				for (GeneratedFile f : g.files()) {
					files.putIfAbsent(src.getFileName() + "/" + o.header() + "/" + f.path(), f.content());
				}
			}
		}
	}

	private List<Path> materialize(String suffix) throws IOException {
		List<Path> out = new ArrayList<>();
		int i = 0;
		for (Map.Entry<String, String> e : files.entrySet()) {
			if (!e.getKey().endsWith(suffix)) {
				continue;
			}
			Path p = dir.resolve(suffix.substring(1) + "/f" + (i++) + "_" + Path.of(e.getKey()).getFileName());
			Files.createDirectories(p.getParent());
			Files.writeString(p, e.getValue());
			out.add(p);
		}
		return out;
	}

	@Test
	void everyGeneratedCppFileCompilesAgainstTheStubHeader() throws Exception {
		assumeTrue(Gxx.find().isPresent(), "g++ is not on PATH: the C++ syntax check of generated files is skipped");
		List<Path> cpp = materialize(".cpp");
		assertTrue(cpp.size() >= 10, "expected generated C++ files, got " + cpp.size());
		// Today's header name for the default (fallback) and pto outputs; the renamed stub for the files
		// that include only orchestration_api.h.
		List<Path> today = new ArrayList<>();
		List<Path> renamed = new ArrayList<>();
		for (Path p : cpp) {
			(Files.readString(p).contains("pto_orchestration_api.h") ? today : renamed).add(p);
		}
		assertEquals("", Gxx.syntaxCheck(List.of(Gxx.resource("stub")), today));
		if (!renamed.isEmpty()) {
			assertEquals("", Gxx.syntaxCheck(List.of(Gxx.resource("stub-renamed")), renamed));
		}
	}

	@Test
	void everyGeneratedPythonFileCompiles() throws Exception {
		assumeTrue(Python.available(), "python3 is not on PATH: the py_compile check of generated files is skipped");
		List<Path> py = materialize(".py");
		assertTrue(py.stream().anyMatch(p -> p.toString().endsWith("host_orch.py")), "expected host_orch.py files");
		List<String> args = new ArrayList<>(List.of("-m", "py_compile"));
		py.forEach(p -> args.add(p.toString()));
		Python.Run r = Python.run(dir, Map.of("PYTHONDONTWRITEBYTECODE", "1"), args.toArray(String[]::new));
		assertEquals(0, r.exit(), r.err());
	}
}
