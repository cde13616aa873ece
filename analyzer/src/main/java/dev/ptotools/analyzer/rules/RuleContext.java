package dev.ptotools.analyzer.rules;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.ParsedFile;

/** What a rule sees: the facts and the source; and where it reports. */
public final class RuleContext {

	/** Receives findings. */
	public interface Sink {
		void accept(Diagnostic d);
	}

	private final Rule rule;
	private final Facts facts;
	private final Sink sink;

	public RuleContext(Rule rule, Facts facts, Sink sink) {
		this.rule = rule;
		this.facts = facts;
		this.sink = sink;
	}

	public <T> T get(Key<T> key) {
		return facts.get(key);
	}

	public ParsedFile file() {
		return facts.get(Keys.PARSED);
	}

	public String text() {
		return file().text();
	}

	public void report(Span span, String message) {
		report(span, message, List.of(), List.of());
	}

	public void report(Span span, String message, List<Diagnostic.Related> related, List<Fix> fixes) {
		sink.accept(new Diagnostic(rule.id(), rule.defaultSeverity(), message, span, related, fixes));
	}
}
