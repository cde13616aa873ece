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
	/**
	 * InlineFunctions' {@code _inline<K>} counter. pypto keeps it in a function-local static, so it counts
	 * across every compilation of the process; share one context across the programs of one compilation
	 * to get pypto's numbers for a file with several programs.
	 */
	private int inlineCounter;

	public PassContext(Backend backend) {
		this.backend = backend;
	}

	public Backend backend() {
		return backend;
	}

	/** The next number of InlineFunctions' renamed locals ({@code y_inline0}, {@code y_inline1}, ...). */
	public int nextInlineNumber() {
		return inlineCounter++;
	}

	public void warn(String message) {
		warnings.add(message);
	}

	public List<String> warnings() {
		return List.copyOf(warnings);
	}
}
