package dev.ptotools.analyzer.rules.basic;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;
import dev.ptotools.language.SyntaxProblem;

/** PTO000: Python syntax errors, in CPython's words. */
public final class SyntaxErrorRule implements Rule {

	@Override
	public String id() {
		return "PTO000";
	}

	@Override
	public String name() {
		return "syntax-error";
	}

	@Override
	public String title() {
		return "Python syntax error";
	}

	@Override
	public String description() {
		return "The file is not valid Python 3.11. CPython would refuse to import it, so pypto never sees"
				+ " its programs; the rest of the file is still analyzed as far as it parses.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.PARSED);
	}

	@Override
	public void check(RuleContext ctx) {
		for (SyntaxProblem p : ctx.file().problems()) {
			ctx.report(new Span(p.offset(), p.offset() + p.length()), p.message());
		}
	}
}
