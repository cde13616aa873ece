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

	/**
	 * How much of the source a finding stands on, for files with syntax errors: a finding whose extent
	 * holds a statement the parser had to repair is a consequence of the break, and is not reported (see
	 * {@link dev.ptotools.analyzer.facts.ParseDamage}).
	 */
	enum Extent {
		/** The statement (or expression) the finding is placed on. */
		STATEMENT,
		/** The whole rank loop the finding is a verdict on. */
		RANK_LOOP,
		/** The whole function: the finding says something is missing from it (no window, no dispatch). */
		FUNCTION
	}

	default Extent extent() {
		return Extent.STATEMENT;
	}

	/** The rule's page, relative to the repository root. */
	default String docPath() {
		return "docs/rules/" + id() + ".md";
	}
}
