package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.ir.Function;

/**
 * sub_workers/&lt;name&gt;.py for a HOST-level SubWorker, as pypto's _emit_sub_worker_module writes it: the
 * user's body in {@code _user_<name>(params)} and a dispatcher {@code <name>(args)} that unpacks the mapped
 * tensors; a runtime-bound ({@code ...} body) SubWorker becomes a guard that raises. Parameter names are the
 * source names (ConvertToSSA leaves HOST SubWorkers alone).
 */
public final class SubWorkerModule {

	private SubWorkerModule() {
	}

	/** Whether a function gets a module: role SubWorker at a Linqu level of 3 or more. */
	public static boolean applies(Function f) {
		return WorkerDispatch.isSubWorker(f);
	}

	/** The path of a SubWorker's module relative to the program's output folder. */
	public static String path(String name) {
		return "sub_workers/" + name + ".py";
	}

	/**
	 * The module text.
	 *
	 * @param body the body's source, dedented (pypto's InlineStmt text), or null for a runtime-bound SubWorker
	 */
	public static String write(String name, List<String> params, String body) {
		if (body == null) {
			return "\"\"\"SubWorker: " + name + " \u2014 runtime-bound callback (no default impl).\"\"\"\n\n\n" + "def " + name
					+ "(args):\n" + "    raise RuntimeError(\n" + "        \"SubWorker '" + name
					+ "' is a runtime-bound callback with no \"\n" + "        \"default implementation; supply it via \"\n"
					+ "        \"prepare(callbacks={'" + name + "': <fn>}).\"\n" + "    )\n";
		}
		String list = String.join(", ", params);
		String indented = body.isEmpty() ? "    pass" : indent(body);
		StringBuilder unpack = new StringBuilder();
		for (int i = 0; i < params.size(); i++) {
			unpack.append(i > 0 ? "\n" : "").append("    ").append(params.get(i)).append(" = _tensor_from_continuous(args[")
					.append(i).append("])");
		}
		return "\"\"\"SubWorker: " + name + " \u2014 auto-generated, callable as fn(args: MappedArgs).\"\"\"\n\n"
				+ "import torch\n\n" + "from pypto.runtime.distributed_runner import _tensor_from_continuous\n\n\n"
				+ "def _user_" + name + "(" + list + "):\n" + indented + "\n\n\n" + "def " + name + "(args):\n"
				+ (unpack.length() == 0 ? "    pass" : unpack) + "\n" + "    _user_" + name + "(" + list + ")\n";
	}

	/** pypto's sub_workers/__required__.json: the runtime-bound SubWorkers' names, sorted; null when none. */
	public static String required(List<String> runtimeBound) {
		if (runtimeBound.isEmpty()) {
			return null;
		}
		List<Object> names = new ArrayList<>(runtimeBound);
		names.sort(null);
		return dev.ptotools.codegen.config.Json.dumps(names);
	}

	/** textwrap.indent(text, "    "): every line with non-whitespace text gets four spaces. */
	static String indent(String text) {
		List<String> out = new ArrayList<>();
		for (String line : text.split("\n", -1)) {
			out.add(line.isBlank() ? line : "    " + line);
		}
		return String.join("\n", out);
	}
}
