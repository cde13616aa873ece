package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO202: Window buffer is not consumed by any chip dispatch */
public final class UnconsumedWindowRule extends CommProblemRule {

	public UnconsumedWindowRule() {
		super(CommDomains.Kind.UNCONSUMED_WINDOW);
	}

	@Override
	public String id() {
		return "PTO202";
	}

	@Override
	public String name() {
		return "window-not-consumed";
	}

	@Override
	public String title() {
		return "Window buffer is not consumed by any chip dispatch";
	}

	@Override
	public String description() {
		return "A window buffer belongs to the comm domain of the chip dispatches that receive its views with device=. A buffer whose views no device= dispatch receives has no domain, and pypto rejects it.";
	}

	/** That no dispatch of the function consumes the buffer: a repaired statement may be one. */
	@Override
	public Extent extent() {
		return Extent.FUNCTION;
	}
}
