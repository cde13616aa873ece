package dev.ptotools.codegen.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The host collectives ({@code pld.tensor.allreduce} and its siblings) after pypto's
 * LowerHostTensorCollectives: one builtin dispatch per rank of the data's comm domain (a
 * {@code for r in range(0, world_size, 1)} loop when the domain is every rank), each submitted with
 * {@code orch.submit_next_level} to the builtin's variant callable.
 */
final class HostCollectives {

	/** The ops, their pypto names and per-argument directions (TensorArgType tags). */
	private static final Map<String, List<String>> TAGS = Map.of("allreduce", List.of("INOUT", "INOUT"), "barrier",
			List.of("INOUT"), "broadcast", List.of("INOUT", "INOUT"), "reduce_scatter", List.of("INOUT", "INOUT"),
			"allgather", List.of("INPUT", "INOUT", "INOUT"), "all_to_all", List.of("INPUT", "INOUT", "INOUT"),
			"all_to_all_v", List.of("INPUT", "INOUT", "INOUT", "INPUT", "INOUT"));

	private final HostState st;
	/** Variants dispatched, in first-use order (their next-level builds come from pypto's templates). */
	final List<String> variants = new ArrayList<>();

	HostCollectives(HostState st) {
		this.st = st;
	}

	/** The collective a call is ("allreduce"...), or null. */
	static String opOf(Expr.Call c, dev.ptotools.analyzer.facts.CallResolution calls) {
		for (String op : TAGS.keySet()) {
			if (calls.isBuiltin(c, "pld.tensor." + op)) {
				return op;
			}
		}
		return null;
	}

	void emit(Expr.Call call, String op) {
		List<CommDomains.View> args = new ArrayList<>();
		for (Expr a : call.args()) {
			CommDomains.View v = a instanceof Expr.Name n ? st.views.get(n.id()) : null;
			if (v == null) {
				throw new CodegenException("pld.tensor." + op + " arguments must be window views (pld.window of a "
						+ "pld.alloc_window_buffer) when called from a HOST orchestrator", a.span());
			}
			args.add(v);
		}
		String signal = st.synthesizedSignals.get(call);
		int coreNum = 1;
		Expr.Keyword cn = call.keyword("core_num");
		if (cn != null) {
			Long v = st.ctx.eval().asLong(cn.value());
			if (v == null || v <= 0) {
				throw new CodegenException("pld.tensor.allreduce core_num must be a positive constant", cn.span());
			}
			coreNum = v.intValue();
		}
		CommDomains.View data = args.get(op.equals("allgather") || op.startsWith("all_to_all") ? 1 : 0);
		HostDomain d = new HostDispatch(st).domainOf(data, call);
		String variant = variant(call, op, data);
		if (!variants.contains(variant)) {
			variants.add(variant);
		}
		if (d.workers().isEmpty()) {
			st.out.line("for r in range(0, world_size, 1):");
			st.out.indent();
			dispatch(call, op, args, signal, coreNum, d, variant, "r");
			st.out.dedent();
		} else {
			for (Long w : d.workers()) {
				dispatch(call, op, args, signal, coreNum, d, variant, Long.toString(w));
			}
		}
	}

