package dev.ptotools.analyzer.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.project.ProjectModules;
import dev.ptotools.analyzer.support.RulePages;
import dev.ptotools.language.PythonFrontEnd;

/**
 * PTO411: one finding at an import Python cannot run, with what it left unknown as related locations;
 * nothing for what may run (a namespace package, a module outside the project, a name bound in a way
 * the analyzer does not read). Its page's example and fix, in a package, as the page says.
 */
class ImportErrorRuleTest {

	@TempDir
	Path root;

	private static final String USES = """


			@pl.jit
			def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):
			    with pl.at(level=pl.Level.CORE_GROUP):
			        t = pl.load(x, [0, 0], [ROWS, COLS])
			        out = pl.store(t, [0, 0], out)
			    return out


			if __name__ == "__main__":
			    scale(torch.empty([ROWS, COLS], dtype=torch.float32), torch.empty([ROWS, COLS], dtype=torch.float32))
			""";

	private void write(String path, String text) throws IOException {
		Path p = root.resolve(path);
		Files.createDirectories(p.getParent());
		Files.writeString(p, text);
	}

	private List<Diagnostic> check(String imports) throws IOException {
		write("pkg/__init__.py", "");
		write("pkg/config.py", "ROWS = 64\n");
		String text = "import pypto.language as pl\nimport torch\n\n" + imports + USES;
		write("pkg/model.py", text);
		Path model = root.resolve("pkg/model.py");
		Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(model), AnalyzerConfig.DEFAULT,
				new ProjectModules(root).forFile(model));
		return a.diagnostics();
	}

	private static List<String> pto411(List<Diagnostic> found) {
		return found.stream().filter(d -> d.rule().equals("PTO411")).map(Diagnostic::message).toList();
	}

	@Test
	void aMissingRelativeModuleIsOneErrorWithItsConsequencesRelated() throws IOException {
		List<Diagnostic> found = check("from .shapes import ROWS, COLS\n");
		assertEquals(List.of("ModuleNotFoundError: No module named 'pkg.shapes': running the module stops at this import,"
				+ " before pypto sees any of its programs"), pto411(found));
		assertEquals(List.of("PTO411"), found.stream().map(Diagnostic::rule).toList(), "one finding per cause: " + found);
		Diagnostic d = found.get(0);
		assertEquals(Severity.ERROR, d.severity());
		assertEquals(2, d.related().size(), d.related().toString());
		assertTrue(d.related().get(0).message().startsWith("needs this import (PTO410: The shape of 'x'"),
				d.related().toString());
	}

	@Test
	void aNameItsModuleNeverBindsIsAtTheName() throws IOException {
		List<Diagnostic> found = check("from .config import ROWS, COLS\n");
		assertEquals(List.of("ImportError: cannot import name 'COLS' from 'pkg.config' (" + root.resolve("pkg/config.py")
				+ "): running the module stops at this import, before pypto sees any of its programs"), pto411(found));
		Diagnostic d = found.stream().filter(x -> x.rule().equals("PTO411")).findFirst().get();
		String text = Files.readString(root.resolve("pkg/model.py"));
		assertEquals("COLS", text.substring(d.span().start(), d.span().end()));
	}

	@Test
	void aModuleWithASyntaxError() throws IOException {
		write("pkg/shapes.py", "ROWS = (64\n");
		List<String> found = pto411(check("from .shapes import ROWS\nfrom .config import ROWS as COLS\n"));
		assertEquals(1, found.size(), found.toString());
		assertTrue(found.get(0).startsWith("SyntaxError: pkg/shapes.py has a syntax error (line"), found.toString());
	}

	@Test
	void whatMayRunIsNotFlagged() throws IOException {
		write("pkg/ns/shapes.py", "COLS = 32\n"); // pkg/ns has no __init__.py: a namespace package
		write("pkg/dyn.py", "globals()['COLS'] = 32\n");
		assertEquals(List.of(), pto411(check("from .config import ROWS\nfrom .ns import shapes\nfrom othermod import COLS\n")));
		assertEquals(List.of(), pto411(check("from .config import ROWS\nfrom .dyn import COLS\n")));
		assertEquals(List.of(), pto411(check("from .config import ROWS\nimport numpy as COLS\n")));
		// a module of a namespace package (no __init__.py) importing from its own package
		write("ns2/config.py", "ROWS = 64\nCOLS = 32\n");
		write("ns2/model.py", "import pypto.language as pl\nimport torch\n\nfrom . import config\nROWS = config.ROWS\n"
				+ "COLS = config.COLS\n" + USES);
		Path model = root.resolve("ns2/model.py");
		assertEquals(List.of(), pto411(Analyzer.standard().analyze(PythonFrontEnd.get().parse(model), AnalyzerConfig.DEFAULT,
				new ProjectModules(root).forFile(model)).diagnostics()));
	}

	@Test
	void thePagesExampleAndFix() throws IOException {
		String page = Files.readString(RulePages.dir().resolve("PTO411.md"));
		String example = RulePages.firstPython(RulePages.section(page, "Example"));
		String fix = RulePages.firstPython(RulePages.section(page, "Fix"));
		write("pkg/__init__.py", "");
		write("pkg/config.py", "ROWS = 64\n");
		for (String[] c : new String[][] { { example, "PTO411" }, { fix, null } }) {
			write("pkg/model.py", c[0]);
			Path model = root.resolve("pkg/model.py");
			List<Diagnostic> found = Analyzer.standard().analyze(PythonFrontEnd.get().parse(model), AnalyzerConfig.DEFAULT,
					new ProjectModules(root).forFile(model)).diagnostics();
			if (c[1] != null) {
				assertTrue(found.stream().anyMatch(d -> d.rule().equals("PTO411")), found.toString());
			} else {
				assertTrue(found.stream().noneMatch(d -> d.rule().equals("PTO411") || d.severity() == Severity.ERROR),
						found.toString());
			}
		}
	}
}
