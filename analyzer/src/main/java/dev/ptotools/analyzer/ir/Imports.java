package dev.ptotools.analyzer.ir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a module's imports bind, so that a name is resolved to the object pypto really exports
 * whatever it is spelled: {@code pl.jit}, {@code jit} after {@code from pypto.jit import jit} or
 * {@code from pypto.jit.decorator import jit}, {@code pypto.language.jit} after
 * {@code import pypto.language}, {@code window} after {@code from pypto.language.distributed import
 * window}... all become the catalog's spelling ({@code pl.jit}, {@code pld.tensor.window}'s alias
 * {@code pld.window}).
 *
 * @param bindings each local name bound by an import, to the dotted path of what it denotes
 *        ({@code "pl" -> "pypto.language"}, {@code "jit" -> "pypto.jit.jit"}, {@code "pypto" -> "pypto"})
 */
public record Imports(Map<String, String> bindings) {

	/**
	 * Where pypto's public objects live and the catalog prefix they have there, longest path first
	 * (python/pypto/language/__init__.py, language/distributed/__init__.py and op/__init__.py,
	 * jit/__init__.py, language/parser/__init__.py). {@code true} marks the modules the catalog lists
	 * in full, where an unknown member is an error; in the others (pypto.jit, the parser...) only the
	 * members pl re-exports are pypto's DSL.
	 */
	private static final List<Object[]> MODULES = List.of(
			new Object[] { "pypto.language.distributed.op.tensor_ops", "pld.tensor", true },
			new Object[] { "pypto.language.distributed.op.system_ops", "pld.system", true },
			new Object[] { "pypto.language.distributed.op.tile_ops", "pld.tile", true },
			new Object[] { "pypto.language.distributed.op.unified_ops", "pld", false },
			new Object[] { "pypto.language.distributed.op", "pld", true },
			new Object[] { "pypto.language.distributed.typing", "pld", false },
			new Object[] { "pypto.language.distributed", "pld", true },
			new Object[] { "pypto.language.op.tensor_ops", "pl.tensor", true },
			new Object[] { "pypto.language.op.tile_ops", "pl.tile", true },
			new Object[] { "pypto.language.op.system_ops", "pl.system", true },
			new Object[] { "pypto.language.op.array_ops", "pl.array", true },
			new Object[] { "pypto.language.op.prefetch_ops", "pl.prefetch", true },
			new Object[] { "pypto.language.op.unified_ops", "pl", false },
			new Object[] { "pypto.language.parser.decorator", "pl", false },
			new Object[] { "pypto.language.parser.text_parser", "pl", false },
			new Object[] { "pypto.language.parser", "pl", false },
			new Object[] { "pypto.language.dsl_api", "pl", false },
			new Object[] { "pypto.language.scope", "pl", false },
			new Object[] { "pypto.language.typing", "pl", false },
			new Object[] { "pypto.language.arg_direction", "pl.adir", true },
			new Object[] { "pypto.language", "pl", true },
			new Object[] { "pypto.jit.decorator", "pl", false },
			new Object[] { "pypto.jit", "pl", false });

	public Imports {
		bindings = Map.copyOf(bindings);
	}

	/** The bindings the analyzer assumed before it read imports: {@code pl} and {@code pld} (either may be null). */
	public static Imports of(String pl, String pld) {
		Map<String, String> b = new HashMap<>();
		if (pl != null) {
			b.put(pl, "pypto.language");
		}
		if (pld != null) {
			b.put(pld, "pypto.language.distributed");
		}
		return new Imports(b);
	}

	/**
	 * The dotted path a written name denotes ({@code "pl.range"} gives {@code "pypto.language.range"}),
	 * or null when its first part is not bound by an import.
	 */
	public String qualified(String dotted) {
		if (dotted == null) {
			return null;
		}
		String best = null;
		for (String k : bindings.keySet()) {
			if ((dotted.equals(k) || dotted.startsWith(k + ".")) && (best == null || k.length() > best.length())) {
				best = k;
			}
		}
		return best == null ? null : bindings.get(best) + dotted.substring(best.length());
	}

	/**
	 * The catalog's spelling of a written name ({@code "pl.range"}, {@code "pld.window"},
	 * {@code "pl.jit.host"}), or null when it does not denote one of pypto's public objects. A name in
	 * a module the catalog lists in part keeps its spelling too; {@link #complete} tells them apart.
	 */
	public String normalize(String dotted) {
		String q = qualified(dotted);
		Object[] m = module(q);
		return m == null ? null : m[1] + q.substring(((String) m[0]).length());
	}

	/** Whether a name comes from a module the catalog lists in full, so an unknown member is an error. */
	public boolean complete(String dotted) {
		Object[] m = module(qualified(dotted));
		return m != null && (Boolean) m[2];
	}

	private static Object[] module(String qualified) {
		if (qualified == null) {
			return null;
		}
		for (Object[] m : MODULES) {
			String path = (String) m[0];
			// no path + "." per entry: lookups run for every name the passes resolve
			if (qualified.startsWith(path)
					&& (qualified.length() == path.length() || qualified.charAt(path.length()) == '.')) {
				return m;
			}
		}
		return null;
	}
}
