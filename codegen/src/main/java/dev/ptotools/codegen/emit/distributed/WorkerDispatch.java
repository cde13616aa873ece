package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import dev.ptotools.codegen.graph.TaskGraph;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.support.CodegenException;

/**
 * A call of a next-level orchestrator or a same-level SubWorker (pypto's EmitCallToWorker): a TaskArgs
 * with the real tensors in argument order (window views as the rank's buffer of their comm domain), the
 * auto-allocated return tensor, one ordering token per comm domain touched, then the scalars (CommCtx
 * arguments as the rank's {@code device_ctx}); submitted with {@code _submit_chip} (or
 * {@code orch.submit_sub} for a SubWorker), or collected for the group submission of a grouped rank loop.
 */
final class WorkerDispatch {

	/** Where a grouped rank loop collects its members, and the chip orchestrator they dispatch. */
	record Group(String argsList, String workersList, String callee, String groupId) {
	}

	private final DistributedCodegen cg;

	WorkerDispatch(DistributedCodegen cg) {
		this.cg = cg;
	}

	/** A HOST-or-above SubWorker: a Python callable submitted with {@code orch.submit_sub}. */
	static boolean isSubWorker(Function f) {
		return f.level() != null && f.role() == Role.SubWorker && DistFunctions.linquLevel(f.level()) >= 3;
	}

	static String tag(Direction d) {
		return switch (d) {
		case In -> "TensorArgType.INPUT";
		case Out -> "TensorArgType.OUTPUT_EXISTING";
		case InOut -> "TensorArgType.INOUT";
		};
	}

	/** pypto's ResolveRankExpr: the device= attr as text, "" without one. */
	String rank(Expr.Call c) {
		Object dev = c.attr("device");
		if (dev == null) {
			return "";
		}
		if (dev instanceof Expr.ConstInt ci) {
			if (ci.value() < 0) {
				throw new CodegenException("device= ConstInt must be non-negative rank index, got " + ci.value(), c.span());
			}
			return Long.toString(ci.value());
		}
		if (dev instanceof Var v) {
			return DistributedCodegen.sanitize(v.name());
		}
		throw new CodegenException("device= attr must be ConstInt or Var (N3 parser invariant)", c.span());
	}

	/** A tensor the task passes, by its direction tag ({@code TensorArgType.*}); no-dependency ones are left out. */
	static void access(List<TaskGraph.Access> accesses, String tensor, String tag) {
		TaskGraph.Mode mode = switch (tag) {
		case "TensorArgType.INPUT" -> TaskGraph.Mode.IN;
		case "TensorArgType.OUTPUT", "TensorArgType.OUTPUT_EXISTING" -> TaskGraph.Mode.OUT;
		case "TensorArgType.INOUT" -> TaskGraph.Mode.INOUT;
		default -> null;
		};
		if (mode != null) {
			accesses.add(new TaskGraph.Access(tensor, mode));
		}
	}

