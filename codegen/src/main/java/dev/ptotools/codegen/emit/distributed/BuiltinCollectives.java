package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import dev.ptotools.codegen.graph.TaskGraph;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.passes.util.DistKwargs;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The builtin collective dispatches LowerHostTensorCollectives creates (pypto's distributed_ops_codegen.cpp,
 * EmitBuiltinWindowCollectiveDispatch): a TaskArgs with the window buffers of the rank, the domain's
 * ordering token, its size and device context (and the core count of a mesh allreduce), submitted with
 * {@code orch.submit_next_level} to the variant's callable. The first dispatch of each variant records the
 * chip build pypto renders for it ({@link BuiltinNextLevelSpec}).
 */
final class BuiltinCollectives {

	private static final String[][] REDUCE = { { "sum", "ReduceOp::kSum", "TADD" }, { "max", "ReduceOp::kMax", "TMAX" },
			{ "min", "ReduceOp::kMin", "TMIN" }, { "prod", "ReduceOp::kProd", "TMUL" } };

	private final DistributedCodegen cg;
	private final Set<String> emitted = new HashSet<>();
	private final List<BuiltinNextLevelSpec> specs = new ArrayList<>();

	BuiltinCollectives(DistributedCodegen cg) {
		this.cg = cg;
	}

	List<BuiltinNextLevelSpec> specs() {
		return List.copyOf(specs);
	}

	boolean handles(String op) {
		return switch (op) {
		case "builtin.tensor.allreduce", "builtin.tensor.allreduce_ring", "builtin.tensor.barrier",
				"builtin.tensor.broadcast", "builtin.tensor.reduce_scatter", "builtin.tensor.allgather",
				"builtin.tensor.all_to_all", "builtin.tensor.all_to_all_v" -> true;
		default -> false;
		};
	}

	void emit(Expr.Call c) {
		String op = c.name();
		Map<String, String> vars = new TreeMap<>();
		String variant;
		Integer coreNum = null;
		switch (op) {
		case "builtin.tensor.allreduce", "builtin.tensor.allreduce_ring" -> {
			boolean mesh = op.equals("builtin.tensor.allreduce");
			int reduce = intAttr(c, "op");
			DType dtype = DistKwargs.dtypeValue(c.attr("dtype"));
			if (reduce < 0 || reduce >= REDUCE.length) {
				throw new CodegenException("unsupported builtin.tensor.allreduce ReduceOp " + reduce, c.span());
			}
			if (dtype != DType.FP16 && dtype != DType.FP32) {
				throw new CodegenException("unsupported builtin.tensor.allreduce dtype "
						+ (dtype == null ? "unknown" : dtype.text()), c.span());
			}
			variant = op + "__" + REDUCE[reduce][0] + "__" + dtype.text();
			vars.put("op_cpp", REDUCE[reduce][1]);
			vars.put("dtype_cpp", dtype.ctype());
			if (mesh) {
				coreNum = intAttr(c, "core_num");
				if (coreNum <= 0) {
					throw new CodegenException("Internal error: builtin.tensor.allreduce core_num must be positive, got "
							+ coreNum + "; LowerHostTensorCollectives should have rejected it", c.span());
				}
				vars.put("reduce_inst", REDUCE[reduce][2]);
				vars.put("launch_core_count_method", cg.options.backend().launchCoreCountMethod());
			}
		}
		case "builtin.tensor.barrier" -> {
			variant = op + "__fp32";
			vars.put("dtype_cpp", "float");
		}
		case "builtin.tensor.broadcast" -> {
			int root = intAttr(c, "root");
			variant = op + "__root" + root + "__" + fp32Suffix(c);
			vars.put("root_cpp", Integer.toString(root));
			vars.put("dtype_cpp", "float");
		}
		case "builtin.tensor.reduce_scatter" -> {
			int reduce = intAttr(c, "op");
			if (reduce != 0) {
				throw new CodegenException("builtin.tensor.reduce_scatter variant mangling currently supports only "
						+ "ReduceOp.Sum, got " + reduce, c.span());
			}
			variant = op + "__sum__" + fp32Suffix(c);
			vars.put("op_cpp", "ReduceOp::kSum");
			vars.put("dtype_cpp", "float");
		}
		default -> {
			variant = op + "__" + fp32Suffix(c);
			vars.put("dtype_cpp", "float");
		}
		}
		if (emitted.add(variant)) {
			String templateDir = ":pypto.runtime.builtins.collectives." + op.substring("builtin.tensor.".length());
			specs.add(new BuiltinNextLevelSpec(op, variant, BuiltinNextLevelSpec.entrySymbol(variant), templateDir, vars,
					c.span()));
		}
		dispatch(c, variant, coreNum);
	}

	private static int intAttr(Expr.Call c, String name) {
		Integer v = DistKwargs.intValue(c.attr(name));
		if (v == null) {
			throw new CodegenException("Internal error: " + c.name() + " is missing its '" + name + "' attr", c.span());
		}
		return v;
	}

