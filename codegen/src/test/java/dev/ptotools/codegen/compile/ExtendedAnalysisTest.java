package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.analyzer.support.RulePages;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;

/**
 * The editor's second step continues the first step's analysis with the compile
 * ({@link Analyzer#extend}) instead of running every pass again: its findings are exactly those of the
 * whole pipeline run from the parse, under the default configuration and a configured one, on the
 * bundled examples, the compile rules' pages (programs pypto rejects, constructs not reproduced) and a
 * generated multi-rank module.
 */
class ExtendedAnalysisTest {

	private static List<String> texts() throws Exception {
		List<String> texts = new ArrayList<>();
		for (Path p : Examples.files()) {
			texts.add(Files.readString(p));
		}
		for (String id : List.of("PTO500", "PTO501")) {
			String page = Files.readString(RulePages.dir().resolve(id + ".md"));
			texts.add(RulePages.firstPython(RulePages.section(page, "Example")));
		}
		texts.add(GeneratedPrograms.multiRank(200));
		texts.add("import pypto.language as pl\nx = (\n"); // a syntax error
		texts.add("x = 1\n"); // not a PyPTO file
		return texts;
	}

	@Test
	void theCompileStepContinuedFromTheFirstEqualsTheWholePipeline() throws Exception {
		AnalyzerConfig configured = new AnalyzerConfig(Map.of("PTO100", Severity.WARNING, "PTO501", Severity.WARNING),
				Set.of("PTO101"), Set.of());
		int compiled = 0;
		for (AnalyzerConfig config : List.of(AnalyzerConfig.DEFAULT, configured)) {
			for (String text : texts()) {
				ParsedFile parsed = PythonFrontEnd.get().parse(text);
				Analyzer whole = Compiler.analyzer(CompileOptions.DEFAULT);
				Analysis expected = whole.analyze(parsed, config);
				Analysis first = Analyzer.standard().analyze(parsed, config).withoutSyntaxTree();
				Analysis continued = whole.extend(first, config);
				assertEquals(expected.diagnostics(), continued.diagnostics(), text);
				// continued, not made again: the first step's IR is the one compiled
				if (first.isPypto()) {
					assertSame(first.module(), continued.module());
				}
				assertEquals(expected.facts().has(Keys.COMPILE), continued.facts().has(Keys.COMPILE), text);
				if (continued.facts().has(Keys.COMPILE)) {
					assertEquals(expected.facts().get(Keys.COMPILE).findings(), continued.facts().get(Keys.COMPILE).findings());
					compiled++;
				}
			}
		}
		assertTrue(compiled > 10, "compiled " + compiled);
	}
}
