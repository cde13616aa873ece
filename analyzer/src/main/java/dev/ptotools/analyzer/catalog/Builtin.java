package dev.ptotools.analyzer.catalog;

import java.util.List;

/**
 * A public member of pypto.language ({@code pl.}) or pypto.language.distributed ({@code pld.}):
 * an op, a loop form, a type, a dtype, an enum, a decorator.
 *
 * @param name canonical dotted name ("pld.tensor.window")
 * @param aliases other spellings that mean the same ("pld.window")
 * @param op the IR op id pypto builds ("tensor.slice"), null for non-ops; " | " joins alternatives
 * @param category what kind of member ("view", "collective", "control/loop", "dtype"...)
 * @param bytes the byte size of a dtype, else -1
 * @param memberValues for a plain class of int constants (pl.tile.MaskPattern), each member's value: pypto's
 *        parser reads {@code pl.tile.MaskPattern.P0101} as the int 1, not as an enum member
 * @param constant the int a module-level constant stands for ({@code pl.AUTO} is -1), else null
 */
public record Builtin(String name, List<String> aliases, List<BuiltinParam> params, String returns, String op,
		String category, String doc, List<String> members, int bytes, java.util.Map<String, Long> memberValues,
		Long constant) {

	public record BuiltinParam(String name, String kind, String defaultValue, boolean required) {
	}

	/** A signature a person reads: {@code pld.tensor.window(buf, shape, *, dtype)}. */
	public String signature() {
		StringBuilder b = new StringBuilder(name).append('(');
		boolean keywordOnly = false;
		for (int i = 0; i < params.size(); i++) {
			BuiltinParam p = params.get(i);
			if (i > 0) {
				b.append(", ");
			}
			if (p.kind().equals("keyword") && !keywordOnly) {
				b.append("*, ");
				keywordOnly = true;
			}
			if (p.kind().equals("varargs")) {
				b.append('*');
			}
			b.append(p.name());
			if (p.defaultValue() != null) {
				b.append('=').append(p.defaultValue());
			}
		}
		return b.append(')').toString();
	}

	public boolean isOp(String opId) {
		if (op == null) {
			return false;
		}
		// op is one id or "a | b"; a substring test on the bounds avoids splitting on every call
		int at = op.indexOf(opId);
		while (at >= 0) {
			int end = at + opId.length();
			boolean startOk = at == 0 || op.startsWith(" | ", at - 3);
			boolean endOk = end == op.length() || op.startsWith(" | ", end);
			if (startOk && endOk) {
				return true;
			}
			at = op.indexOf(opId, at + 1);
		}
		return false;
	}
}
