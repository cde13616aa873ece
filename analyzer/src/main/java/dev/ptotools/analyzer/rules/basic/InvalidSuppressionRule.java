package dev.ptotools.analyzer.rules.basic;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO001: a selector in a {@code # pto: ignore[...]} comment that suppresses nothing: it names no rule,
 * or a rule whose findings cannot be hidden (syntax errors, pypto's rejections, internal errors). Ruff
 * reports unknown codes in its suppression comments the same way instead of widening them to every rule.
 */
public final class InvalidSuppressionRule implements Rule {

	@Override
	public String id() {
		return "PTO001";
	}

	@Override
	public String name() {
		return "invalid-suppression";
	}

	@Override
	public String title() {
		return "Suppression comment that suppresses nothing";
	}

	@Override
	public String description() {
		return "A name in `# pto: ignore[...]` or `# pto: ignore-file[...]` that is no rule's id, id prefix or name"
				+ " suppresses nothing; neither does one naming a syntax error, a pypto rejection or an internal"
				+ " error, which no comment can hide because pto compile still fails on them.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.WARNING;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public void check(RuleContext ctx) {
		for (ModuleIR.Suppression s : ctx.get(Keys.MODULE).suppressions()) {
			List<Fix> fixes = s.rules().isEmpty() ? List.of(removeComment(ctx.text(), s)) : List.of();
			for (ModuleIR.InvalidSelector selector : s.invalid()) {
				ctx.report(selector.span(), message(selector), List.of(), fixes);
			}
		}
	}

	private static String message(ModuleIR.InvalidSelector selector) {
		String name = selector.text();
		if (name.isEmpty()) {
			return "This suppression names no rule, so it suppresses nothing (write `# pto: ignore` for every rule"
					+ " on the line, or name ids such as PTO105, id prefixes such as PTO1, or names such as"
					+ " dispatch-not-pinned)";
		}
		if (selector.reason().equals("names no rule")) {
			return "'" + name + "' names no rule, so this comment suppresses nothing (use an id such as PTO105, an id"
					+ " prefix such as PTO1, or a rule name such as dispatch-not-pinned; see docs/rules)";
		}
		String upper = name.toUpperCase(java.util.Locale.ROOT);
		String what = upper.startsWith("PTO0") || name.equalsIgnoreCase("syntax-error") ? "a syntax error"
				: upper.startsWith("PTO9") || name.equalsIgnoreCase("internal-error") ? "an internal error of pto"
						: "pypto's rejection of the program";
		return "'" + name + "' cannot be suppressed: it is " + what + ", and pto compile fails on it whatever the"
				+ " comment says; fix its cause instead";
	}

	/** Removes the whole comment, and the line when the comment stands alone on it. */
	private static Fix removeComment(String text, ModuleIR.Suppression s) {
		int start = s.span().start();
		while (start > 0 && (text.charAt(start - 1) == ' ' || text.charAt(start - 1) == '\t')) {
			start--;
		}
		int end = s.span().end();
		boolean alone = start == 0 || text.charAt(start - 1) == '\n';
		if (alone) {
			while (end < text.length() && text.charAt(end) != '\n') {
				end++;
			}
			end = Math.min(text.length(), end + 1);
		}
		return new Fix("Remove the suppression comment", List.of(new Fix.Edit(new Span(start, end), "")), false);
	}
}
