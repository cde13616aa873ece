package dev.ptotools.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonParser;

/** The editor's settings name rules by id, prefix or name; what names no rule is shown once per change. */
class ConfigurationWarningsTest {

	@Test
	void settingsResolveRuleNamesAndCollectWhatMatchesNoRule() {
		ServerSettings s = ServerSettings.from(JsonParser.parseString("""
				{"pto": {"disabledRules": ["grouped-dispatch", "PTO2", "nope"],
				         "severities": {"dispatch-not-pinned": "error", "pto1": "hint", "conditional-dispatch": "off",
				                        "PTO777": "error", "PTO101": "loud"}}}
				"""));
		assertEquals(java.util.Set.of("PTO100", "PTO2", "nope", "PTO103"), s.disabled());
		assertEquals(java.util.Map.of("PTO105", dev.ptotools.analyzer.diagnostics.Severity.ERROR, "PTO1",
				dev.ptotools.analyzer.diagnostics.Severity.HINT, "PTO777", dev.ptotools.analyzer.diagnostics.Severity.ERROR),
				s.severities());
		assertEquals(3, s.problems().size(), s.problems().toString());
		assertEquals(true, s.problems().get(0).startsWith("pto.disabledRules: 'nope' matches no rule id or name"));
		assertEquals(true, s.problems().stream().anyMatch(p -> p.startsWith("pto.severities: 'PTO777' matches no rule")));
		assertEquals(true, s.problems().stream().anyMatch(p -> p.contains("'PTO101' must be error, warning, info, hint or off")));
	}

	@Test
	void shownOncePerChangeNotOnEveryRead() {
		List<String> shown = new ArrayList<>();
		ConfigurationWarnings w = new ConfigurationWarnings(shown::add);
		w.report("pto settings", List.of("pto.disabledRules: 'nope' matches no rule"));
		w.report("pto settings", List.of("pto.disabledRules: 'nope' matches no rule")); // pulled again
		assertEquals(List.of("PTO: pto settings: pto.disabledRules: 'nope' matches no rule"), shown);
		w.report("pto settings of /a", List.of("x")); // another source
		assertEquals(2, shown.size());
		w.report("pto settings", List.of()); // fixed: nothing to show
		assertEquals(2, shown.size());
		w.report("pto settings", List.of("pto.disabledRules: 'nope' matches no rule")); // broken again
		assertEquals(3, shown.size());
	}
}
