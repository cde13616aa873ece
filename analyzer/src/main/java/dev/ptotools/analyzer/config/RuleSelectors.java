package dev.ptotools.analyzer.config;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;

/**
 * How people name rules in configuration and flags ([tool.pto] select / disable / severity, the
 * editor's disabledRules / severities, --select / --ignore): by id ("PTO105"), by id prefix ("PTO1",
 * every rule whose id starts so), or by name ("dispatch-not-pinned"), in any case. Each is turned
 * into the id or id prefix {@link AnalyzerConfig} works with; what names no rule is reported by the
 * caller, where the user sees it.
 */
public final class RuleSelectors {

	/** Rule names to ids, PTO900 (internal errors) included. */
	private static final Map<String, String> IDS_BY_NAME = idsByName();

	private RuleSelectors() {
	}

	private static Map<String, String> idsByName() {
		Map<String, String> out = new HashMap<>();
		for (Rule r : Rules.all()) {
			out.put(r.name(), r.id());
		}
		out.put(Analyzer.INTERNAL_ERROR_NAME, Analyzer.INTERNAL_ERROR);
		return Map.copyOf(out);
	}

	/**
	 * The id or id prefix a selector stands for ("pto1" gives "PTO1", "dispatch-not-pinned" gives
	 * "PTO105"), or empty when it matches no rule.
	 */
	public static Optional<String> resolve(String selector) {
		String s = selector.strip();
		if (s.isEmpty()) {
			return Optional.empty();
		}
		String byName = IDS_BY_NAME.get(s.toLowerCase(Locale.ROOT));
		if (byName != null) {
			return Optional.of(byName);
		}
		String id = s.toUpperCase(Locale.ROOT);
		if (id.equals(Analyzer.INTERNAL_ERROR) || Rules.all().stream().anyMatch(r -> r.id().startsWith(id))) {
			return Optional.of(id);
		}
		return Optional.empty();
	}

	/** What to tell the user about a selector that matches no rule; {@code where} names the setting. */
	public static String unknown(String where, String selector) {
		return where + ": '" + selector.strip() + "' matches no rule id or name (ids PTO000 to PTO900, id prefixes"
				+ " such as PTO1, or names such as dispatch-not-pinned; see docs/rules)";
	}
}
