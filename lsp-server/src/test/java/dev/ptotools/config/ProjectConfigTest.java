package dev.ptotools.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Severity;

/** [tool.pto] as the CLI and the server read it. */
class ProjectConfigTest {

	@Test
	void rulesByIdPrefixOrNameAndUnknownOnesAreProblems() {
		ProjectConfig c = ProjectConfig.parse(Path.of("/p"), """
				[tool.pto]
				select = ["PTO1", "comm-domain-no-coverage-typo"]
				disable = ["grouped-dispatch", "pto105"]
				severity = { dispatch-not-pinned = "error", PTO2 = "warning" }
				""", "pyproject.toml");
		assertEquals(Set.of("PTO1", "comm-domain-no-coverage-typo"), c.analyzer().selected());
		assertEquals(Set.of("PTO100", "PTO105"), c.analyzer().disabled());
		assertEquals(Map.of("PTO105", Severity.ERROR, "PTO2", Severity.WARNING), c.analyzer().severities());
		assertEquals(1, c.problems().size(), c.problems().toString());
		assertTrue(c.problems().get(0).startsWith(
				"pyproject.toml: tool.pto.select: 'comm-domain-no-coverage-typo' matches no rule id or name"),
				c.problems().get(0));
		assertFalse(c.analyzer().enabled("PTO100"));
		assertEquals(Severity.WARNING, c.analyzer().severity("PTO203", Severity.ERROR), "severity by id prefix");
	}
}
