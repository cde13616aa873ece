package dev.ptotools.codegen.passes.util;

import java.util.Set;

/**
 * The parts of pypto's auto-name grammar ({@code include/pypto/ir/transforms/utils/auto_name_utils.h},
 * {@code base__[qualifier_][role_][vN]}) the outlining and kernel passes need: building names such as
 * {@code ret0__out} or {@code c__store} and minting the next free SSA version of a name.
 *
 * <p>Kept private to the outlining passes because the general utility (passes/util/AutoNames) was being
 * written in parallel on another branch; both follow the same header, so callers can switch.
 */
public final class OutlineNames {

	private static final Set<String> ROLES = Set.of("ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx");

	private OutlineNames() {
	}

	/** A parsed name: base, qualifier (may be empty), role and version (null when absent). */
	public record Parsed(String base, String qualifier, String role, Integer version, boolean hasAutoSuffix) {
	}

	public static Parsed parse(String name) {
		int boundary = name.indexOf("__");
		if (boundary < 0) {
			return new Parsed(name, "", null, null, false);
		}
		String base = name.substring(0, boundary);
		String suffix = name.substring(boundary + 2);
		Integer version = null;
		int lastSep = suffix.lastIndexOf('_');
		String last = lastSep >= 0 ? suffix.substring(lastSep + 1) : suffix;
		if (isVersion(last)) {
			version = Integer.parseInt(last.substring(1));
			suffix = lastSep >= 0 ? suffix.substring(0, lastSep) : "";
		}
		String role = null;
		lastSep = suffix.lastIndexOf('_');
		String cand = lastSep >= 0 ? suffix.substring(lastSep + 1) : suffix;
		if (!suffix.isEmpty() && ROLES.contains(cand)) {
			role = cand;
			suffix = lastSep >= 0 ? suffix.substring(0, lastSep) : "";
		}
		return new Parsed(base, suffix, role, version, true);
	}

	private static boolean isVersion(String token) {
		if (token.length() < 2 || token.charAt(0) != 'v') {
			return false;
		}
		for (int i = 1; i < token.length(); i++) {
			if (!Character.isDigit(token.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/** pypto's BuildName: {@code base} alone when nothing else is given, else {@code base__q_role_vN}. */
	public static String build(String base, String qualifier, String role, Integer version) {
		if (qualifier.isEmpty() && role == null && version == null) {
			return base;
		}
		StringBuilder suffix = new StringBuilder(qualifier);
		if (role != null) {
			if (suffix.length() > 0) {
				suffix.append('_');
			}
			suffix.append(role);
		}
		if (version != null) {
			if (suffix.length() > 0) {
				suffix.append('_');
			}
			suffix.append('v').append(version);
		}
		return base + "__" + suffix;
	}

	public static String baseName(String name) {
		return parse(name).base();
	}

	/**
	 * pypto's GenerateFreshNameLike: the name's base, qualifier and role (role {@code ssa} when it has
	 * none) with the first version after the name's own (v0 when unversioned) that is not in used.
	 */
	public static String freshNameLike(String name, Set<String> used) {
		Parsed p = parse(name);
		String role = p.role() != null ? p.role() : "ssa";
		int next = (p.version() == null ? -1 : p.version()) + 1;
		String candidate;
		do {
			candidate = build(p.base(), p.qualifier(), role, next);
			next++;
		} while (used.contains(candidate));
		return candidate;
	}
}
