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

	/**
	 * The module's top-level bindings its programs saw, in source order, parameters left out: each program
	 * holds the bindings made before it (a jit program all of them). What there is of them once the syntax
	 * tree is gone.
	 */
	public List<Program.Binding> programBindings() {
		java.util.Map<String, Program.Binding> seen = new java.util.TreeMap<>();
		for (Program p : programs) {
			for (Program.Binding b : p.bindings()) {
				if (!b.isParameter()) {
					seen.putIfAbsent(String.format("%010d:%s", b.span().start(), b.name()), b);
				}
			}
		}
		return List.copyOf(seen.values());
	}

	/**
	 * A suppression comment: {@code # pto: ignore[SELECTORS]} on a line, or {@code ignore-file[...]} for the
	 * file. {@code rules} are the ids and id prefixes its selectors resolve to (empty: every rule);
	 * {@code invalid} are the selectors that cannot suppress anything, which the comment reports instead
	 * of guessing (a name that is no rule's, or a rule whose findings mean pypto cannot build the program).
	 */
	public record Suppression(int line, boolean wholeFile, List<String> rules, List<InvalidSelector> invalid,
			Span span) {

		/** Whether the comment hides findings of {@code rule}: named by id or id prefix, or a bare comment. */
		public boolean covers(String rule) {
			if (!SUPPRESSIBLE.test(rule)) {
				return false;
			}
			if (rules.isEmpty()) {
				return invalid.isEmpty();
			}
			for (String r : rules) {
				if (rule.startsWith(r)) {
					return true;
				}
			}
			return false;
		}
	}

	/** A selector of a suppression comment that suppresses nothing, with why, at its place in the comment. */
	public record InvalidSelector(String text, String reason, Span span) {
	}

	/**
	 * Rules a comment can hide. Syntax errors (PTO000), pypto's rejections (PTO500) and internal errors
	 * (PTO900) cannot: hiding them would make {@code pto check} pass on a file that {@code pto compile}
	 * refuses, as rustc's hard errors cannot be allowed.
	 */
	public static final java.util.function.Predicate<String> SUPPRESSIBLE = rule -> !rule.equals("PTO000")
			&& !rule.equals("PTO500") && !rule.equals("PTO900");
}
