package dev.ptotools.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Generation;
import dev.ptotools.language.DeepStack;
import dev.ptotools.language.PythonFrontEnd;

/** On save the server compiles from the analysis it holds; the files must be the ones compile makes. */
class CompilationsTest {

	private static final CompileOptions OPTIONS = Compilations.options(null);

	private static Path examples() {
		return Path.of(System.getProperty("pto.examples.dir", "../docs/examples")).toAbsolutePath().normalize();
	}

	/** As the server holds it: without the syntax tree. */
	private static Analysis analyze(String text, AnalyzerConfig config) throws Exception {
		Analysis a = DeepStack.call(() -> Analyzer.standard().analyze(PythonFrontEnd.get().parse(text), config))
				.withoutSyntaxTree();
		assertFalse(a.file().hasSyntaxTree());
		return a;
	}

	@Test
	void theHeldAnalysisGivesTheFilesCompileWrites() throws Exception {
		List<Path> sources;
		try (Stream<Path> s = Files.list(examples())) {
			sources = s.filter(p -> p.toString().endsWith(".py")).sorted().toList();
		}
		assertFalse(sources.isEmpty(), "no examples in " + examples());
		int files = 0;
		for (Path p : sources) {
			String text = Files.readString(p);
			Generation fromText = DeepStack.call(() -> Compilations.generate(p.toString(), text, OPTIONS));
			Generation reused = Compilations.generate(p.toString(), text, analyze(text, AnalyzerConfig.DEFAULT),
					AnalyzerConfig.DEFAULT, OPTIONS);
			assertEquals(fromText, reused, p.toString());
			files += fromText.files().size();
		}
		String generated = GeneratedPrograms.multiRank(300);
		Generation fromText = DeepStack.call(() -> Compilations.generate("generated.py", generated, OPTIONS));
		assertEquals(fromText, Compilations.generate("generated.py", generated, analyze(generated, AnalyzerConfig.DEFAULT),
				new AnalyzerConfig(Map.of(), Set.of(), Set.of()), OPTIONS));
		assertTrue(files + fromText.files().size() > 0, "nothing was generated: the comparison proves nothing");
	}

	@Test
	void anAnalysisMadeWithOtherSeveritiesIsNotReused() throws Exception {
		// Every rule an error: the editor's analysis would block compiling, pto compile's does not.
		// no_window_host.py compiles and has warnings and notes.
		Path p = examples().resolve("no_window_host.py");
		String text = Files.readString(p);
		Analysis plain = analyze(text, AnalyzerConfig.DEFAULT);
		Map<String, Severity> allErrors = new java.util.HashMap<>();
		plain.diagnostics().forEach(d -> allErrors.put(d.rule(), Severity.ERROR));
		assertFalse(allErrors.isEmpty(), "no findings in " + p);
		AnalyzerConfig strict = new AnalyzerConfig(allErrors, Set.of(), Set.of());
		Analysis strictAnalysis = analyze(text, strict);
		Generation fromText = DeepStack.call(() -> Compilations.generate(p.toString(), text, OPTIONS));
		assertFalse(fromText.files().isEmpty());
		assertNotEquals(fromText, dev.ptotools.codegen.Compiler.generate(strictAnalysis, OPTIONS, p.toString()),
				"the strict analysis should block compiling, or this test shows nothing");
		assertEquals(fromText, Compilations.generate(p.toString(), text, strictAnalysis, strict, OPTIONS));
	}
}
