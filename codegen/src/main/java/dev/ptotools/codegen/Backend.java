package dev.ptotools.codegen;

/** pypto's BackendType: decides the launch-spec method name and the meta JSON's backend_type. */
public enum Backend {
	ASCEND_910B("Ascend910B", "set_block_num"), ASCEND_950("Ascend950", "set_core_num");

	private final String typeName;
	private final String launchCoreCountMethod;

	Backend(String typeName, String launchCoreCountMethod) {
		this.typeName = typeName;
		this.launchCoreCountMethod = launchCoreCountMethod;
	}

	/** The BackendType enum name pypto records ("Ascend910B"). */
	public String typeName() {
		return typeName;
	}

	public String launchCoreCountMethod() {
		return launchCoreCountMethod;
	}

	public static Backend parse(String text) {
		for (Backend b : values()) {
			if (b.typeName.equalsIgnoreCase(text) || b.name().equalsIgnoreCase(text)) {
				return b;
			}
		}
		throw new IllegalArgumentException("Unknown backend '" + text + "' (expected Ascend910B or Ascend950)");
	}
}
