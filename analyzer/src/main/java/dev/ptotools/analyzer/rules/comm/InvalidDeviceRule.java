package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO203: device= is not a rank constant or the variable of a rank loop */
public final class InvalidDeviceRule extends CommProblemRule {

	public InvalidDeviceRule() {
		super(CommDomains.Kind.INVALID_DEVICE);
	}

	@Override
	public String id() {
		return "PTO203";
	}

	@Override
	public String name() {
		return "invalid-device";
	}

	@Override
	public String title() {
		return "device= is not a rank constant or the variable of a rank loop";
	}

	@Override
	public String description() {
		return "MaterializeCommDomainScopes resolves every device= to a set of ranks: a non-negative integer constant, or the variable of an enclosing pl.range(pld.world_size()) or pl.range(N) loop with step 1. Anything else is rejected.";
	}
}