	private void dispatch(Expr.Call call, String op, List<CommDomains.View> args, String signal, int coreNum,
			HostDomain d, String variant, String rank) {
		HostDispatch hd = new HostDispatch(st);
		String ta = st.nextTaskArgs();
		List<String> tags = TAGS.get(op);
		st.out.line(ta + " = TaskArgs()");
		for (int i = 0; i < args.size(); i++) {
			st.out.line(ta + ".add_tensor(" + hd.windowTensor(args.get(i), d, rank) + ", TensorArgType." + tags.get(i)
					+ ")");
		}
		if (signal != null) {
			st.out.line(ta + ".add_tensor(" + d.handle() + "[" + rank + "].buffers[\"" + signal
					+ "\"].tensor(shapes=(" + signal.replace("_buf_", "_world_size_") + ", " + coreNum
					+ "), dtype=DataType.INT32), TensorArgType.INOUT)");
		}
		st.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + d.handle() + "_ord\"][" + rank
				+ "]), TensorArgType.INOUT)");
		st.out.line(ta + ".add_scalar(" + d.handle() + "[" + rank + "].domain_size)");
		st.out.line(ta + ".add_scalar(" + d.handle() + "[" + rank + "].device_ctx)");
		if (op.equals("allreduce") && !ring(call)) {
			st.out.line(ta + ".add_scalar(" + coreNum + ")");
		}
		st.out.line(ta + "_config = CallConfig()");
		st.out.line(ta + "_config.aicpu_thread_num = config.aicpu_thread_num");
		st.out.line("_keep.append(" + ta + ")");
		st.out.line("orch.submit_next_level(callables[\"" + variant + "\"], " + ta + ", " + ta + "_config, worker="
				+ rank + ")");
	}

	private boolean ring(Expr.Call call) {
		Expr.Keyword mode = call.keyword("mode");
		return mode != null && "ring".equals(st.ctx.eval().eval(mode.value()));
	}

	private String variant(Expr.Call call, String op, CommDomains.View data) {
		DType dtype = viewDtype(data);
		String base = "builtin.tensor." + op;
		switch (op) {
		case "allreduce": {
			if (ring(call)) {
				base = "builtin.tensor.allreduce_ring";
			} else if (call.keyword("mode") != null && !"mesh".equals(st.ctx.eval().eval(call.keyword("mode").value()))) {
				throw new CodegenException("pld.tensor.allreduce mode must be \"ring\" or \"mesh\"", call.span());
			}
			String reduce = reduceOp(call);
			if (dtype != DType.FP16 && dtype != DType.FP32) {
				throw new CodegenException("unsupported builtin.tensor.allreduce dtype " + dtype.text(), call.span());
			}
			return base + "__" + reduce + "__" + dtype.text();
		}
		case "barrier":
			return base + "__fp32";
		case "broadcast": {
			Expr.Keyword root = call.keyword("root");
			Long r = root == null ? Long.valueOf(0) : st.ctx.eval().asLong(root.value());
			if (r == null || r < 0) {
				throw new CodegenException("pld.tensor.broadcast root must be a non-negative constant", call.span());
			}
			return base + "__root" + r + "__" + fp32(dtype, call);
		}
		case "reduce_scatter":
			if (!reduceOp(call).equals("sum")) {
				throw new CodegenException("builtin.tensor.reduce_scatter variant mangling currently supports only "
						+ "ReduceOp.Sum", call.span());
			}
			return base + "__sum__" + fp32(dtype, call);
		default:
			return base + "__" + fp32(dtype, call);
		}
	}

	private static String fp32(DType dtype, Expr.Call call) {
		if (dtype != DType.FP32) {
			throw new CodegenException("builtin tensor collective variant mangling currently supports only FP32, got "
					+ (dtype == null ? "unknown" : dtype.text()), call.span());
		}
		return "fp32";
	}

	private String reduceOp(Expr.Call call) {
		Expr.Keyword k = call.keyword("op");
		if (k == null) {
			return "sum";
		}
		Object v = st.ctx.eval().eval(k.value());
		String member = v instanceof Values.EnumValue e ? e.member()
				: k.value() instanceof Expr.Attribute a ? a.attr() : null;
		if (member == null) {
			throw new CodegenException("op= must be a pld.ReduceOp member", k.span());
		}
		return switch (member) {
		case "Sum", "kSum" -> "sum";
		case "Max", "kMax" -> "max";
		case "Min", "kMin" -> "min";
		case "Prod", "kProd" -> "prod";
		default -> throw new CodegenException("unsupported builtin.tensor.allreduce ReduceOp " + member, k.span());
		};
	}

	private DType viewDtype(CommDomains.View v) {
		Expr.Keyword dk = v.call().keyword("dtype");
		if (dk != null && st.ctx.eval().eval(dk.value()) instanceof Values.DType d) {
			return DType.named(d.name());
		}
		return null;
	}
}
