package dev.ptotools.analyzer.rules;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Key;

/**
 * One check, one class: a stable id, a name, a default severity, a summary and a page under
 * docs/rules/ (what it flags, why it matters, an example, the fix). A rule reads facts and reports.
 */
public interface Rule {

	/** Stable id, "PTO105". */
	String id();

	/** Kebab-case name, "dispatch-not-pinned". */
	String name();

	/** One line: what it finds. */
	String title();

	/** Two or three sentences: why it matters. */
	String description();

	Severity defaultSeverity();

	List<Key<?>> needs();

	void check(RuleContext ctx);

	/** The rule's page, relative to the repository root. */
	default String docPath() {
		return "docs/rules/" + id() + ".md";
	}
}
