package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;
import dev.ptotools.analyzer.support.Fixtures;
import dev.ptotools.analyzer.support.RulePages;

/**
 * Every rule has its page under docs/rules/, with the sections of the format; the page's example
 * triggers the rule and its fix does not (and has no error). The pages are tested documentation.
 */
class RuleDocsTest {

	/**
	 * The analyzer's own rules; the compile rules' pages are tested with the compiler (codegen's
	 * CompileRuleDocsTest), the import rules' in a package (ImportErrorRuleTest).
	 */
	static Stream<Rule> rules() {
		return Rules.all().stream().filter(r -> !r.needs().contains(dev.ptotools.analyzer.pipeline.Keys.COMPILE)
				&& !r.needs().contains(dev.ptotools.analyzer.pipeline.Keys.IMPORTED_MODULES));
	}

	static Path docs() {
		return RulePages.dir();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("rules")
	void pageExistsAndItsExamplesAreTrue(Rule rule) throws Exception {
		Path page = docs().resolve(rule.id() + ".md");
		assertTrue(Files.isRegularFile(page), "missing " + page);
		String text = Files.readString(page);
		assertTrue(text.startsWith("# " + rule.id() + ": " + rule.name() + "\n"), "title line of " + page);
		assertEquals(RulePages.SECTIONS, RulePages.sections(text), page.toString());
		String example = RulePages.firstPython(RulePages.section(text, "Example"));
		assertTrue(example != null, "no python example in " + page);
		Analysis a = Fixtures.analyze(example);
		assertTrue(a.diagnostics().stream().anyMatch(d -> d.rule().equals(rule.id())),
				rule.id() + ": the example must trigger the rule\n" + Fixtures.describe(a));
		String fix = RulePages.firstPython(RulePages.section(text, "Fix"));
		if (fix != null) {
			Analysis fixed = Fixtures.analyze(fix);
			for (Diagnostic d : fixed.diagnostics()) {
				assertTrue(!d.rule().equals(rule.id()), rule.id() + ": the fix still triggers the rule\n"
						+ Fixtures.describe(fixed));
				assertTrue(d.severity() != Severity.ERROR, rule.id() + ": the fix has an error\n" + Fixtures.describe(fixed));
			}
		}
		assertTrue(Files.readString(docs().resolve("README.md")).contains("[" + rule.id() + "](" + rule.id() + ".md)"),
				rule.id() + " missing from docs/rules/README.md");
	}
}
