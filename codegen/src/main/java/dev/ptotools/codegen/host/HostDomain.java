package dev.ptotools.codegen.host;

import java.util.List;

/**
 * A comm domain of the host body: {@code with (_domain_provider or orch.allocate_domain)(...) as
 * __comm_d<i>:}; workers empty means every rank ({@code *range(world_size)}).
 */
record HostDomain(int index, List<Long> workers, List<HostSlot> slots) {

	String name() {
		return "comm_d" + index;
	}

	String handle() {
		return "__comm_d" + index;
	}
}
