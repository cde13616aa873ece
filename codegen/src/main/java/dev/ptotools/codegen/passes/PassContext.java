package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.Backend;

/**
 * What a pass run knows beyond the program: the backend (Ascend910B needs GM pipe buffers and dual
 * AIV dispatch, Ascend950 does not) and the warnings passes report (pypto's pass diagnostics).
 */
public final class PassContext {

	private final Backend backend;
	private final List<String> warnings = new ArrayList<>();

	public PassContext(Backend backend) {
		this.backend = backend;
	}

	public Backend backend() {
		return backend;
	}

	public void warn(String message) {
		warnings.add(message);
	}

	public List<String> warnings() {
		return List.copyOf(warnings);
	}
}
