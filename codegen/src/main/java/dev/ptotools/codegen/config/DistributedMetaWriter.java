package dev.ptotools.codegen.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.host.HostOrchGenerator;
import dev.ptotools.codegen.support.ProgramContext;
import dev.ptotools.codegen.types.DType;
import dev.ptotools.codegen.write.GeneratedMarker;

/**
 * distributed_meta.json as pypto's DistributedCompiledProgram persists it (schema 2: the HOST
 * orchestrator's params, return count, platform, backend and DistributedConfig), plus this project's
 * record of grouped dispatch: per grouped rank loop its stable id, callee and member ranks.
 */
public final class DistributedMetaWriter {

	private DistributedMetaWriter() {
	}

	public static String write(ProgramContext ctx, HostOrchGenerator.HostOrch host) {
		CompileOptions o = ctx.options();
		Map<String, Object> meta = new LinkedHashMap<>();
		meta.put("_generated", GeneratedMarker.TEXT);
		meta.put("schema", 2);
		Function entry = host.entry();
		List<Object> params = new ArrayList<>();
		int returns = 0;
		if (entry != null) {
			for (Param p : entry.params()) {
				params.add(param(ctx, p));
			}
			returns = returnCount(entry);
		}
		meta.put("params", params);
		meta.put("num_return_types", returns);
		meta.put("platform", o.platform());
		meta.put("backend_type", o.backend().typeName());
		Map<String, Object> dc = new LinkedHashMap<>();
		dc.put("device_ids", List.copyOf(o.deviceIds()));
		dc.put("num_sub_workers", o.numSubWorkers());
		dc.put("runtime", o.runtime().wireName());
		dc.put("aicpu_thread_num", o.aicpuThreadNum());
		meta.put("distributed_config", dc);
		List<Object> groups = new ArrayList<>();
		for (var g : host.grouped()) {
			Map<String, Object> e = new LinkedHashMap<>();
			e.put("group_id", g.groupId());
			e.put("callee", g.callee());
			List<Integer> ranks = new ArrayList<>();
			for (int r = 0; r < o.worldSize(); r++) {
				ranks.add(r);
			}
			e.put("ranks", ranks);
			groups.add(e);
		}
		meta.put("grouped_dispatch", groups);
		return Json.dumps(meta);
	}

	private static Map<String, Object> param(ProgramContext ctx, Param p) {
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("name", p.name());
		out.put("direction", p.direction().name());
		if (p.type() instanceof TypeSpec.Tensor t && t.shape() != null) {
			DType dtype = DType.named(t.dtype());
			List<Object> shape = new ArrayList<>();
			for (int i = 0; i < t.shape().size(); i++) {
				Long v = ctx.eval().asLong(t.shape().get(i));
				long d = v == null ? -1 : v;
				if (dtype == DType.FP4 && i + 1 == t.shape().size() && d > 0) {
					d /= 2;
				}
				shape.add(d);
			}
			out.put("shape", shape);
			out.put("dtype", dtype == null ? "unknown" : dtype.text());
		} else {
			out.put("shape", null);
			DType dtype = p.type() instanceof TypeSpec.Scalar s ? DType.named(s.dtype()) : null;
			out.put("dtype", dtype == null ? "unknown" : dtype.text());
		}
		return out;
	}

	private static int returnCount(Function f) {
		Expr ann = f.returnAnnotation();
		if (ann == null || ann instanceof Expr.Literal) {
			return 0;
		}
		if (ann instanceof Expr.Subscript s && !(ModuleLowering.typeSpec(ann) instanceof TypeSpec.Tensor)) {
			return s.indices().size();
		}
		return 1;
	}
}
