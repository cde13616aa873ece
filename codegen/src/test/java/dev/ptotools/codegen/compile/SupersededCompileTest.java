package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;

/** The editor's compile stops between programs once the text it compiles has been superseded. */
class SupersededCompileTest {

	private static Analysis analyzed(Analyzer analyzer) throws Exception {
		String text = java.nio.file.Files.readString(Examples.dir().resolve("single_chip.py"));
		return analyzer.analyze(PythonFrontEnd.get().parse(text), AnalyzerConfig.DEFAULT);
	}

	@Test
	void aCompileWhoseTextIsCurrentRunsToTheEnd() throws Exception {
		Analysis a = analyzed(Compiler.analyzer(CompileOptions.DEFAULT, () -> false));
		assertTrue(a.facts().has(Keys.COMPILE));
		assertFalse(((Compilation) a.facts().get(Keys.COMPILE).output()).programs().isEmpty());
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.rule().equals(Analyzer.INTERNAL_ERROR)));
	}

	@Test
	void aSupersededCompileStopsBeforeItsFirstProgram() throws Exception {
		Analysis standard = analyzed(Analyzer.standard());
		assertThrows(CancellationException.class, () -> Compilation.of(standard.module(), standard.file().text(),
				standard.facts().get(Keys.CONSTANTS), null, null, CompileOptions.DEFAULT, () -> true));
		// Through the pipeline it is one internal-error finding and no compile fact: the caller drops it.
		Analysis a = analyzed(Compiler.analyzer(CompileOptions.DEFAULT, () -> true));
		assertFalse(a.facts().has(Keys.COMPILE));
		assertTrue(a.diagnostics().stream().anyMatch(d -> d.rule().equals(Analyzer.INTERNAL_ERROR)
				&& d.message().contains("superseded")), a.diagnostics().toString());
	}
}
