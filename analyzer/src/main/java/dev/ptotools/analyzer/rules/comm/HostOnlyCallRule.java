package dev.ptotools.analyzer.rules.comm;

import dev.ptotools.analyzer.facts.CommDomains;

/** PTO208: pld.alloc_window_buffer or pld.world_size used outside its place */
public final class HostOnlyCallRule extends CommProblemRule {

	public HostOnlyCallRule() {
		super(CommDomains.Kind.ALLOC_CONTEXT);
	}

	@Override
	public String id() {
		return "PTO208";
	}

	@Override
	public String name() {
		return "host-only-call";
	}

	@Override
	public String title() {
		return "pld.alloc_window_buffer or pld.world_size used outside its place";
	}

	@Override
	public String description() {
		return "Window buffers are allocated, and the world size is known, only in a HOST orchestrator, and an allocation must be bound to a variable by a simple assignment without name=.";
	}
}
