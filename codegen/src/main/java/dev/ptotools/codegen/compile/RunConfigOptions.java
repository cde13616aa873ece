package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;

/**
 * The options a module gives its own compile, as pypto compiles the program for them and records them in
 * its metadata: what an {@code ir.compile(...)} / {@code pypto.runtime.run(..., config=RunConfig(...))}
 * call ({@link ModuleCompileCalls}) or a {@code @pl.jit} sample call's {@code config=RunConfig(...)}
 * ({@link JitSamples.Specialization#runConfig()}) says. Given as evaluated values: {@code platform} (a
 * String), {@code backend_type} (its text), {@code device_ids} (a List of Long) and
 * {@code num_sub_workers} (a Long). They fill only what is still at its default: flags, editor settings
 * and {@code [tool.pto]} win, and what they override is said ({@link CompileFindings.Kind#OVERRIDDEN}).
 */
final class RunConfigOptions {

	private RunConfigOptions() {
	}

	static CompileOptions apply(Map<String, Object> given, CompileOptions options) {
		return apply(given, options, new ArrayList<>());
	}

	/**
	 * {@link #apply(Map, CompileOptions)}, adding to {@code overridden} what the settings override: "4 ranks
	 * [0, 1, 2, 3], not the 2 of device_ids=[0, 1]".
	 */
	static CompileOptions apply(Map<String, Object> given, CompileOptions options, List<String> overridden) {
		CompileOptions o = options;
		if (given.get("platform") instanceof String p && !o.platform().equals(o.backend().defaultSimPlatform())
				&& !o.platform().equals(p)) {
			overridden.add("platform '" + o.platform() + "', not '" + p + "'");
		}
		if (given.get("device_ids") instanceof List<?> ids && !ids.isEmpty() && ids.stream().allMatch(Long.class::isInstance)
				&& !o.deviceIds().equals(CompileOptions.DEFAULT.deviceIds())
				&& !o.deviceIds().equals(ids.stream().map(i -> ((Long) i).intValue()).toList())) {
			overridden.add(o.deviceIds().size() + (o.deviceIds().size() == 1 ? " rank " : " ranks ") + o.deviceIds()
					+ ", not the " + ids.size() + " of device_ids=" + ids);
		}
		if (given.get("num_sub_workers") instanceof Long n && o.numSubWorkers() != CompileOptions.DEFAULT.numSubWorkers()
				&& o.numSubWorkers() != n.intValue()) {
			overridden.add(o.numSubWorkers() + " sub-workers, not num_sub_workers=" + n);
		}
		if (given.get("platform") instanceof String p && o.platform().equals(o.backend().defaultSimPlatform())) {
			o = o.withPlatform(p);
			if (o.backend() == CompileOptions.DEFAULT.backend()) {
				o = o.withBackend(Backend.ofPlatform(p));
			}
		}
		if (given.get("backend_type") instanceof String b && b.endsWith("Ascend950")
				&& o.backend() == CompileOptions.DEFAULT.backend()) {
			o = o.withBackend(Backend.ASCEND_950);
		}
		if (given.get("device_ids") instanceof List<?> ids && !ids.isEmpty() && ids.stream().allMatch(Long.class::isInstance)
				&& o.deviceIds().equals(CompileOptions.DEFAULT.deviceIds())) {
			List<Integer> out = new ArrayList<>();
			for (Object id : ids) {
				out.add(((Long) id).intValue());
			}
			o = o.withDeviceIds(out);
		}
		if (given.get("num_sub_workers") instanceof Long n && o.numSubWorkers() == CompileOptions.DEFAULT.numSubWorkers()) {
			o = o.withNumSubWorkers(n.intValue());
		}
		return o;
	}
}
