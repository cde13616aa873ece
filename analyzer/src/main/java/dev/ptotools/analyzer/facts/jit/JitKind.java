package dev.ptotools.analyzer.facts.jit;

import dev.ptotools.analyzer.ir.Function;

/**
 * What a {@code @pl.jit...} decorator makes of a function (pypto's {@code JITFunction._func_type}): the
 * two entry kinds ({@code @pl.jit}, {@code @pl.jit.host}) and the sub-function kinds a JIT program pulls
 * in by bare-name calls.
 */
public enum JitKind {
	ORCHESTRATION("orchestration"), HOST("host"), INCORE("incore"), INLINE("inline"), OPAQUE("opaque"),
	EXTERN("extern");

	private final String pyName;

	JitKind(String pyName) {
		this.pyName = pyName;
	}

	/** pypto's spelling ("orchestration", "incore"...). */
	public String pyName() {
		return pyName;
	}

	/** Whether the kind compiles as a program of its own when it is called from Python. */
	public boolean entry() {
		return this == ORCHESTRATION || this == HOST;
	}

	/**
	 * The jit kind of a function from its decorator ({@code @pl.jit}, {@code @pl.jit(auto_scope=False)},
	 * {@code @pl.jit.incore(level=...)}...), or null when it is not a {@code @pl.jit} function (a module
	 * {@code @pl.function}, say).
	 */
	public static JitKind of(Function f, String pl) {
		String text = f.decl().decoratorText();
		if (text == null) {
			return null;
		}
		text = text.strip();
		if (text.startsWith("@")) {
			text = text.substring(1).strip();
		}
		int paren = text.indexOf('(');
		String head = (paren < 0 ? text : text.substring(0, paren)).replaceAll("\\s+", "");
		String prefix = (pl == null ? "pl" : pl) + ".";
		if (!head.startsWith(prefix)) {
			return null;
		}
		return switch (head.substring(prefix.length())) {
		case "jit" -> ORCHESTRATION;
		case "jit.host" -> HOST;
		case "jit.incore" -> INCORE;
		case "jit.inline" -> INLINE;
		case "jit.opaque" -> OPAQUE;
		case "jit.extern" -> EXTERN;
		default -> null;
		};
	}
}
