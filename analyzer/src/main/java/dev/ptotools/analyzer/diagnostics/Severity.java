package dev.ptotools.analyzer.diagnostics;

import java.util.Locale;

/** How serious a finding is; ordered from most to least severe. */
public enum Severity {
	ERROR, WARNING, INFO, HINT;

	public boolean atLeast(Severity threshold) {
		return ordinal() <= threshold.ordinal();
	}

	public String lower() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** Parses error|warning|info|hint (case-insensitive); null for anything else. */
	public static Severity parse(String s) {
		if (s == null) {
			return null;
		}
		return switch (s.strip().toLowerCase(Locale.ROOT)) {
		case "error" -> ERROR;
		case "warning", "warn" -> WARNING;
		case "info", "information", "note" -> INFO;
		case "hint" -> HINT;
		default -> null;
		};
	}
}
