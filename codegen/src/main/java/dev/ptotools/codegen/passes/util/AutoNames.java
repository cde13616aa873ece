package dev.ptotools.codegen.passes.util;

import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's auto-name grammar for compiler-made variable names (include/pypto/ir/transforms/utils/
 * auto_name_utils.h): {@code base + "__" + [qualifier "_"] + [role "_"] + "v" + N}, e.g. {@code x__ssa_v0},
 * {@code acc__rv_v2}, {@code t__tmp_v0}, {@code out__l0_rv_v3}. The first {@code "__"} separates the
 * user's base name from the suffix, so a base may never contain {@code "__"}. Every pass that invents
 * or re-versions names goes through here so the spelling matches pypto's byte for byte.
 */
public final class AutoNames {

	/** Roles pypto knows (a trailing token of the suffix that names what made the variable). */
	public static final Set<String> ROLES = Set.of("ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx");

	private AutoNames() {
	}

	/**
	 * A name split into its parts. {@code hasAutoSuffix} says the name contains {@code "__"}; role and
	 * version are null when absent, qualifier is empty when absent.
	 */
	public record Parsed(String base, String qualifier, String role, Integer version, boolean hasAutoSuffix) {
	}

	/**
	 * pypto's {@code BuildName}: {@code base} alone when there is no qualifier, role or version, else
	 * {@code base__[qualifier_][role_][vN]}. Throws pypto's ValueError when the base contains "__".
	 */
	public static String build(String base, String qualifier, String role, Integer version) {
		if (base.contains("__")) {
			throw new CodegenException("IR auto-name base cannot contain reserved delimiter '__': " + base, Span.NONE);
		}
		boolean hasQualifier = qualifier != null && !qualifier.isEmpty();
		if (!hasQualifier && role == null && version == null) {
			return base;
		}
		StringBuilder suffix = new StringBuilder();
		if (hasQualifier) {
			suffix.append(qualifier);
		}
		if (role != null) {
			suffix.append(suffix.length() > 0 ? "_" : "").append(role);
		}
		if (version != null) {
			suffix.append(suffix.length() > 0 ? "_" : "").append('v').append(version);
		}
		return base + "__" + suffix;
	}

	/** {@code base__role_vN}. */
	public static String build(String base, String role, int version) {
		return build(base, "", role, version);
	}

	/** pypto's {@code Parse}: the base (text before the first "__"), then version, role, qualifier from the end. */
	public static Parsed parse(String name) {
		int boundary = name.indexOf("__");
		if (boundary < 0) {
			return new Parsed(name, "", null, null, false);
		}
		String base = name.substring(0, boundary);
		String suffix = name.substring(boundary + 2);
		Integer version = null;
		String role = null;
		int sep = suffix.lastIndexOf('_');
		String last = sep >= 0 ? suffix.substring(sep + 1) : suffix;
		if (isVersionToken(last)) {
			version = Integer.parseInt(last.substring(1));
			suffix = sep >= 0 ? suffix.substring(0, sep) : "";
		}
		sep = suffix.lastIndexOf('_');
		last = sep >= 0 ? suffix.substring(sep + 1) : suffix;
		if (!last.isEmpty() && ROLES.contains(last)) {
			role = last;
			suffix = sep >= 0 ? suffix.substring(0, sep) : "";
		}
		return new Parsed(base, suffix, role, version, true);
	}

	private static boolean isVersionToken(String t) {
		if (t.length() < 2 || t.charAt(0) != 'v') {
			return false;
		}
		for (int i = 1; i < t.length(); i++) {
			if (!Character.isDigit(t.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The user's name behind a compiler name: the text before the first "__" ({@code x__ssa_v3} -> {@code x}).
	 * pypto's {@code GetCompatibleBaseName}, which orchestration codegen calls {@code GetSSABaseName}.
	 */
	public static String baseName(String name) {
		return parse(name).base();
	}

	/**
	 * The name of version {@code version} in role {@code role} of the variable named {@code name}
	 * (ConvertToSSA's {@code BuildAutoNamedVersion}): an existing auto suffix with a role or version is
	 * replaced, its qualifier kept ({@code out__l0_rv_v3} -> {@code out__l0_ssa_v0}); any other name is
	 * the base as a whole ({@code y_inline0} -> {@code y_inline0__ssa_v0}).
	 */
	public static String versioned(String name, String role, int version) {
		Parsed p = parse(name);
		if (p.hasAutoSuffix() && (p.role() != null || p.version() != null)) {
			return build(p.base(), p.qualifier(), role, version);
		}
		return build(name, "", role, version);
	}

	/** pypto's {@code AddQualifier}: the qualifier goes in front of an existing one. */
	public static String addQualifier(String name, String qualifier) {
		Parsed p = parse(name);
		if (!p.hasAutoSuffix()) {
			return build(p.base(), qualifier, null, null);
		}
		String combined = p.qualifier().isEmpty() ? qualifier : qualifier + "_" + p.qualifier();
		return build(p.base(), combined, p.role(), p.version());
	}

	/** pypto's {@code ReplaceRole}. */
	public static String replaceRole(String name, String role) {
		Parsed p = parse(name);
		return build(p.base(), p.qualifier(), role, p.version());
	}

	/** pypto's {@code WithVersion}. */
	public static String withVersion(String name, int version) {
		Parsed p = parse(name);
		return build(p.base(), p.qualifier(), p.role(), version);
	}

	/**
	 * pypto's {@code ReserveUniqueName}: {@code base}, else {@code base_1}, {@code base_2}, ... — the first
	 * one not in {@code used}, which is added to {@code used}.
	 */
	public static String reserveUnique(String base, Set<String> used) {
		String candidate = base;
		int n = 0;
		while (!used.add(candidate)) {
			candidate = base + "_" + ++n;
		}
		return candidate;
	}
}
