package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.config.Json;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.types.DType;

/**
 * distributed_meta.json as pypto's DistributedCompiledProgram._persist_metadata writes it (schema 2, keys
 * in its order, {@code json.dumps(indent=2)} without a trailing newline): the HOST orchestrator's
 * parameters after the pipeline (post-SSA names, directions, shapes with -1 for dynamic dims, dtypes), its
 * return count, the platform, the backend and the DistributedConfig. This compiler adds its generated
 * marker as the first key and {@code grouped_dispatch}: each rank loop emitted as one group submission
 * with its analyzer id, chip orchestrator and member ranks.
 */
public final class DistributedMeta {

	private DistributedMeta() {
	}

	/**
	 * The function whose signature the metadata records (pypto's _get_metadata): the first function by name
	 * with a Linqu level of at least 3 and role Orchestrator; without one, the first Orchestration function,
	 * or the only function. Null when there is none.
	 */
	public static Function signatureFunction(Program program) {
		for (Function f : program.sortedByName()) {
			if (f.level() != null && DistFunctions.linquLevel(f.level()) >= 3
					&& f.role() == dev.ptotools.analyzer.ir.Role.Orchestrator) {
				return f;
			}
		}
		for (Function f : program.sortedByName()) {
			if (f.isOrchestration()) {
				return f;
			}
		}
		return program.functions().size() == 1 ? program.functions().get(0) : null;
	}

	/**
	 * The file text, or null when pypto writes none: no signature function, or a parameter that is neither a
	 * tensor nor a scalar (such as a CommCtx).
	 */
	public static String write(Program program, CompileOptions options, List<HostOrchResult.EmittedGroup> grouped) {
		Function f = signatureFunction(program);
		if (f == null) {
			return null;
		}
		List<Map<String, Object>> params = params(f);
		if (params == null) {
			return null;
		}
		Map<String, Object> meta = new LinkedHashMap<>();
		meta.put("schema", 2);
		meta.put("params", params);
		meta.put("num_return_types", f.returnTypes().size());
		meta.put("platform", options.platform());
		meta.put("backend_type", options.backend().typeName());
		Map<String, Object> dc = new LinkedHashMap<>();
		dc.put("device_ids", List.copyOf(options.deviceIds()));
		dc.put("num_sub_workers", options.numSubWorkers());
		dc.put("runtime", options.runtime().wireName());
		dc.put("aicpu_thread_num", options.aicpuThreadNum());
		meta.put("distributed_config", dc);
		List<Object> groups = new ArrayList<>();
		for (HostOrchResult.EmittedGroup g : grouped) {
			Map<String, Object> e = new LinkedHashMap<>();
			e.put("group_id", g.groupId());
			e.put("callee", g.callee());
			List<Integer> ranks = new ArrayList<>();
			for (int r = 0; r < options.worldSize(); r++) {
				ranks.add(r);
			}
			e.put("ranks", ranks);
			groups.add(e);
		}
		if (!groups.isEmpty()) {
			// only when a loop is grouped: without one the file is exactly pypto's
			meta.put("grouped_dispatch", groups);
		}
		return Json.dumps(meta);
	}

	/**
	 * pypto's _extract_func_param_infos for {@code f}, each entry as {@link #param} gives it; null when one is
	 * rejected. Shared by the metadata files and debug/run.py, which pypto writes from the same list.
	 */
	public static List<Map<String, Object>> params(Function f) {
		List<Map<String, Object>> params = new ArrayList<>();
		for (int i = 0; i < f.params().size(); i++) {
			Map<String, Object> p = param(f.params().get(i), f.directions().get(i).name());
			if (p == null) {
				return null;
			}
			params.add(p);
		}
		return params;
	}

	/** pypto's _extract_func_param_infos entry; null for a parameter type it rejects. */
	public static Map<String, Object> param(Var p, String direction) {
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("name", p.name());
		out.put("direction", direction);
		DType dtype;
		if (p.type() instanceof Type.Tensor t) {
			dtype = t.dtype();
			List<Object> shape = new ArrayList<>();
			for (Expr d : t.shape()) {
				shape.add(d instanceof Expr.ConstInt c ? c.value() : -1L);
			}
			int last = shape.size() - 1;
			if (dtype == DType.FP4 && last >= 0 && (long) shape.get(last) != -1) {
				shape.set(last, Math.floorDiv((long) shape.get(last), 2L));
			}
			out.put("shape", shape);
		} else if (p.type() instanceof Type.Scalar s) {
			dtype = s.dtype();
			out.put("shape", null);
		} else {
			return null;
		}
		out.put("dtype", dtype.text());
		return out;
	}
}
