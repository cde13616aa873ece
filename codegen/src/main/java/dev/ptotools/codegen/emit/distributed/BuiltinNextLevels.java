package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import dev.ptotools.codegen.BuiltinTemplates;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The {@code next_levels/<variant>/} chip builds of the builtin collectives host_orch.py dispatches, as
 * pypto's backend materializes them (pto_backend.py, _materialize_builtin_next_levels): for each spec, in
 * the order of first dispatch, every file of the package's templates folder whose name ends in
 * {@code .in}, in name order, with each {@code {{key}}} replaced by its variable (variant, entry,
 * kernel_name, template_package, runtime, then the op's own variables, which win), written to
 * {@code orchestration/<entry>.cpp} (entry.cpp.in), {@code kernels/aiv/<kernel_name>.cpp} (kernel.cpp.in),
 * {@code kernel_config.py} (kernel_config.py.in), else the name without {@code .in}.
 *
 * <p>Needs: the specs of {@link DistributedCodegen} and the templates of the pypto package of the project.
 * Produces: the files, or a {@link CodegenException#unsupported} naming the first collective whose
 * templates are not found (the build would not run without them: no folder is written in part).
 */
public final class BuiltinNextLevels {

	private BuiltinNextLevels() {
	}

	public static List<GeneratedFile> render(String out, List<BuiltinNextLevelSpec> specs, Runtime runtime,
			BuiltinTemplates source) {
		List<GeneratedFile> files = new ArrayList<>();
		for (BuiltinNextLevelSpec spec : specs) {
			SortedMap<String, String> templates = source.templates(spec.templatePackage());
			if (templates == null) {
				throw CodegenException.unsupported("the build of " + spec.opName() + " (next_levels/" + spec.variant()
						+ "/) is rendered from pypto's templates (" + spec.templatePackage() + "/templates), which were not found: "
						+ source.whereLooked() + "; set pypto-package in [tool.pto] (or --pypto-package) to the folder of pypto's Python package",
						spec.span());
			}
			Map<String, String> vars = variables(spec, runtime);
			templates.forEach((name, text) -> {
				if (name.endsWith(".in")) {
					files.add(new GeneratedFile(out + "/next_levels/" + spec.variant() + "/" + outputPath(name, vars),
							render(text, vars)));
				}
			});
		}
		return files;
	}

	static Map<String, String> variables(BuiltinNextLevelSpec spec, Runtime runtime) {
		Map<String, String> vars = new LinkedHashMap<>();
		vars.put("variant", spec.variant());
		vars.put("entry", spec.entrySymbol());
		vars.put("kernel_name", spec.entrySymbol() + "_kernel");
		vars.put("template_package", spec.templatePackage());
		vars.put("runtime", runtime.wireName());
		vars.putAll(spec.templateVars());
		return vars;
	}

	/** pypto's replacement: each variable in insertion order over the text so far (a value may hold a key). */
	static String render(String text, Map<String, String> vars) {
		String s = text;
		for (Map.Entry<String, String> v : vars.entrySet()) {
			s = s.replace("{{" + v.getKey() + "}}", v.getValue());
		}
		return s;
	}

	static String outputPath(String template, Map<String, String> vars) {
		return switch (template) {
		case "entry.cpp.in" -> "orchestration/" + vars.get("entry") + ".cpp";
		case "kernel.cpp.in" -> "kernels/aiv/" + vars.get("kernel_name") + ".cpp";
		case "kernel_config.py.in" -> "kernel_config.py";
		default -> template.substring(0, template.length() - ".in".length());
		};
	}
}
