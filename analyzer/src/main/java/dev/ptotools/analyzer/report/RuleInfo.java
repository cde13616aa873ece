package dev.ptotools.analyzer.report;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;

/**
 * What a report says about a rule: the rule's own descriptors, and optionally its page's text (the
 * CLI reads the pages shipped in the jar; SARIF embeds them as {@code help}).
 *
 * @param helpMarkdown the rule page in Markdown, or null
 */
public record RuleInfo(String id, String name, String title, String description, Severity defaultSeverity,
		String docPath, String helpMarkdown) {

	/** Every rule of the analyzer in id order, and PTO900 (internal errors) last. */
	public static List<RuleInfo> catalog() {
		List<RuleInfo> out = new ArrayList<>();
		for (Rule r : Rules.all()) {
			out.add(new RuleInfo(r.id(), r.name(), r.title(), r.description(), r.defaultSeverity(), r.docPath(), null));
		}
		out.add(new RuleInfo(Analyzer.INTERNAL_ERROR, Analyzer.INTERNAL_ERROR_NAME,
				"Internal error: a pass or rule of the analyzer failed; please report",
				"A pass or a rule of the analyzer threw. The other rules still report; the message carries the start"
						+ " of the stack trace for the bug report.",
				Severity.ERROR, "docs/rules/" + Analyzer.INTERNAL_ERROR + ".md", null));
		return List.copyOf(out);
	}

	public RuleInfo withHelp(String markdown) {
		return new RuleInfo(id, name, title, description, defaultSeverity, docPath, markdown);
	}

	/** The rule's page name ("PTO105.md"). */
	public String pageName() {
		int slash = docPath.lastIndexOf('/');
		return slash < 0 ? docPath : docPath.substring(slash + 1);
	}
}
