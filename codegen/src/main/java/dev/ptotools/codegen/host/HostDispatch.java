package dev.ptotools.codegen.host;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * A call of a next-level orchestrator or a same-level SubWorker from a host orchestrator (pypto's
 * EmitCallToWorker): a TaskArgs built from the callee's declared directions, tensors first, then the
 * comm ordering token of each domain the call touches, then the scalars; submitted per rank through
 * {@code _submit_chip}, or collected for one group submission when its rank loop is grouped.
 */
final class HostDispatch {

	/** Where a grouped rank loop collects its members. */
	record Group(String argsList, String workersList) {
	}

	private final HostState st;

	HostDispatch(HostState st) {
		this.st = st;
	}

	static boolean isSubWorker(FunctionInfo info) {
		return info.role() == Role.SubWorker && info.level() != null && info.level().ordinal() >= Level.HOST.ordinal();
	}

	/** Whether the call may be dispatched from this function (pypto's TryEmitHierarchyCall rule). */
	void checkHierarchy(Expr.Call call, Function callee) {
		FunctionInfo cur = st.ctx.info(st.f);
		FunctionInfo info = st.ctx.info(callee);
		if (info.level() == null || info.role() == null || cur.level() == null) {
			throw new CodegenException("'" + callee.name() + "' has no level/role: a host orchestrator can only "
					+ "dispatch next-level orchestrators and same-level sub-workers", call.span());
		}
		boolean sameLevelSub = info.role() == Role.SubWorker && info.level() == cur.level();
		boolean nextLevelOrch = info.role() == Role.Orchestrator && info.level().ordinal() == cur.level().ordinal() - 1;
		if (!sameLevelSub && !nextLevelOrch) {
			throw new CodegenException(cur.level() + "Level Orch func '" + st.f.name() + "' can only call same level "
					+ "sub-worker or next level Orch, but call to func '" + callee.name() + "' has level = '"
					+ info.level() + "', role = '" + info.role() + "'.", call.span());
		}
	}

