package dev.ptotools.codegen;

/** pypto's BackendType: decides the launch-spec method name and the meta JSON's backend_type. */
public enum Backend {
	ASCEND_910B("Ascend910B", "set_block_num", "a2a3sim"), ASCEND_950("Ascend950", "set_core_num", "a5sim");

	private final String typeName;
	private final String launchCoreCountMethod;
	private final String defaultSimPlatform;

	Backend(String typeName, String launchCoreCountMethod, String defaultSimPlatform) {
		this.typeName = typeName;
		this.launchCoreCountMethod = launchCoreCountMethod;
		this.defaultSimPlatform = defaultSimPlatform;
	}

	/** The platform pypto records when none is given (its backend handler's default simulator platform). */
	public String defaultSimPlatform() {
		return defaultSimPlatform;
	}

	/** The BackendType enum name pypto records ("Ascend910B"). */
	public String typeName() {
		return typeName;
	}

	public String launchCoreCountMethod() {
		return launchCoreCountMethod;
	}

	/** The backend a platform runs, as pypto's ir.compile picks it (a5, a5sim: Ascend950; else Ascend910B). */
	public static Backend ofPlatform(String platform) {
		return platform.startsWith("a5") ? ASCEND_950 : ASCEND_910B;
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
