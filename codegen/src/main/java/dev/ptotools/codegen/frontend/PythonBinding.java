package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.ir.Expr;

/**
 * A call of one of pypto's op wrappers bound to the wrapper's Python signature, as CPython binds it
 * before the wrapper runs: too many positional arguments, an unknown keyword, a parameter given twice
 * and a missing required one are TypeErrors with CPython's wording, which pypto's parser reports as the
 * op's error ("Error in pld operation 'world_size': world_size() takes 0 positional arguments but 1 was
 * given").
 *
 * <p>Needs: the wrapper's signature from the catalog (generated from pypto's Python sources). A call with
 * {@code *args} or {@code **kwargs} is not judged. Produces: nothing, or an {@link IrTypeError}.
 */
final class PythonBinding {

	private PythonBinding() {
	}

	static void check(Expr.Call c, Builtin b) {
		if (c.args().stream().anyMatch(a -> a instanceof Expr.Starred) || c.keywords().stream().anyMatch(k -> k.name() == null)) {
			return;
		}
		String fname = b.name().substring(b.name().lastIndexOf('.') + 1);
		List<Builtin.BuiltinParam> positional = new ArrayList<>();
		Set<String> names = new HashSet<>();
		boolean varargs = false;
		boolean kwargs = false;
		for (Builtin.BuiltinParam p : b.params()) {
			switch (p.kind()) {
			case "positional" -> {
				positional.add(p);
				names.add(p.name());
			}
			case "keyword" -> names.add(p.name());
			case "varargs" -> varargs = true;
			case "kwargs" -> kwargs = true;
			default -> {
				return; // a kind this check does not know: no judgement
			}
			}
		}
		int given = c.args().size();
		if (!varargs && given > positional.size()) {
			long required = positional.stream().filter(Builtin.BuiltinParam::required).count();
			String takes = required == positional.size() ? String.valueOf(positional.size())
					: "from " + required + " to " + positional.size();
			throw new IrTypeError(fname + "() takes " + takes + " positional argument"
					+ (positional.size() == 1 && required == 1 ? "" : "s") + " but " + given + (given == 1 ? " was" : " were")
					+ " given");
		}
		Set<String> bound = new HashSet<>();
		for (int i = 0; i < Math.min(given, positional.size()); i++) {
			bound.add(positional.get(i).name());
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name().equals("attrs")) {
				continue; // the parser takes an op call's attrs= itself (printed IR carries them)
			}
			if (!names.contains(k.name())) {
				if (!kwargs) {
					throw new IrTypeError(fname + "() got an unexpected keyword argument '" + k.name() + "'");
				}
				continue;
			}
			if (!bound.add(k.name())) {
				throw new IrTypeError(fname + "() got multiple values for argument '" + k.name() + "'");
			}
		}
		List<String> missing = new ArrayList<>();
		List<String> missingKeyword = new ArrayList<>();
		for (Builtin.BuiltinParam p : b.params()) {
			if (p.required() && !bound.contains(p.name())) {
				(p.kind().equals("keyword") ? missingKeyword : missing).add("'" + p.name() + "'");
			}
		}
		if (!missing.isEmpty()) {
			throw new IrTypeError(fname + "() missing " + missing.size() + " required positional argument"
					+ (missing.size() == 1 ? "" : "s") + ": " + join(missing));
		}
		if (!missingKeyword.isEmpty()) {
			throw new IrTypeError(fname + "() missing " + missingKeyword.size() + " required keyword-only argument"
					+ (missingKeyword.size() == 1 ? "" : "s") + ": " + join(missingKeyword));
		}
	}

	/** CPython's list of names: 'a', 'a' and 'b', 'a', 'b', and 'c'. */
	private static String join(List<String> names) {
		if (names.size() == 1) {
			return names.get(0);
		}
		if (names.size() == 2) {
			return names.get(0) + " and " + names.get(1);
		}
		return String.join(", ", names.subList(0, names.size() - 1)) + ", and " + names.get(names.size() - 1);
	}
}
