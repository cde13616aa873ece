package dev.ptotools.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlTable;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.config.RuleSelectors;
import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * The {@code [tool.pto]} table of the nearest pyproject.toml, shared by the CLI and the language
 * server (where the editor's settings override it, as command-line flags do in the CLI):
 *
 * <pre>
 * [tool.pto]
 * output = "build_output"            # where compile writes, relative to pyproject.toml
 * codegen-on-save = true             # the language server compiles on save
 * runtime-header = "fallback"        # fallback | pto_orchestration_api | orchestration_api
 * runtime = "tensormap_and_ringbuffer" # or host_build_graph (pypto's RuntimeKind)
 * platform = "a2a3sim"               # a2a3sim | a2a3 | a5sim | a5 (selects the backend)
 * backend = "Ascend910B"             # Ascend910B | Ascend950
 * device-ids = [0, 1]                # DistributedConfig device ids: the ranks of a distributed program
 * grouped-dispatch = true            # publish grouped rank loops to all ranks as one group
 * select = ["PTO1", "PTO2"]          # only these rules (ids, id prefixes or names)
 * disable = ["grouped-dispatch"]     # never these
 * severity = { PTO105 = "error" }    # per-rule severity (error, warning, info, hint)
 * exclude = ["tests/fixtures/**"]    # globs, relative to pyproject.toml, that check skips
 * fail-on = "error"                  # check's threshold: error | warning | info | never
 * show-info = false                  # check: info findings also as GitHub annotations and SARIF results
 * respect-gitignore = true           # folder walks skip what git ignores
 * </pre>
 *
 * Unknown keys and wrong types are reported as problems, not errors: a broken configuration must
 * not stop the editor.
 */
public record ProjectConfig(Path root, AnalyzerConfig analyzer, Optional<String> output,
		Optional<Boolean> codegenOnSave, CompileSettings compile, List<String> exclude, Optional<String> failOn,
		Optional<Boolean> showInfo, Optional<Boolean> respectGitignore, List<String> problems) {

	public static final ProjectConfig NONE = new ProjectConfig(null, AnalyzerConfig.DEFAULT, Optional.empty(),
			Optional.empty(), CompileSettings.NONE, List.of(), Optional.empty(), Optional.empty(), Optional.empty(), List.of());

	private static final Set<String> KEYS = keys();

	private static Set<String> keys() {
		Set<String> keys = new HashSet<>(Set.of("output", "codegen-on-save", "select", "disable", "severity", "exclude",
				"fail-on", "show-info", "respect-gitignore"));
		keys.addAll(CompileSettings.TOML_KEYS);
		return Set.copyOf(keys);
	}

	/** The pyproject.toml nearest to a file or folder (itself or an ancestor's), if any. */
	public static Optional<Path> nearestPyproject(Path start) {
		Path p = start.toAbsolutePath().normalize();
		if (!Files.isDirectory(p)) {
			p = p.getParent();
		}
		for (; p != null; p = p.getParent()) {
			Path candidate = p.resolve("pyproject.toml");
			if (Files.isRegularFile(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/** The configuration that applies to a file or folder: its nearest pyproject.toml's [tool.pto]. */
	public static ProjectConfig forPath(Path start) {
		return nearestPyproject(start).map(ProjectConfig::load).orElse(NONE);
	}

	public static ProjectConfig load(Path pyproject) {
		String text;
		try {
			text = Files.readString(pyproject);
		} catch (IOException e) {
			return withProblem(pyproject, "cannot read " + pyproject + ": " + e.getMessage());
		}
		return parse(pyproject.getParent(), text, pyproject.toString());
	}

	public static ProjectConfig parse(Path root, String toml, String name) {
		TomlParseResult result = Toml.parse(toml);
		List<String> problems = new ArrayList<>();
		result.errors().forEach(e -> problems.add(name + ":" + e.position().line() + ": " + e.getMessage()));
		TomlTable table = result.getTable("tool.pto");
		if (table == null) {
			return new ProjectConfig(root, AnalyzerConfig.DEFAULT, Optional.empty(), Optional.empty(), CompileSettings.NONE,
					List.of(), Optional.empty(), Optional.empty(), Optional.empty(), List.copyOf(problems));
		}
		for (String key : table.keySet()) {
			if (!KEYS.contains(key)) {
				problems.add(name + ": unknown key tool.pto." + key + " (known: " + new java.util.TreeSet<>(KEYS) + ")");
			}
		}
		Map<String, Severity> severities = new HashMap<>();
		TomlTable sev = table.isTable("severity") ? table.getTable("severity") : null;
		if (sev != null) {
			for (String rule : sev.keySet()) {
				Object v = sev.get(rule);
				Severity s = v instanceof String str ? Severity.parse(str) : null;
				if (s == null) {
					problems.add(name + ": tool.pto.severity." + rule + " must be error, warning, info or hint");
				} else {
					severities.put(rule(rule, "tool.pto.severity", name, problems), s);
				}
			}
		}
		Set<String> disabled = new HashSet<>();
		strings(table, "disable", name, problems).forEach(r -> disabled.add(rule(r, "tool.pto.disable", name, problems)));
		Set<String> selected = new HashSet<>();
		strings(table, "select", name, problems).forEach(r -> selected.add(rule(r, "tool.pto.select", name, problems)));
		CompileSettings compile = CompileSettings.fromToml(table, root, name, problems);
		Optional<String> failOn = string(table, "fail-on", name, problems);
		return new ProjectConfig(root, new AnalyzerConfig(severities, disabled, selected),
				string(table, "output", name, problems), bool(table, "codegen-on-save", name, problems), compile,
				strings(table, "exclude", name, problems), failOn, bool(table, "show-info", name, problems),
				bool(table, "respect-gitignore", name, problems), List.copyOf(problems));
	}

	/**
	 * A rule id, id prefix or name as the analyzer's configuration holds it (an id or id prefix); one
	 * that names no rule is a problem and is kept as written, so it matches nothing.
	 */
	private static String rule(String selector, String key, String name, List<String> problems) {
		Optional<String> id = RuleSelectors.resolve(selector);
		if (id.isEmpty()) {
			problems.add(name + ": " + RuleSelectors.unknown(key, selector));
		}
		return id.orElse(selector.strip());
	}

	static Optional<Boolean> bool(TomlTable t, String key, String name, List<String> problems) {
		if (!t.contains(key)) {
			return Optional.empty();
		}
		if (!t.isBoolean(key)) {
			problems.add(name + ": tool.pto." + key + " must be true or false");
			return Optional.empty();
		}
		return Optional.of(t.getBoolean(key));
	}

	static Optional<String> string(TomlTable t, String key, String name, List<String> problems) {
		if (!t.contains(key)) {
			return Optional.empty();
		}
		if (!t.isString(key)) {
			problems.add(name + ": tool.pto." + key + " must be a string");
			return Optional.empty();
		}
		return Optional.of(t.getString(key));
	}

	private static List<String> strings(TomlTable t, String key, String name, List<String> problems) {
		if (!t.contains(key)) {
			return List.of();
		}
		if (!t.isArray(key)) {
			problems.add(name + ": tool.pto." + key + " must be an array of strings");
			return List.of();
		}
		TomlArray a = t.getArray(key);
		List<String> out = new ArrayList<>();
		for (int i = 0; i < a.size(); i++) {
			if (a.get(i) instanceof String s) {
				out.add(s);
			} else {
				problems.add(name + ": tool.pto." + key + "[" + i + "] must be a string");
			}
		}
		return List.copyOf(out);
	}

	private static ProjectConfig withProblem(Path pyproject, String problem) {
		return new ProjectConfig(pyproject.getParent(), AnalyzerConfig.DEFAULT, Optional.empty(), Optional.empty(),
				CompileSettings.NONE, List.of(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(problem));
	}
}
