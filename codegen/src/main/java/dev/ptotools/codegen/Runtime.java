package dev.ptotools.codegen;

/** pypto's RuntimeKind: the simpler runtime a build targets, by its wire name. */
public enum Runtime {
	TENSORMAP_AND_RINGBUFFER("tensormap_and_ringbuffer"), HOST_BUILD_GRAPH("host_build_graph");

	private final String wireName;

	Runtime(String wireName) {
		this.wireName = wireName;
	}

	public String wireName() {
		return wireName;
	}

	/** pypto's runtime_kind_from_name. */
	public static Runtime fromName(String name) {
		for (Runtime r : values()) {
			if (r.wireName.equals(name)) {
				return r;
			}
		}
		throw new IllegalArgumentException("Unknown runtime '" + name + "'");
	}
}