	void emit(Expr.Call call, Function callee, String target, Group group) {
		boolean sub = isSubWorker(st.ctx.info(callee));
		String ta = st.nextTaskArgs();
		String rank = rank(call);
		st.out.line(ta + " = TaskArgs()");
		List<String> scalars = new ArrayList<>();
		List<HostDomain> touched = new ArrayList<>();
		for (int i = 0; i < call.args().size(); i++) {
			Expr arg = call.args().get(i);
			Direction declared = i < callee.params().size() ? callee.params().get(i).direction() : null;
			if (arg instanceof Expr.Name n && st.commCtx.containsKey(n.id())) {
				scalars.add(ta + ".add_scalar(" + deviceCtx(st.commCtx.get(n.id()), rank, call) + ")");
				continue;
			}
			CommDomains.View view = arg instanceof Expr.Name n ? st.views.get(n.id()) : null;
			if (view != null) {
				if (rank.isEmpty()) {
					throw new CodegenException("Call passing DistributedTensor args must carry device= (the rank "
							+ "whose window the argument names)", call.span());
				}
				HostDomain d = domainOf(view, call);
				if (!touched.contains(d)) {
					touched.add(d);
				}
				String tag = declared == null ? "TensorArgType.INOUT" : tag(declared);
				st.out.line(ta + ".add_tensor(" + windowTensor(view, d, rank) + ", " + tag + ")");
				continue;
			}
			if (arg instanceof Expr.Name n && st.tensors.contains(n.id())) {
				String tag = declared == null ? "TensorArgType.INPUT" : tag(declared);
				st.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + PyExprs.sanitize(n.id())
						+ "\"]), " + tag + ")");
				continue;
			}
			if (arg instanceof Expr.Subscript) {
				throw new CodegenException("tensor.slice in host_orch must have an assignment target: bind the slice "
						+ "to a name before the dispatch", arg.span());
			}
			scalars.add(ta + ".add_scalar(" + st.exprs.render(arg) + ")");
		}
		// MaterializeDistTensorCtx: one CommCtx scalar per DistributedTensor parameter of the callee.
		for (int i = 0; i < callee.params().size() && i < call.args().size(); i++) {
			Param p = callee.params().get(i);
			if (p.type() instanceof TypeSpec.Tensor t && t.kind() == TypeSpec.TensorKind.DISTRIBUTED
					&& call.args().get(i) instanceof Expr.Name n && st.views.containsKey(n.id())) {
				scalars.add(ta + ".add_scalar(" + deviceCtx(st.views.get(n.id()), rank, call) + ")");
			}
		}
		boolean returns = callee.returnAnnotation() != null && !(callee.returnAnnotation() instanceof Expr.Literal);
		if (target != null && returns && outIndices(callee).isEmpty()) {
			TypeSpec rt = ModuleLowering.typeSpec(callee.returnAnnotation());
			if (!(rt instanceof TypeSpec.Tensor t) || t.shape() == null) {
				throw new CodegenException("Distributed callee return must be a tensor with a shape", call.span());
			}
			String key = PyExprs.sanitize(target);
			st.out.line("if \"" + key + "\" not in tensors:");
			st.out.line("    tensors[\"" + key + "\"] = torch.zeros(" + shapeTuple(t.shape(), call) + ", dtype=torch."
					+ dtype(t.dtype(), call).torchName() + ").share_memory_()");
			st.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + key
					+ "\"]), TensorArgType.OUTPUT_EXISTING)");
			st.tensors.add(target);
		}
		if (!sub && !rank.isEmpty()) {
			for (HostDomain d : touched) {
				st.out.line(ta + ".add_tensor(make_tensor_arg(orch._worker, tensors[\"" + d.handle() + "_ord\"][" + rank
						+ "]), TensorArgType.INOUT)");
			}
		}
		scalars.forEach(st.out::line);
		if (sub) {
			st.out.line("orch.submit_sub(sub_ids[\"" + callee.name() + "\"], " + ta + ")");
		} else {
			st.out.line("_keep.append(" + ta + ")");
			if (group != null) {
				st.out.line(group.argsList() + ".append(" + ta + ")");
				st.out.line(group.workersList() + ".append(" + (rank.isEmpty() ? "None" : rank) + ")");
			} else {
				st.out.line("_submit_chip(orch, callables[\"" + callee.name() + "\"], " + ta + ", config, "
						+ (rank.isEmpty() ? "None" : rank) + ")");
			}
		}
		if (target != null && returns) {
			alias(call, callee, target);
		}
	}

	private void alias(Expr.Call call, Function callee, String target) {
		List<Integer> outs = outIndices(callee);
		Expr ann = callee.returnAnnotation();
		boolean tuple = ann instanceof Expr.Subscript s && isTupleHead(s.value());
		if (tuple) {
			int k = 0;
			for (int i : outs) {
				if (i < call.args().size()) {
					st.tupleElements.put(target + "#" + k, st.exprs.render(call.args().get(i)));
					k++;
				}
			}
			return;
		}
		for (int i : outs) {
			if (i < call.args().size()) {
				st.out.line("tensors[\"" + PyExprs.sanitize(target) + "\"] = tensors[\"" + st.exprs.render(call.args().get(i))
						+ "\"]");
				st.tensors.add(target);
				return;
			}
		}
	}

	private static boolean isTupleHead(Expr e) {
		String text = e instanceof Expr.Name n ? n.id() : e instanceof Expr.Attribute a ? a.attr() : "";
		return text.equals("tuple") || text.equals("Tuple");
	}

	static List<Integer> outIndices(Function callee) {
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < callee.params().size(); i++) {
			Direction d = callee.params().get(i).direction();
			if (d == Direction.Out || d == Direction.InOut) {
				out.add(i);
			}
		}
		return out;
	}

	String rank(Expr.Call call) {
		Expr.Keyword device = call.keyword("device");
		if (device == null) {
			return "";
		}
		Expr v = device.value();
		if (v instanceof Expr.Literal l && l.value() instanceof Long n) {
			if (n < 0) {
				throw new CodegenException("device= ConstInt must be non-negative rank index, got " + n, v.span());
			}
			return Long.toString(n);
		}
		if (v instanceof Expr.Name n) {
			Object c = st.ctx.eval().eval(n);
			if (c instanceof Long l && st.scope.assignmentsOf(n.id()).isEmpty() && !isLoopVar(n.id())) {
				return Long.toString(l);
			}
			return PyExprs.sanitize(n.id());
		}
		throw new CodegenException("device= must be a constant rank or the variable of an enclosing rank loop",
				v.span());
	}

	private boolean isLoopVar(String name) {
		boolean[] found = { false };
		dev.ptotools.analyzer.ir.Walk.statements(st.f.body(), s -> {
			if (s instanceof dev.ptotools.analyzer.ir.Stmt.For loop
					&& dev.ptotools.analyzer.ir.Walk.boundNames(loop.target()).contains(name)) {
				found[0] = true;
			}
		});
		return found[0];
	}

	static String tag(Direction d) {
		return switch (d) {
		case In -> "TensorArgType.INPUT";
		case Out -> "TensorArgType.OUTPUT_EXISTING";
		case InOut -> "TensorArgType.INOUT";
		};
	}

	HostDomain domainOf(CommDomains.View view, Expr.Call call) {
		HostDomain d = st.domainOfBuffer.get(view.alloc().name());
		if (d == null || !st.open.contains(d)) {
			throw new CodegenException("WindowBuffer '" + view.alloc().name() + "' is not a slot of any open comm "
					+ "domain (the dispatch must sit inside its comm-domain scope)", call.span());
		}
		return d;
	}

	String windowTensor(CommDomains.View view, HostDomain d, String rank) {
		Expr.Call w = view.call();
		List<Expr> shape = w.args().size() > 1 && w.args().get(1) instanceof Expr.ListExpr l ? l.elts()
				: w.args().size() > 1 && w.args().get(1) instanceof Expr.TupleExpr t ? t.elts() : List.of();
		DType dtype = null;
		Expr.Keyword dk = w.keyword("dtype");
		if (dk != null && st.ctx.eval().eval(dk.value()) instanceof dev.ptotools.analyzer.facts.Values.DType vd) {
			dtype = DType.named(vd.name());
		}
		if (dtype == null || dtype.simplerEnum() == null) {
			throw new CodegenException("Unsupported DistributedTensor dtype for simpler.DataType mapping", w.span());
		}
		return d.handle() + "[" + rank + "].buffers[\"" + PyExprs.sanitize(view.alloc().name()) + "\"].tensor(shapes="
				+ st.exprs.tuple(shape) + ", dtype=DataType." + dtype.simplerEnum() + ")";
	}

	private String deviceCtx(CommDomains.View view, String rank, Expr.Call call) {
		if (rank.isEmpty()) {
			throw new CodegenException("Call passing a CommCtx arg must carry device= so host codegen can select the "
					+ "per-rank device_ctx", call.span());
		}
		return domainOf(view, call).handle() + "[" + rank + "].device_ctx";
	}

	String shapeTuple(List<Expr> shape, Expr.Call at) {
		StringBuilder b = new StringBuilder("(");
		for (int i = 0; i < shape.size(); i++) {
			if (i > 0) {
				b.append(", ");
			}
			Object v = st.ctx.eval().eval(shape.get(i));
			if (v instanceof Long l) {
				b.append(l);
			} else if (v instanceof dev.ptotools.analyzer.facts.Values.DynVar dyn) {
				b.append(PyExprs.sanitize(dyn.name()));
			} else if (shape.get(i) instanceof Expr.Name n) {
				b.append(PyExprs.sanitize(n.id()));
			} else {
				throw new CodegenException("tensor.create shape dim " + i + " must be a ConstInt or Var (dynamic shape "
						+ "variable), got expression of unsupported kind", at.span());
			}
		}
		if (shape.size() == 1) {
			b.append(',');
		}
		return b.append(')').toString();
	}

	static DType dtype(String name, Expr.Call at) {
		DType d = DType.named(name);
		if (d == null) {
			throw new CodegenException("Unsupported dtype for distributed tensor create: " + name, at.span());
		}
		return d;
	}
}
