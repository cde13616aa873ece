package dev.ptotools.codegen.emit.distributed;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Expressions of a host orchestrator as Python (pypto's DistributedCodegen expression visitors and
 * distributed_scalar_expr_codegen.cpp). Rendering a call may emit lines: a dispatch, a builtin
 * collective, a slice or an assemble writes its own lines and renders as "" (the statement then prints
 * nothing more).
 */
final class HostExprs {

	private final DistributedCodegen cg;
	/** Inside a comm-slot size: variables print as their definitions (pypto's unwrap_hoisted_var_refs_). */
	private boolean unwrap;

	HostExprs(DistributedCodegen cg) {
		this.cg = cg;
	}

	/** A slot size, with every assigned variable replaced by its value (the with-line precedes them). */
	String renderUnwrapped(Expr e) {
		unwrap = true;
		try {
			return render(e);
		} finally {
			unwrap = false;
		}
	}

	String render(Expr e) {
		if (e == null) {
			return "";
		}
		if (e instanceof IterArg a) {
			return render(a.init()); // pypto has no iter-arg visitor: the init value's text is what remains
		}
		if (e instanceof Var v) {
			return var(v);
		}
		if (e instanceof Expr.ConstInt c) {
			return Long.toString(c.value());
		}
		if (e instanceof Expr.ConstFloat c) {
			return String.format(java.util.Locale.ROOT, "%f", c.value()); // std::to_string(double)
		}
		if (e instanceof Expr.ConstBool b) {
			return b.value() ? "True" : "False";
		}
		if (e instanceof Expr.Binary b) {
			return binary(b);
		}
		if (e instanceof Expr.Unary u) {
			return unary(u);
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		if (e instanceof Expr.MakeTuple t) {
			// no visitor for tuples: each element is visited and the last one's text remains
			String last = "";
			for (Expr x : t.elements()) {
				last = render(x);
			}
			return last;
		}
		if (e instanceof Expr.TupleGetItem g) {
			return render(g.tuple());
		}
		throw new CodegenException("a task submission (pl.submit) is not supported in a HOST orchestrator", e.span());
	}

	private String var(Var v) {
		if (unwrap) {
			Var cur = v;
			Set<Var> visited = new HashSet<>();
			while (true) {
				Expr def = cg.varDefs.get(cur);
				if (def == null || !visited.add(cur)) {
					break;
				}
				if (def instanceof Var next && !(def instanceof IterArg)) {
					cur = next;
					continue;
				}
				return render(def);
			}
		}
		return DistributedCodegen.sanitize(v.name());
	}

	private String binary(Expr.Binary b) {
		String l = render(b.left());
		String r = render(b.right());
		return switch (b.op()) {
		case Min -> "min(" + l + ", " + r + ")";
		case Max -> "max(" + l + ", " + r + ")";
		case Xor -> "(" + l + " ^ " + r + ")";
		default -> "(" + l + " " + b.op().symbol() + " " + r + ")";
		};
	}

	private String unary(Expr.Unary u) {
		String x = render(u.operand());
		return switch (u.op()) {
		case Neg -> "(-" + x + ")";
		case Not -> "(not " + x + ")";
		case BitNot -> "(~" + x + ")";
		case Abs -> "abs(" + x + ")";
		case Cast -> (u.dtype().isFloat() ? "float" : u.dtype() == DType.BOOL ? "bool" : "int") + "(" + x + ")";
		};
	}

	/** pypto's FormatArgs. */
	String args(List<Expr> args) {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < args.size(); i++) {
			b.append(i > 0 ? ", " : "").append(render(args.get(i)));
		}
		return b.toString();
	}

	/** pypto's FormatShapeTuple: {@code (64,)}, {@code (1, 256)}, {@code (world_size,)}. */
	String shapeTuple(List<Expr> shape) {
		StringBuilder b = new StringBuilder("(");
		for (int i = 0; i < shape.size(); i++) {
			b.append(i > 0 ? ", " : "").append(render(shape.get(i)));
		}
		if (shape.size() == 1) {
			b.append(',');
		}
		return b.append(')').toString();
	}

	private String call(Expr.Call c) {
		String fn = c.functionName();
		if (fn != null) {
			Function callee = cg.program.function(fn);
			if (callee != null) {
				if (callee.role() == Role.SubWorker) {
					cg.dispatch.emit(c, callee);
					return "";
				}
				if (callee.role() == Role.Orchestrator) {
					boolean provider = DistFunctions.linquLevel(cg.current.level()) >= 3
							&& DistFunctions.linquLevel(callee.level()) >= 3;
					return callee.name() + "(orch, _args, config, tensors=tensors, callables=callables, sub_ids=sub_ids, "
							+ "_keep=_keep, world_size=world_size" + (provider ? ", _domain_provider=_domain_provider" : "")
							+ ")";
				}
				if (callee.type() == FunctionType.Orchestration || callee.type() == FunctionType.InCore) {
					cg.dispatch.emit(c, callee);
					return "";
				}
			}
			return fn + "(" + args(c.args()) + ")";
		}
		String op = c.name();
		if (op.startsWith("dist.")) {
			if (op.equals("dist.tree_reduce")) {
				String text = "tree_reduce(" + args(c.args()) + ")";
				if (!cg.target.isEmpty()) {
					return text;
				}
				cg.out.line(text);
				return "";
			}
			return op + "(" + args(c.args()) + ")";
		}
		switch (op) {
		case "tensor.create":
			HostTensorOps.create(cg, c);
			return "";
		case "pld.system.world_size":
			return "world_size";
		case "pld.tensor.alloc_window_buffer", "pld.tensor.window":
			return ""; // the buffer is a slot of its comm domain; dispatches name it there
		case "tensor.slice":
			HostTensorOps.slice(cg, c);
			return "";
		case "tensor.assemble":
			HostTensorOps.assemble(cg, c);
			return "";
		default:
			break;
		}
		if (cg.builtins.handles(op)) {
			cg.builtins.emit(c);
			return "";
		}
		if (op.startsWith("tensor.") || op.startsWith("tile.")) {
			throw new CodegenException("DistributedCodegen does not support op '" + op + "' in function '"
					+ cg.current.name() + "'. Move this operation into a lower-level function or add a registered "
					+ "HOST-orchestrator lowering.", c.span());
		}
		return op + "(" + args(c.args()) + ")";
	}

	/** pypto's DataTypeToPythonDType: str(dtype) with fp16/fp32/fp64 renamed for torch. */
	static String torchDtype(DType d, dev.ptotools.analyzer.ir.Span at) {
		if (d == null) {
			throw new CodegenException("Unsupported dtype for distributed tensor create: unknown", at);
		}
		return d.torchName();
	}

	/** pypto's DataTypeToSimplerEnum. */
	static String simplerEnum(DType d, dev.ptotools.analyzer.ir.Span at) {
		if (d == null || d.simplerEnum() == null) {
			throw new CodegenException("Unsupported DistributedTensor dtype for simpler.DataType mapping: "
					+ (d == null ? "unknown" : d.text()), at);
		}
		return d.simplerEnum();
	}

	static boolean isTensor(Type t) {
		return t instanceof Type.Tensor;
	}
}
