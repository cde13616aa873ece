package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.support.Examples;

/**
 * Suppression comments never make check pass where compile fails: hiding the analyzer's error for a
 * cause pypto rejects shows the compile's PTO500 in its place, and PTO500 itself cannot be hidden.
 */
class SuppressedRejectionTest {

	private static final String CREATE = "scratch = pl.create_tensor([SIZE], dtype=pl.FP32)";

	private static List<String> rules(String text) {
		Analysis a = Compiler.analyzer(CompileOptions.DEFAULT).analyze(PythonFrontEnd.get().parse(text),
				AnalyzerConfig.DEFAULT);
		return a.diagnostics().stream().map(Diagnostic::rule).toList();
	}

	private static String example() throws Exception {
		String text = Files.readString(Examples.dir().resolve("ineligible_loops.py"));
		assertTrue(text.contains(CREATE), "the example still creates a tensor in a HOST loop");
		return text;
	}

	@Test
	void unsuppressedTheAnalyzersErrorStandsForTheRejection() throws Exception {
		List<String> rules = rules(example());
		assertTrue(rules.contains("PTO302") && !rules.contains("PTO500"), rules.toString());
	}

	@Test
	void hidingTheAnalyzersErrorShowsTheCompilersRejection() throws Exception {
		List<String> rules = rules(example().replace(CREATE, CREATE + "  # pto: ignore[PTO302]"));
		assertTrue(!rules.contains("PTO302"), rules.toString());
		assertTrue(rules.contains("PTO500"), rules.toString());
		List<String> byName = rules(example().replace(CREATE, CREATE + "  # pto: ignore[nested-host-tensor-create]"));
		assertTrue(byName.contains("PTO500"), byName.toString());
	}

	@Test
	void theRejectionItselfCannotBeHidden() throws Exception {
		String hidden = example().replace(CREATE, CREATE + "  # pto: ignore");
		assertTrue(rules(hidden).contains("PTO500"), rules(hidden).toString());
		List<String> named = rules("# pto: ignore-file[PTO500, PTO302]\n" + example());
		assertTrue(named.contains("PTO500"), named.toString());
		assertEquals(1, named.stream().filter("PTO001"::equals).count(), named.toString());
	}
}
