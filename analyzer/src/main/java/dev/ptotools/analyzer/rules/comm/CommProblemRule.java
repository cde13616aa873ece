package dev.ptotools.analyzer.rules.comm;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** Shared shape of the rules that report one kind of MaterializeCommDomainScopes problem as an error. */
abstract class CommProblemRule implements Rule {

	private final CommDomains.Kind kind;

	CommProblemRule(CommDomains.Kind kind) {
		this.kind = kind;
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.COMM_DOMAINS);
	}

	@Override
	public void check(RuleContext ctx) {
		for (CommDomains.Problem p : ctx.get(Keys.COMM_DOMAINS).problems(kind)) {
			ctx.report(p.span(), p.message(), p.related(), List.of());
		}
	}
}
