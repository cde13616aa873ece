package dev.ptotools.analyzer.lower;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.language.python.Alias;
import dev.ptotools.language.python.Import;
import dev.ptotools.language.python.ImportFrom;
import dev.ptotools.language.python.Statement;

/**
 * Reads a file's imports of pypto: what each binds (in any block: imports inside test functions count
 * for the whole file), the names pypto.language and pypto.language.distributed go by, and whether the
 * file imports pypto's DSL at all (pypto, pypto.language..., pypto.jit...).
 */
final class ImportScan {

	private final Map<String, String> bindings = new HashMap<>();
	private String pl;
	private String pld;
	private boolean importsPypto;

	private ImportScan() {
	}

	/**
	 * @param predefined names the namespace binds before the file's own imports run (DSL text given to
	 *        pl.parse runs with pl and pld bound); they count as importing pypto
	 */
	static ImportScan of(List<Statement> body, Map<String, String> predefined) {
		ImportScan scan = new ImportScan();
		scan.bindings.putAll(predefined);
		for (Map.Entry<String, String> e : predefined.entrySet()) {
			scan.importsPypto = true;
			scan.named(e.getKey(), e.getValue());
		}
		scan.scan(body);
		return scan;
	}

	Imports imports() {
		return new Imports(bindings);
	}

	String pl() {
		return pl;
	}

	String pld() {
		return pld;
	}

	boolean importsPypto() {
		return importsPypto;
	}

	private void scan(List<Statement> body) {
		for (Statement s : body) {
			if (s instanceof Import imp) {
				for (Alias a : imp.getNames()) {
					String name = a.getName();
					if ("math".equals(name)) { // its constants fold (math.inf as a fillpad pad_value)
						bindings.put(a.getAsname() != null ? a.getAsname() : name, name);
						continue;
					}
					if (name == null || !isPypto(name)) {
						continue;
					}
					if (a.getAsname() != null) {
						bindings.put(a.getAsname(), name);
						named(a.getAsname(), name);
					} else {
						bindings.put("pypto", "pypto"); // import pypto.language binds pypto
						named(name, name); // and is written pypto.language.x
					}
					importsPypto |= isDslModule(name);
				}
			} else if (s instanceof ImportFrom from && from.getDots().isEmpty()) {
				String module = from.getModule();
				if ("math".equals(module)) {
					for (Alias a : from.getNames()) {
						if (a.getName() != null && !a.getName().equals("*")) {
							bindings.put(a.getAsname() != null ? a.getAsname() : a.getName(), "math." + a.getName());
						}
					}
					continue;
				}
				if (module == null || !isPypto(module)) {
					continue;
				}
				for (Alias a : from.getNames()) {
					if (a.getName() == null || a.getName().equals("*")) {
						continue;
					}
					String path = module + "." + a.getName();
					String local = a.getAsname() != null ? a.getAsname() : a.getName();
					bindings.put(local, path);
					named(local, path);
					importsPypto |= isDslModule(path) || isDslModule(module) && !module.equals("pypto");
				}
			}
			for (List<Statement> inner : ModuleLowering.blocksOf(s)) {
				scan(inner);
			}
		}
	}

	/** Remembers the name the two DSL modules are written with, for the code fixes write. */
	private void named(String local, String path) {
		if ("pypto.language".equals(path)) {
			pl = local;
		} else if ("pypto.language.distributed".equals(path)) {
			pld = local;
		}
	}

	private static boolean isPypto(String module) {
		return module.equals("pypto") || module.startsWith("pypto.");
	}

	/** pypto itself, pypto.language and below, pypto.jit and below: the DSL's import paths. */
	private static boolean isDslModule(String module) {
		return module.equals("pypto") || module.equals("pypto.language") || module.startsWith("pypto.language.")
				|| module.equals("pypto.jit") || module.startsWith("pypto.jit.");
	}
}
