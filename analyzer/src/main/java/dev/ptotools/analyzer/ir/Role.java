package dev.ptotools.analyzer.ir;

/** pypto's function roles; there is no Worker role. */
public enum Role {
	Orchestrator, SubWorker;

	public static Role named(String name) {
		for (Role r : values()) {
			if (r.name().equals(name)) {
				return r;
			}
		}
		return null;
	}
}
