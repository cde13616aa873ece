package dev.ptotools.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.tomlj.TomlArray;
import org.tomlj.TomlTable;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.RuntimeHeader;

/**
 * What a compile is for: the settings pypto takes as {@code ir.compile} arguments (runtime, backend,
 * platform, the device ids of {@code DistributedConfig}) and this tool's own (the runtime header,
 * grouped dispatch). One layer of them — command-line flags, editor settings or {@code [tool.pto]} — with
 * null where the layer says nothing; {@link #over} stacks layers, so an explicit value of a higher layer
 * wins and an unset one falls through, as in ruff's settings.
 *
 * <p>Keys, in pyproject.toml and (camel-cased) in the editor: {@code runtime-header}, {@code runtime},
 * {@code backend}, {@code platform}, {@code device-ids}, {@code grouped-dispatch}, {@code pypto-package}
 * (the folder of pypto's Python package, which the builtin collectives' builds are rendered from; a
 * relative path is read from the pyproject.toml's folder, or the current folder for the flag).
 */
public record CompileSettings(String runtimeHeader, String runtime, String backend, String platform,
		List<Integer> deviceIds, Boolean groupedDispatch, Path pyptoPackage) {

	public static final CompileSettings NONE = new CompileSettings(null, null, null, null, null, null, null);

	/** The pyproject.toml keys this record reads. */
	public static final Set<String> TOML_KEYS = Set.of("runtime-header", "runtime", "backend", "platform", "device-ids",
			"grouped-dispatch", "pypto-package");

	private static final List<String> PLATFORMS = List.of("a2a3sim", "a2a3", "a5sim", "a5");

	public CompileSettings {
		deviceIds = deviceIds == null ? null : List.copyOf(deviceIds);
	}

	/** This layer over a lower one: each value set here wins. */
	public CompileSettings over(CompileSettings lower) {
		return new CompileSettings(pick(runtimeHeader, lower.runtimeHeader), pick(runtime, lower.runtime),
				pick(backend, lower.backend), pick(platform, lower.platform), pick(deviceIds, lower.deviceIds),
				pick(groupedDispatch, lower.groupedDispatch), pick(pyptoPackage, lower.pyptoPackage));
	}

	private static <T> T pick(T high, T low) {
		return high != null ? high : low;
	}

	/**
	 * The compile options: defaults where nothing is set. A platform selects its backend as pypto's
	 * {@code ir.compile} does (a2a3/a2a3sim: Ascend910B, a5/a5sim: Ascend950).
	 *
	 * @throws IllegalArgumentException with a message for the user when a value is invalid
	 */
	public CompileOptions options() {
		CompileOptions o = CompileOptions.DEFAULT;
		if (runtimeHeader != null) {
			o = o.withHeader(RuntimeHeader.parse(runtimeHeader));
		}
		if (runtime != null) {
			o = o.withRuntime(runtime(runtime));
		}
		Backend chosen = backend == null ? null : Backend.parse(backend);
		if (platform != null) {
			if (!PLATFORMS.contains(platform)) {
				throw new IllegalArgumentException("Invalid platform '" + platform + "' (expected a2a3sim, a2a3, a5sim or a5)");
			}
			Backend ofPlatform = Backend.ofPlatform(platform);
			if (chosen != null && chosen != ofPlatform) {
				throw new IllegalArgumentException("platform '" + platform + "' runs " + ofPlatform.typeName() + ", not backend "
						+ chosen.typeName());
			}
			chosen = ofPlatform;
			o = o.withPlatform(platform);
		}
		if (chosen != null) {
			o = o.withBackend(chosen);
		}
		if (deviceIds != null) {
			if (deviceIds.isEmpty()) {
				throw new IllegalArgumentException("device ids must not be empty");
			}
			if (deviceIds.stream().anyMatch(i -> i < 0) || new LinkedHashSet<>(deviceIds).size() != deviceIds.size()) {
				throw new IllegalArgumentException("device ids must be distinct non-negative integers: " + deviceIds);
			}
			o = o.withDeviceIds(deviceIds);
		}
		if (groupedDispatch != null) {
			o = o.withGroupedDispatch(groupedDispatch);
		}
		return o.withBuiltinTemplates(pyptoPackage != null ? PyptoPackage.at(pyptoPackage) : PyptoPackage.FOUND_AS_PYTHON_DOES);
	}

	private static Runtime runtime(String name) {
		for (Runtime r : Runtime.values()) {
			if (r.wireName().equals(name)) {
				return r;
			}
		}
		throw new IllegalArgumentException("Unknown runtime '" + name + "' (expected tensormap_and_ringbuffer or host_build_graph)");
	}

	/** Reads the compile keys of a {@code [tool.pto]} table; wrong types and values go to problems. */
	static CompileSettings fromToml(TomlTable t, Path root, String name, List<String> problems) {
		String pkg = string(t, "pypto-package", name, problems);
		CompileSettings s = new CompileSettings(string(t, "runtime-header", name, problems), string(t, "runtime", name, problems),
				string(t, "backend", name, problems), string(t, "platform", name, problems), ints(t, "device-ids", name, problems),
				ProjectConfig.bool(t, "grouped-dispatch", name, problems).orElse(null),
				pkg == null ? null : root == null ? Path.of(pkg) : root.resolve(pkg));
		try {
			s.options();
		} catch (IllegalArgumentException e) {
			problems.add(name + ": tool.pto: " + e.getMessage());
			return NONE;
		}
		return s;
	}

	/** Reads the editor's keys: runtimeHeader, runtime, backend, platform, deviceIds, groupedDispatch, pyptoPackage. */
	public static CompileSettings fromJson(JsonObject o) {
		List<Integer> ids = null;
		if (o.has("deviceIds") && o.get("deviceIds").isJsonArray()) {
			ids = new ArrayList<>();
			for (JsonElement e : o.getAsJsonArray("deviceIds")) {
				if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
					ids.add(e.getAsInt());
				}
			}
		}
		if (ids != null && ids.isEmpty()) {
			ids = null; // an editor's empty list is its "not set"
		}
		Boolean grouped = o.has("groupedDispatch") && o.get("groupedDispatch").isJsonPrimitive()
				&& o.get("groupedDispatch").getAsJsonPrimitive().isBoolean() ? o.get("groupedDispatch").getAsBoolean() : null;
		String pkg = str(o, "pyptoPackage");
		return new CompileSettings(str(o, "runtimeHeader"), str(o, "runtime"), str(o, "backend"), str(o, "platform"), ids,
				grouped, pkg == null ? null : Path.of(pkg));
	}

	/** Parses "0,1,2,3" (as --device-ids takes it). */
	public static List<Integer> parseDeviceIds(String text) {
		List<Integer> ids = new ArrayList<>();
		for (String part : text.split(",")) {
			String p = part.strip();
			if (!p.isEmpty()) {
				try {
					ids.add(Integer.parseInt(p));
				} catch (NumberFormatException e) {
					throw new IllegalArgumentException("device id '" + p + "' is not an integer");
				}
			}
		}
		return ids;
	}

	private static String str(JsonObject o, String k) {
		return o.has(k) && o.get(k).isJsonPrimitive() && !o.get(k).getAsString().isEmpty() ? o.get(k).getAsString() : null;
	}

	private static String string(TomlTable t, String key, String name, List<String> problems) {
		return ProjectConfig.string(t, key, name, problems).orElse(null);
	}

	private static List<Integer> ints(TomlTable t, String key, String name, List<String> problems) {
		if (!t.contains(key)) {
			return null;
		}
		if (!t.isArray(key)) {
			problems.add(name + ": tool.pto." + key + " must be an array of integers");
			return null;
		}
		TomlArray a = t.getArray(key);
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < a.size(); i++) {
			if (a.get(i) instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE) {
				out.add(l.intValue());
			} else {
				problems.add(name + ": tool.pto." + key + "[" + i + "] must be a non-negative integer");
				return null;
			}
		}
		return out;
	}
}
