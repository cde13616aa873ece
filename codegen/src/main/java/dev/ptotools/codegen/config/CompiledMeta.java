package dev.ptotools.codegen.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.emit.distributed.DistributedMeta;
import dev.ptotools.codegen.ir.Function;

/**
 * compiled_meta.json as pypto's CompiledProgram._write_meta writes it for a single-chip build (schema 1,
 * {@code json.dumps(indent=2)}, no trailing newline): the orchestration's parameters after the pipeline
 * (names, directions, shapes with -1 for dynamic dims, dtypes), its return count, the platform and the
 * backend. pypto writes one beside kernel_config.py for a one-orchestration program and one per
 * next_levels/&lt;orchestration&gt;/ sub-build otherwise; none for a distributed program, which has
 * distributed_meta.json. This compiler adds its generated marker as the first key.
 */
public final class CompiledMeta {

	private CompiledMeta() {
	}

	/** The file text, or null where pypto writes none (a parameter that is neither a tensor nor a scalar). */
	public static String write(Function orchestration, CompileOptions options) {
		List<Map<String, Object>> params = DistributedMeta.params(orchestration);
		if (params == null) {
			return null;
		}
		Map<String, Object> meta = new LinkedHashMap<>();
		meta.put("schema", 1);
		meta.put("params", params);
		meta.put("num_return_types", orchestration.returnTypes().size());
		meta.put("platform", options.platform());
		meta.put("backend_type", options.backend().typeName());
		return Json.dumps(meta);
	}
}
