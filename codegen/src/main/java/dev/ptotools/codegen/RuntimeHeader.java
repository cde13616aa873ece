package dev.ptotools.codegen;

/**
 * Which runtime header the chip orchestration C++ includes. simpler's header is
 * {@code pto_orchestration_api.h} today and is being renamed to {@code orchestration_api.h}.
 */
public enum RuntimeHeader {
	/** Prefer {@code orchestration_api.h}, fall back to {@code pto_orchestration_api.h} at compile time. */
	FALLBACK,
	/** Plain {@code #include "pto_orchestration_api.h"}: pypto's current output, byte for byte. */
	PTO_ORCHESTRATION_API,
	/** Plain {@code #include "orchestration_api.h"}. */
	ORCHESTRATION_API;

	/** The include block, ending in a newline. */
	public String includeBlock() {
		return switch (this) {
		case PTO_ORCHESTRATION_API -> "#include \"pto_orchestration_api.h\"\n";
		case ORCHESTRATION_API -> "#include \"orchestration_api.h\"\n";
		// __has_include is C++17; the outer guard keeps older compilers on the current name.
		case FALLBACK -> "#if defined(__has_include)\n" + "#if __has_include(\"orchestration_api.h\")\n"
				+ "#include \"orchestration_api.h\"\n" + "#else\n" + "#include \"pto_orchestration_api.h\"\n"
				+ "#endif\n" + "#else\n" + "#include \"pto_orchestration_api.h\"\n" + "#endif\n";
		};
	}

	/** Parses "fallback", "pto" / "pto_orchestration_api.h", "plain" / "orchestration_api.h". */
	public static RuntimeHeader parse(String text) {
		return switch (text) {
		case "fallback", "auto" -> FALLBACK;
		case "pto", "pto_orchestration_api", "pto_orchestration_api.h" -> PTO_ORCHESTRATION_API;
		case "plain", "orchestration_api", "orchestration_api.h" -> ORCHESTRATION_API;
		default -> throw new IllegalArgumentException(
				"Unknown runtime header '" + text + "' (expected fallback, pto or plain)");
		};
	}
}
