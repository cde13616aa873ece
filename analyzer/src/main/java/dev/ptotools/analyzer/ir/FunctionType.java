package dev.ptotools.analyzer.ir;

/** pypto's FunctionType, with the level and role each type implies (pypto's Function constructor). */
public enum FunctionType {
	Opaque(null, null), Orchestration(Level.CHIP, Role.Orchestrator), InCore(Level.CHIP_DIE, Role.SubWorker),
	AIC(Level.AIC, Role.SubWorker), AIV(Level.AIV, Role.SubWorker), Group(Level.CORE_GROUP, Role.SubWorker),
	Spmd(null, null), Inline(null, null), Graph(Level.CHIP, Role.Orchestrator);

	private final Level impliedLevel;
	private final Role impliedRole;

	FunctionType(Level level, Role role) {
		this.impliedLevel = level;
		this.impliedRole = role;
	}

	/** The level this type implies, or null when the type leaves the level as declared. */
	public Level impliedLevel() {
		return impliedLevel;
	}

	public Role impliedRole() {
		return impliedRole;
	}

	public static FunctionType named(String name) {
		for (FunctionType t : values()) {
			if (t.name().equals(name)) {
				return t;
			}
		}
		return null;
	}
}
