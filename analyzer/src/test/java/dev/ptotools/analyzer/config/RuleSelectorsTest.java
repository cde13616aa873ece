package dev.ptotools.analyzer.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;

/** Rules named by id, id prefix or name, and severities set by id prefix. */
class RuleSelectorsTest {

	@Test
	void everyRuleIsFoundByItsIdAndByItsName() {
		for (Rule r : Rules.all()) {
			assertEquals(Optional.of(r.id()), RuleSelectors.resolve(r.id()), r.id());
			assertEquals(Optional.of(r.id()), RuleSelectors.resolve(r.name()), r.name());
		}
		assertEquals(Optional.of("PTO100"), RuleSelectors.resolve(" Grouped-Dispatch "));
		assertEquals(Optional.of("PTO900"), RuleSelectors.resolve("internal-error"));
	}

	@Test
	void idPrefixesKeepWorkingInAnyCase() {
		assertEquals(Optional.of("PTO1"), RuleSelectors.resolve("PTO1"));
		assertEquals(Optional.of("PTO20"), RuleSelectors.resolve("pto20"));
	}

	@Test
	void whatNamesNoRuleIsUnknown() {
		assertEquals(Optional.empty(), RuleSelectors.resolve("PTO999"));
		assertEquals(Optional.empty(), RuleSelectors.resolve("grouped-dispatches"));
		assertEquals(Optional.empty(), RuleSelectors.resolve(""));
		String message = RuleSelectors.unknown("tool.pto.disable", "grouped-dispatches");
		assertTrue(message.startsWith("tool.pto.disable: 'grouped-dispatches' matches no rule id or name"), message);
	}

	@Test
	void severityByIdWinsOverTheLongestPrefix() {
		AnalyzerConfig c = new AnalyzerConfig(Map.of("PTO1", Severity.ERROR, "PTO10", Severity.HINT, "PTO105",
				Severity.INFO), Set.of(), Set.of());
		assertEquals(Severity.INFO, c.severity("PTO105", Severity.WARNING));
		assertEquals(Severity.HINT, c.severity("PTO101", Severity.WARNING));
		assertEquals(Severity.ERROR, c.severity("PTO110", Severity.WARNING));
		assertEquals(Severity.WARNING, c.severity("PTO201", Severity.WARNING));
		assertFalse(c.severities().isEmpty());
	}
}
