package dev.ptotools.codegen.chip;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * pypto's emit-name bookkeeping for one orchestration function: the emit name of each Var (params and
 * lineage first, reservations in body order), the set of declared names that {@code _1}, {@code _2}
 * suffixes avoid, and the {@code ext_} prefix of parameter names.
 */
final class ChipNames {

	private static final Set<String> ROLES = Set.of("ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx");

	final Map<OVar, String> emit = new IdentityHashMap<>();
	final Set<String> declared = new HashSet<>();
	final Set<String> params = new HashSet<>();

	/** The part of a name hint before the first "__" (pypto's GetSSABaseName). */
	static String baseName(String hint) {
		int at = hint.indexOf("__");
		return at < 0 ? hint : hint.substring(0, at);
	}

	/** Whether a hint's auto suffix carries the role "out" ({@code ret0__out}, {@code x__out_v1}). */
	static boolean hasOutRole(String hint) {
		int at = hint.indexOf("__");
		if (at < 0) {
			return false;
		}
		String suffix = hint.substring(at + 2);
		int sep = suffix.lastIndexOf('_');
		String last = sep < 0 ? suffix : suffix.substring(sep + 1);
		if (last.matches("v\\d+")) {
			suffix = sep < 0 ? "" : suffix.substring(0, sep);
			sep = suffix.lastIndexOf('_');
			last = sep < 0 ? suffix : suffix.substring(sep + 1);
		}
		return ROLES.contains(last) && "out".equals(last);
	}

	String varName(OVar v) {
		String n = emit.get(v);
		return n != null ? n : baseName(v.hint);
	}

	/** The emit name of a Var-valued expression, or "" (pypto's TryGetVarName). */
	String tryVarName(OExpr e) {
		return e instanceof OExpr.Ref r ? varName(r.var()) : "";
	}

	/** ext_ for names of parameters, the name otherwise. */
	String external(String name) {
		return params.contains(name) ? "ext_" + name : name;
	}

	/** pypto's ReserveVarEmitName. */
	String reserve(OVar v) {
		String existing = emit.get(v);
		if (existing != null) {
			return existing;
		}
		String base = baseName(v.hint);
		if (hasOutRole(v.hint) || declared.contains(base)) {
			base = v.hint;
		}
		String name = unique(base);
		emit.put(v, name);
		return name;
	}

	/** pypto's ReserveSyntheticEmitName: the base or base_1, base_2... */
	String reserveSynthetic(String base) {
		return unique(base);
	}

	private String unique(String base) {
		String candidate = base;
		for (int i = 1; !declared.add(candidate); i++) {
			candidate = base + "_" + i;
		}
		return candidate;
	}
}
