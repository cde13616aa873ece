package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;

/**
 * The options a {@code @pl.jit} specialization's own sample call gives, through its
 * {@code config=RunConfig(platform=..., distributed_config=DistributedConfig(device_ids=...,
 * num_sub_workers=...))} ({@link JitSamples.Specialization#runConfig()}): pypto compiles the program for
 * them and records them in its metadata. As for a module's {@code ir.compile} call
 * ({@link ModuleCompileCalls}), they fill only what is still at its default: flags, editor settings and
 * {@code [tool.pto]} win.
 */
final class RunConfigOptions {

	private RunConfigOptions() {
	}

	static CompileOptions apply(JitSamples.Specialization spec, CompileOptions options) {
		Map<String, Object> rc = spec.runConfig();
		CompileOptions o = options;
		if (rc.get("platform") instanceof String p && o.platform().equals(o.backend().defaultSimPlatform())) {
			o = o.withPlatform(p);
			if (o.backend() == CompileOptions.DEFAULT.backend()) {
				o = o.withBackend(p.startsWith("a5") ? Backend.ASCEND_950 : Backend.ASCEND_910B);
			}
		}
		if (rc.get("device_ids") instanceof List<?> ids && o.deviceIds().equals(CompileOptions.DEFAULT.deviceIds())) {
			List<Integer> out = new ArrayList<>();
			for (Object id : ids) {
				out.add(((Long) id).intValue());
			}
			o = o.withDeviceIds(out);
		}
		if (rc.get("num_sub_workers") instanceof Long n && o.numSubWorkers() == CompileOptions.DEFAULT.numSubWorkers()) {
			o = o.withNumSubWorkers(n.intValue());
		}
		return o;
	}
}
