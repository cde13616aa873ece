package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.analyzer.support.RulePages;

/**
 * The compile rules' pages (PTO5xx) are tested documentation, as the analyzer's are (its RuleDocsTest),
 * but through the pipeline with the compile: the example triggers the rule with the message the page
 * shows, the fix compiles with no error and writes the program's files.
 */
class CompileRuleDocsTest {

	static Stream<Rule> compileRules() {
		return Rules.all().stream().filter(r -> r.needs().contains(Keys.COMPILE));
	}

	/** The settings a page's example is checked with: PTO502's page compiles for four ranks, as it says. */
	private static CompileOptions options(Rule rule) {
		return rule.id().equals("PTO502") ? CompileOptions.DEFAULT.withDeviceIds(List.of(0, 1, 2, 3))
				: CompileOptions.DEFAULT;
	}

	private static Analysis analyze(String source, CompileOptions options) {
		return Compiler.analyzer(options).analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("compileRules")
	void pageExampleTriggersAndFixCompiles(Rule rule) throws Exception {
		Path page = RulePages.dir().resolve(rule.id() + ".md");
		assertTrue(Files.isRegularFile(page), "missing " + page);
		String text = Files.readString(page);
		assertTrue(text.startsWith("# " + rule.id() + ": " + rule.name() + "\n"), "title line of " + page);
		assertEquals(RulePages.SECTIONS, RulePages.sections(text));

		String example = RulePages.firstPython(RulePages.section(text, "Example"));
		assertNotNull(example, "no python example in " + page);
		Analysis a = analyze(example, options(rule));
		List<Diagnostic> found = a.diagnostics().stream().filter(d -> d.rule().equals(rule.id())).toList();
		assertFalse(found.isEmpty(), rule.id() + ": the example must trigger the rule: " + a.diagnostics());
		// The page shows the finding as "line:col ID severity message".
		String shown = RulePages.firstText(RulePages.section(text, "Example"));
		Diagnostic d = found.get(0);
		String line = a.file().lines().line(d.span().start()) + ":" + a.file().lines().column(d.span().start()) + " "
				+ d.rule() + " " + d.severity().name().toLowerCase() + " " + d.message();
		assertEquals(line, shown.strip(), "the page shows the finding as the pipeline reports it");

		String fix = RulePages.firstPython(RulePages.section(text, "Fix"));
		assertNotNull(fix, "no python fix in " + page);
		Analysis fixed = analyze(fix, options(rule));
		assertTrue(fixed.diagnostics().stream().noneMatch(x -> x.severity() == Severity.ERROR || x.rule().equals(rule.id())),
				rule.id() + ": the fix has an error or the finding: " + fixed.diagnostics());
		assertFalse(Compiler.generate(fixed, options(rule), "fix.py").files().isEmpty(), "the fix compiles");
		assertTrue(Files.readString(RulePages.dir().resolve("README.md")).contains("[" + rule.id() + "](" + rule.id() + ".md)"),
				rule.id() + " missing from docs/rules/README.md");
	}
}