	void emit(Expr.Call call, Function callee) {
		boolean sub = isSubWorker(callee);
		String ta = cg.nextTaskArgs();
		String rank = rank(call);
		String target = cg.target;
		List<Stmt.CommDomainScope> touched = new ArrayList<>();
		cg.out.line(ta + " = TaskArgs()");
		List<TaskGraph.Access> accesses = new ArrayList<>();
		List<String> scalars = new ArrayList<>();
		List<Direction> dirs = callee.directions();
		for (int i = 0; i < call.args().size(); i++) {
			Expr arg = call.args().get(i);
			if (arg.type() instanceof Type.CommCtx) {
				scalars.add(ta + ".add_scalar(" + commCtx(arg, rank, call.span()) + ")");
				continue;
			}
			String s = cg.exprs.render(arg);
			if (arg.type() instanceof Type.Tensor t && t.distributed()) {
				if (rank.isEmpty()) {
					throw new CodegenException("Call passing DistributedTensor args must carry device= attr (N3 parser writes "
							+ "attrs[\"device\"] on chip-orch dispatch sites)", call.span());
				}
				if (t.window() == null) {
					throw new CodegenException("DistributedTensorType arg must have window_buffer_ populated by N4 pass",
							call.span());
				}
				String tag = i < dirs.size() ? tag(dirs.get(i)) : "TensorArgType.INOUT";
				Stmt.CommDomainScope scope = cg.scopeOf(t.window(), call.span());
				if (!touched.contains(scope)) {
					touched.add(scope);
				}
				cg.out.line(ta + ".add_tensor(" + DistributedCodegen.handle(scope) + "[" + rank + "].buffers[\""
						+ DistributedCodegen.sanitize(t.window()) + "\"].tensor(shapes=" + cg.exprs.shapeTuple(t.shape())
						+ ", dtype=DataType." + HostExprs.simplerEnum(t.dtype(), call.span()) + "), " + tag + ")");
				access(accesses, DistributedCodegen.windowName(t.window()), tag);
				continue;
			}
			if (arg.type() instanceof Type.Tensor) {
				String tag = i < dirs.size() ? tag(dirs.get(i)) : "TensorArgType.INPUT";
				cg.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + s + "\"]), " + tag + ")");
				access(accesses, s, tag);
				continue;
			}
			if (arg.type() instanceof Type.Scalar) {
				scalars.add(ta + ".add_scalar(" + s + ")");
				continue;
			}
			throw new CodegenException("EmitCallToWorker: unsupported call arg type at index " + i + ": " + arg.type(),
					call.span());
		}
		boolean returns = !callee.returnTypes().isEmpty();
		boolean hasOut = dirs.stream().anyMatch(d -> d == Direction.Out || d == Direction.InOut);
		if (!target.isEmpty() && returns && !hasOut) {
			if (!(callee.returnTypes().get(0) instanceof Type.Tensor rt)) {
				throw new CodegenException("Distributed callee return must be TensorType", call.span());
			}
			cg.out.line("if \"" + target + "\" not in tensors:");
			cg.out.line("    tensors[\"" + target + "\"] = torch.zeros(" + HostTensorOps.shape(rt.shape(), call.span(),
					"Distributed callee return shape dim ") + ", dtype=torch." + HostExprs.torchDtype(rt.dtype(), call.span())
					+ ").share_memory_()");
			cg.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + target
					+ "\"]), TensorArgType.OUTPUT_EXISTING)");
			access(accesses, target, "TensorArgType.OUTPUT_EXISTING");
		}
		if (!sub && !rank.isEmpty()) {
			for (Stmt.CommDomainScope scope : touched) {
				cg.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + DistributedCodegen.handle(scope)
						+ "_ord\"][" + rank + "]), TensorArgType.INOUT)");
				access(accesses, DistributedCodegen.handle(scope) + "_ord", "TensorArgType.INOUT");
			}
		}
		scalars.forEach(cg.out::line);
		boolean grouped = !sub && cg.group != null && cg.group.callee().equals(callee.name());
		cg.graph.task(callee.name(), sub ? TaskGraph.Kind.SUB_WORKER : grouped ? TaskGraph.Kind.CHIP_GROUP
				: TaskGraph.Kind.CHIP, call.span(), rank, accesses, List.of());
		if (sub) {
			cg.out.line("orch.submit_sub(sub_ids[\"" + callee.name() + "\"], " + ta + ")");
		} else {
			cg.out.line("_keep.append(" + ta + ")");
			String worker = rank.isEmpty() ? "None" : rank;
			if (cg.group != null && cg.group.callee().equals(callee.name())) {
				cg.out.line(cg.group.argsList() + ".append(" + ta + ")");
				cg.out.line(cg.group.workersList() + ".append(" + worker + ")");
			} else {
				cg.out.line("_submit_chip(orch, callables[\"" + callee.name() + "\"], " + ta + ", config, " + worker + ")");
			}
		}
		if (!target.isEmpty() && returns) {
			alias(call, callee, target);
		}
	}

	/** The call's value: the tensor of its first Out/InOut argument, or per element for a tuple return. */
	private void alias(Expr.Call call, Function callee, String target) {
		List<Direction> dirs = callee.directions();
		boolean tuple = callee.returnTypes().get(0) instanceof Type.Tuple || callee.returnTypes().size() > 1;
		int k = 0;
		for (int i = 0; i < dirs.size() && i < call.args().size(); i++) {
			if (dirs.get(i) != Direction.Out && dirs.get(i) != Direction.InOut) {
				continue;
			}
			String out = cg.exprs.render(call.args().get(i));
			if (tuple) {
				cg.tupleElements.put(target + "#" + k++, out);
			} else {
				cg.out.line("tensors[\"" + target + "\"] = tensors[\"" + out + "\"]");
				return;
			}
		}
	}

	/**
	 * pypto's ResolveCommCtxArg: a CommCtx parameter by name, or {@code pld.system.get_comm_ctx(view)} as the
	 * rank's {@code device_ctx} of the view's comm domain.
	 */
	private String commCtx(Expr arg, String rank, Span at) {
		Expr cur = arg;
		Set<Var> visited = new HashSet<>();
		while (cur instanceof Var v && !(cur instanceof IterArg)) {
			if (!visited.add(v)) {
				break;
			}
			Expr def = cg.varDefs.get(v);
			if (def == null) {
				break;
			}
			cur = def;
		}
		if (!(cur instanceof Expr.Call) && cur.type() instanceof Type.CommCtx && cur instanceof Var v
				&& !(cur instanceof IterArg)) {
			return DistributedCodegen.sanitize(v.name());
		}
		if (!(cur instanceof Expr.Call q) || !q.isOp("pld.system.get_comm_ctx")) {
			throw new CodegenException("CommCtx call arg must be produced by pld.system.get_comm_ctx or be an explicit "
					+ "CommCtx Var", at);
		}
		if (rank.isEmpty()) {
			throw new CodegenException("Call passing a get_comm_ctx-derived CommCtx arg must carry device= attr so host "
					+ "codegen can select the per-rank device_ctx", at);
		}
		if (q.args().size() != 1) {
			throw new CodegenException("pld.system.get_comm_ctx expects exactly one DistributedTensor arg", q.span());
		}
		if (!(q.args().get(0).type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("pld.system.get_comm_ctx host lowering requires a DistributedTensor arg", q.span());
		}
		if (t.window() == null) {
			throw new CodegenException("pld.system.get_comm_ctx host lowering requires a window-bound DistributedTensor",
					q.span());
		}
		return DistributedCodegen.handle(cg.scopeOf(t.window(), at)) + "[" + rank + "].device_ctx";
	}
}
