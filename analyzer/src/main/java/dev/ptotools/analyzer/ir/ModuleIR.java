package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * The PyPTO content of one source file. {@code pl} and {@code pld} are the names
 * pypto.language and pypto.language.distributed are imported as (their defaults when only one form
 * of import is present; null when the module is not imported at all), for the code fixes write;
 * {@code imports} is what every import binds, which names are resolved through. {@code script} is the
 * plain Python around the programs (empty when pypto is not imported).
 */
public record ModuleIR(boolean importsPypto, String pl, String pld, List<Program> programs,
		List<Suppression> suppressions, Imports imports, Script script) {

	/** A module whose only bindings are {@code pl} and {@code pld}. */
	public ModuleIR(boolean importsPypto, String pl, String pld, List<Program> programs,
			List<Suppression> suppressions) {
		this(importsPypto, pl, pld, programs, suppressions, Imports.of(pl, pld), Script.EMPTY);
	}

	/** A suppression comment: {@code # pto: ignore[ID,...]} on a line, or ignore-file for the file. */
	public record Suppression(int line, boolean wholeFile, List<String> rules, Span span) {
		public boolean covers(String rule) {
			return rules.isEmpty() || rules.contains(rule);
		}
	}
}
