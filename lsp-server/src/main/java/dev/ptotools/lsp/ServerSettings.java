package dev.ptotools.lsp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.config.RuleSelectors;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.config.CompileSettings;
import dev.ptotools.config.ProjectConfig;

/**
 * The editor's {@code pto} settings for one workspace folder, laid over pyproject.toml's [tool.pto].
 * Fields are null where the editor sets nothing. Rules in {@code disabledRules} and {@code severities}
 * are named by id, id prefix or name ({@link RuleSelectors}); {@code inlayHintSpecialization} names the
 * specialization (output folder, {@code _jit_k__2}) whose types the inlay hints show first;
 * {@code problems} says what the server could not use, for the user to see.
 */
public record ServerSettings(String outputFolder, Boolean codegenOnSave, CompileSettings compile,
		Map<String, Severity> severities, Set<String> disabled, Integer debounceMs, Integer maxFileChars,
		Boolean inlayHints, String inlayHintSpecialization, List<String> problems) {

	public static final ServerSettings EMPTY = new ServerSettings(null, null, CompileSettings.NONE, Map.of(), Set.of(), null, null,
			null, null, List.of());

	/**
	 * No wait by default: an analysis of a 2,000-line module takes tens of milliseconds, a burst of edits
	 * to a larger one costs one analysis behind the one running (stale ones are skipped, the compile step
	 * stops when the text moves on), so a delay would only add latency (bench/run.sh).
	 */
	public static final int DEFAULT_DEBOUNCE_MS = 0;
	public static final int DEFAULT_MAX_FILE_CHARS = 4_000_000;

	/** Reads the {@code pto} section (also accepts {@code {"pto": {...}}} and {@code {"settings": {...}}}). */
	public static ServerSettings from(JsonElement json) {
		if (json == null || !json.isJsonObject()) {
			return EMPTY;
		}
		JsonObject o = json.getAsJsonObject();
		if (o.has("settings") && o.get("settings").isJsonObject()) {
			o = o.getAsJsonObject("settings");
		}
		if (o.has("pto") && o.get("pto").isJsonObject()) {
			o = o.getAsJsonObject("pto");
		}
		Map<String, Severity> severities = new HashMap<>();
		List<String> problems = new ArrayList<>();
		Set<String> disabled = new HashSet<>();
		for (String r : strings(o.get("disabledRules"))) {
			disabled.add(rule(r, "pto.disabledRules", problems));
		}
		if (o.has("severities") && o.get("severities").isJsonObject()) {
			for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("severities").entrySet()) {
				String v = e.getValue().isJsonPrimitive() ? e.getValue().getAsString() : "";
				if (v.equalsIgnoreCase("off") || v.equalsIgnoreCase("none")) {
					disabled.add(rule(e.getKey(), "pto.severities", problems));
				} else if (Severity.parse(v) != null) {
					severities.put(rule(e.getKey(), "pto.severities", problems), Severity.parse(v));
				} else {
					problems.add("pto.severities: '" + e.getKey() + "' must be error, warning, info, hint or off");
				}
			}
		}
		CompileSettings compile = CompileSettings.fromJson(o);
		try {
			compile.options();
		} catch (IllegalArgumentException e) {
			problems.add(e.getMessage() + "; the editor's compile settings are ignored until it is fixed");
		}
		return new ServerSettings(str(o, "outputFolder"), bool(o, "codegenOnSave"), compile,
				Map.copyOf(severities), Set.copyOf(disabled), integer(o, "debounceMs"), integer(o, "maxFileChars"),
				bool(o, "inlayHints"), blankToNull(str(o, "inlayHintSpecialization")), List.copyOf(problems));
	}

	private static String blankToNull(String s) {
		return s == null || s.isBlank() ? null : s.strip();
	}

	/** The id or id prefix a rule selector stands for; one that names no rule is a problem, kept as written. */
	private static String rule(String selector, String setting, List<String> problems) {
		Optional<String> id = RuleSelectors.resolve(selector);
		if (id.isEmpty()) {
			problems.add(RuleSelectors.unknown(setting, selector));
		}
		return id.orElse(selector.strip());
	}

	/** The analyzer configuration: pyproject's, then the editor's on top. */
	public AnalyzerConfig analyzerConfig(ProjectConfig project) {
		return project.analyzer().overriddenBy(new AnalyzerConfig(severities, disabled, Set.of()));
	}

	public String effectiveOutputFolder(ProjectConfig project) {
		return outputFolder != null ? outputFolder : project.output().orElse("build_output");
	}

	/** Inlay hints of deduced types: on unless the editor turns them off (an editor-only setting). */
	public boolean effectiveInlayHints() {
		return inlayHints == null || inlayHints;
	}

	public boolean effectiveCodegenOnSave(ProjectConfig project) {
		return codegenOnSave != null ? codegenOnSave : project.codegenOnSave().orElse(true);
	}

	/**
	 * The compile settings: the editor's over pyproject's. An invalid editor value is dropped with the
	 * layer it came in (it is one of {@link #problems}), so a typo does not stop on-save.
	 */
	public CompileSettings effectiveCompile(ProjectConfig project) {
		return compileProblem(project).isEmpty() ? compile.over(project.compile()) : project.compile();
	}

	/** Why the editor's compile settings cannot be used over pyproject's, if they cannot. */
	public java.util.Optional<String> compileProblem(ProjectConfig project) {
		try {
			compile.over(project.compile()).options();
			return java.util.Optional.empty();
		} catch (IllegalArgumentException e) {
			return java.util.Optional.of(e.getMessage());
		}
	}

	public int effectiveDebounceMs() {
		return debounceMs != null ? Math.max(0, debounceMs) : DEFAULT_DEBOUNCE_MS;
	}

	public int effectiveMaxFileChars() {
		return maxFileChars != null ? maxFileChars : DEFAULT_MAX_FILE_CHARS;
	}

	private static String str(JsonObject o, String k) {
		return o.has(k) && o.get(k).isJsonPrimitive() ? o.get(k).getAsString() : null;
	}

	private static Boolean bool(JsonObject o, String k) {
		return o.has(k) && o.get(k).isJsonPrimitive() && o.get(k).getAsJsonPrimitive().isBoolean() ? o.get(k).getAsBoolean()
				: null;
	}

	private static Integer integer(JsonObject o, String k) {
		return o.has(k) && o.get(k).isJsonPrimitive() && o.get(k).getAsJsonPrimitive().isNumber() ? o.get(k).getAsInt()
				: null;
	}

	private static List<String> strings(JsonElement e) {
		if (e == null || !e.isJsonArray()) {
			return List.of();
		}
		JsonArray a = e.getAsJsonArray();
		List<String> out = new ArrayList<>();
		a.forEach(x -> {
			if (x.isJsonPrimitive()) {
				out.add(x.getAsString());
			}
		});
		return out;
	}
}