	private static String fp32Suffix(Expr.Call c) {
		DType d = DistKwargs.dtypeValue(c.attr("dtype"));
		if (d != DType.FP32) {
			throw new CodegenException("builtin tensor collective variant mangling currently supports only FP32, got "
					+ (d == null ? "unknown" : d.text()), c.span());
		}
		return "fp32";
	}

	private static String tag(Object d, Expr.Call c) {
		if (d == ArgDirection.Input) {
			return "TensorArgType.INPUT";
		}
		if (d == ArgDirection.InOut) {
			return "TensorArgType.INOUT";
		}
		if (d == ArgDirection.Output) {
			return "TensorArgType.OUTPUT";
		}
		if (d == ArgDirection.OutputExisting) {
			return "TensorArgType.OUTPUT_EXISTING";
		}
		throw new CodegenException("unsupported ArgDirection for builtin tensor collective dispatch", c.span());
	}

	private void dispatch(Expr.Call c, String variant, Integer coreNum) {
		String rank = cg.dispatch.rank(c);
		if (rank.isEmpty()) {
			throw new CodegenException("Internal error: builtin tensor collective dispatch must carry device= attr",
					c.span());
		}
		if (!(c.attr(ArgDirection.ATTR) instanceof List<?> dirs) || dirs.size() != c.args().size()) {
			throw new CodegenException("Internal error: builtin tensor collective dispatch arg_directions length mismatch",
					c.span());
		}
		String handle = null;
		for (Expr a : c.args()) {
			if (a.type() instanceof Type.Tensor t && t.distributed() && t.window() != null) {
				String h = DistributedCodegen.handle(cg.scopeOf(t.window(), c.span()));
				if (handle == null) {
					handle = h;
				} else if (!handle.equals(h)) {
					throw new CodegenException("Internal error: builtin tensor collective window args must share the same "
							+ "comm-domain scope", c.span());
				}
			}
		}
		if (handle == null) {
			throw new CodegenException("Internal error: builtin tensor collective dispatch needs at least one window-bound "
					+ "arg", c.span());
		}
		String ta = cg.nextTaskArgs();
		String cfg = ta + "_config";
		cg.out.line(ta + " = TaskArgs()");
		List<TaskGraph.Access> accesses = new ArrayList<>();
		for (int i = 0; i < c.args().size(); i++) {
			Expr a = c.args().get(i);
			String tag = tag(dirs.get(i), c);
			if (a.type() instanceof Type.Tensor t && t.distributed()) {
				if (t.window() == null) {
					throw new CodegenException("Internal error: builtin tensor collective window arg must have a "
							+ "WindowBuffer", c.span());
				}
				Stmt.CommDomainScope scope = cg.scopeOf(t.window(), c.span());
				cg.out.line(ta + ".add_tensor(" + handle + "[" + rank + "].buffers[\"" + DistributedCodegen.sanitize(t.window())
						+ "\"].tensor(shapes=" + cg.exprs.shapeTuple(t.shape()) + ", dtype=DataType."
						+ HostExprs.simplerEnum(t.dtype(), c.span()) + "), " + tag + ")");
				WorkerDispatch.access(accesses, DistributedCodegen.windowName(t.window()), tag);
				if (!DistributedCodegen.handle(scope).equals(handle)) {
					throw new CodegenException("Internal error: builtin tensor collective window args must share the same "
							+ "comm-domain scope", c.span());
				}
				continue;
			}
			if (a.type() instanceof Type.Tile) {
				String name = cg.exprs.render(a);
				cg.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + name + "\"]), " + tag + ")");
				WorkerDispatch.access(accesses, name, tag);
				continue;
			}
			throw new CodegenException("Internal error: unsupported builtin tensor collective arg type at index " + i,
					c.span());
		}
		cg.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + handle + "_ord\"][" + rank
				+ "]), TensorArgType.INOUT)");
		cg.out.line(ta + ".add_scalar(" + handle + "[" + rank + "].domain_size)");
		cg.out.line(ta + ".add_scalar(" + handle + "[" + rank + "].device_ctx)");
		if (coreNum != null) {
			cg.out.line(ta + ".add_scalar(" + coreNum + ")");
		}
		cg.out.line(cfg + " = CallConfig()");
		cg.out.line(cfg + ".aicpu_thread_num = config.aicpu_thread_num");
		cg.out.line("_keep.append(" + ta + ")");
		cg.out.line("orch.submit_next_level(callables[\"" + variant + "\"], " + ta + ", " + cfg + ", worker=" + rank + ")");
		WorkerDispatch.access(accesses, handle + "_ord", "TensorArgType.INOUT");
		cg.graph.task(variant, TaskGraph.Kind.CHIP, c.span(), rank, accesses, List.of());
	}
}
