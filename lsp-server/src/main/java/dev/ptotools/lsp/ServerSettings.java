package dev.ptotools.lsp;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.config.CompileSettings;
import dev.ptotools.config.ProjectConfig;

/**
 * The editor's {@code pto} settings for one workspace folder, laid over pyproject.toml's [tool.pto].
 * Fields are null where the editor sets nothing.
 */
public record ServerSettings(String outputFolder, Boolean codegenOnSave, CompileSettings compile,
		Map<String, Severity> severities, Set<String> disabled, Integer debounceMs, Integer maxFileChars) {

	public static final ServerSettings EMPTY = new ServerSettings(null, null, CompileSettings.NONE, Map.of(), Set.of(), null, null);

	public static final int DEFAULT_DEBOUNCE_MS = 150;
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
		Set<String> disabled = new HashSet<>(strings(o.get("disabledRules")));
		if (o.has("severities") && o.get("severities").isJsonObject()) {
			for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("severities").entrySet()) {
				String v = e.getValue().isJsonPrimitive() ? e.getValue().getAsString() : "";
				if (v.equalsIgnoreCase("off") || v.equalsIgnoreCase("none")) {
					disabled.add(e.getKey());
				} else if (Severity.parse(v) != null) {
					severities.put(e.getKey(), Severity.parse(v));
				}
			}
		}
		return new ServerSettings(str(o, "outputFolder"), bool(o, "codegenOnSave"), CompileSettings.fromJson(o),
				Map.copyOf(severities), Set.copyOf(disabled), integer(o, "debounceMs"), integer(o, "maxFileChars"));
	}

	/** The analyzer configuration: pyproject's, then the editor's on top. */
	public AnalyzerConfig analyzerConfig(ProjectConfig project) {
		return project.analyzer().overriddenBy(new AnalyzerConfig(severities, disabled, Set.of()));
	}

	public String effectiveOutputFolder(ProjectConfig project) {
		return outputFolder != null ? outputFolder : project.output().orElse("build_output");
	}

	public boolean effectiveCodegenOnSave(ProjectConfig project) {
		return codegenOnSave != null ? codegenOnSave : project.codegenOnSave().orElse(true);
	}

	/**
	 * The compile settings: the editor's over pyproject's. An invalid editor value is dropped with the
	 * layer it came in (the problem is shown by {@link #compileProblem}), so a typo does not stop on-save.
	 */
	public CompileSettings effectiveCompile(ProjectConfig project) {
		CompileSettings merged = compile.over(project.compile());
		try {
			merged.options();
			return merged;
		} catch (IllegalArgumentException e) {
			return project.compile();
		}
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
		List<String> out = new java.util.ArrayList<>();
		a.forEach(x -> {
			if (x.isJsonPrimitive()) {
				out.add(x.getAsString());
			}
		});
		return out;
	}
}
