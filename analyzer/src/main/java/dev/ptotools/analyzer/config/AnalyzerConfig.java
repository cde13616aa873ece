package dev.ptotools.analyzer.config;

import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * Which rules run and how severe their findings are. The defaults come from the rules; overrides come
 * from pyproject.toml ([tool.pto]), the editor's settings or command-line flags, in that order.
 *
 * @param severities per rule id (or id prefix such as "PTO1"), a severity that replaces the rule's default
 * @param disabled rule ids (or id prefixes) that do not report
 * @param selected when non-empty, only these rule ids (or id prefixes) report
 *
 * Rule names ("dispatch-not-pinned") are turned into ids by {@link RuleSelectors} where configuration is read.
 */
public record AnalyzerConfig(Map<String, Severity> severities, Set<String> disabled, Set<String> selected) {

	public static final AnalyzerConfig DEFAULT = new AnalyzerConfig(Map.of(), Set.of(), Set.of());

	public AnalyzerConfig {
		severities = Map.copyOf(severities);
		disabled = Set.copyOf(disabled);
		selected = Set.copyOf(selected);
	}

	public boolean enabled(String rule) {
		if (matches(disabled, rule)) {
			return false;
		}
		return selected.isEmpty() || matches(selected, rule);
	}

	/** The configured severity of a rule: by its id, else by the longest id prefix given ("PTO1"), else the default. */
	public Severity severity(String rule, Severity dflt) {
		Severity s = severities.get(rule);
		if (s != null) {
			return s;
		}
		String longest = null;
		for (String key : severities.keySet()) {
			if (!key.isEmpty() && rule.startsWith(key) && (longest == null || key.length() > longest.length())) {
				longest = key;
			}
		}
		return longest != null ? severities.get(longest) : dflt;
	}

	private static boolean matches(Set<String> set, String rule) {
		for (String s : set) {
			if (rule.equals(s) || (!s.isEmpty() && rule.startsWith(s) && s.length() < rule.length())) {
				return true;
			}
		}
		return false;
	}

	/** This configuration with another laid over it (the other's entries win). */
	public AnalyzerConfig overriddenBy(AnalyzerConfig other) {
		Map<String, Severity> sev = new java.util.HashMap<>(severities);
		sev.putAll(other.severities);
		Set<String> dis = new java.util.HashSet<>(disabled);
		dis.addAll(other.disabled);
		Set<String> sel = other.selected.isEmpty() ? selected : other.selected;
		return new AnalyzerConfig(sev, dis, sel);
	}
}
