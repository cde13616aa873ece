package dev.ptotools.codegen.ir;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.types.DType;

/**
 * Prints a program in the form of pypto's IR printer (its {@code passes_dump/*.py} files), so that the IR
 * after each pass can be read and compared with pypto's dump of the same pass. Memory references and
 * tile views are not printed.
 */
public final class IrPrinter {

	private final StringBuilder out = new StringBuilder();
	private int indent;

	private IrPrinter() {
	}

	public static String print(Program p) {
		IrPrinter pr = new IrPrinter();
		pr.out.append("# pypto.program: ").append(p.name()).append('\n');
		pr.out.append("import pypto.language as pl\n\n@pl.program\nclass ").append(p.name()).append(":\n");
		pr.indent = 1;
		for (Function f : p.sortedByName()) {
			pr.function(f);
		}
		return pr.out.toString();
	}

	public static String print(Function f) {
		IrPrinter pr = new IrPrinter();
		pr.function(f);
		return pr.out.toString();
	}

	public static String print(Stmt s) {
		IrPrinter pr = new IrPrinter();
		pr.stmt(s);
		return pr.out.toString();
	}

	private void line(String s) {
		out.append("    ".repeat(indent)).append(s).append('\n');
	}

	private void function(Function f) {
		StringBuilder d = new StringBuilder("@pl.function(type=pl.FunctionType.").append(f.type());
		if (f.level() != null) {
			d.append(", level=pl.Level.").append(f.level());
		}
		if (f.role() != null) {
			d.append(", role=pl.Role.").append(f.role());
		}
		for (Map.Entry<String, Object> a : f.attrs().entrySet()) {
			d.append(", ").append(a.getKey()).append('=').append(value(a.getValue()));
		}
		line(d.append(')').toString());
		StringBuilder sig = new StringBuilder("def ").append(f.name()).append('(');
		if (f.isOrchestration() || f.type() == dev.ptotools.analyzer.ir.FunctionType.Opaque) {
			sig.append("self");
			if (!f.params().isEmpty()) {
				sig.append(", ");
			}
		}
		for (int i = 0; i < f.params().size(); i++) {
			Var v = f.params().get(i);
			String t = type(v.type());
			Direction dir = f.directions().get(i);
			if (dir == Direction.Out) {
				t = "pl.Out[" + t + "]";
			} else if (dir == Direction.InOut) {
				t = "pl.InOut[" + t + "]";
			}
			sig.append(i > 0 ? ", " : "").append(v.name()).append(": ").append(t);
		}
		sig.append(')');
		if (f.returnTypes().size() == 1) {
			sig.append(" -> ").append(type(f.returnTypes().get(0)));
		} else if (f.returnTypes().size() > 1) {
			sig.append(" -> tuple[").append(f.returnTypes().stream().map(IrPrinter::type).collect(Collectors.joining(", ")))
					.append(']');
		}
		line(sig.append(':').toString());
		indent++;
		int before = out.length();
		stmt(f.body());
		if (out.length() == before) {
			line("pass");
		}
		indent--;
	}

	private void body(Stmt s) {
		indent++;
		int before = out.length();
		stmt(s);
		if (out.length() == before) {
			line("pass");
		}
		indent--;
	}

	private void stmt(Stmt s) {
		if (s == null) {
			return;
		}
		if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(this::stmt);
		} else if (s instanceof Stmt.Assign a) {
			line(a.var().name() + ": " + type(a.var().type()) + " = " + expr(a.value()));
		} else if (s instanceof Stmt.Eval e) {
			line(expr(e.expr()));
		} else if (s instanceof Stmt.Return r) {
			line(r.values().isEmpty() ? "return" : "return " + exprs(r.values()));
		} else if (s instanceof Stmt.Yield y) {
			line("pl.yield_(" + exprs(y.values()) + ")");
		} else if (s instanceof Stmt.Break) {
			line("break");
		} else if (s instanceof Stmt.Continue) {
			line("continue");
		} else if (s instanceof Stmt.For f) {
			String iter = switch (f.kind()) {
			case Parallel -> "pl.parallel";
			case Unroll -> "pl.unroll";
			case Pipeline -> "pl.pipeline";
			default -> "pl.range";
			};
			StringBuilder h = new StringBuilder("for ").append(f.loopVar().name());
			if (!f.iterArgs().isEmpty()) {
				h.append(", (").append(f.iterArgs().stream().map(Var::name).collect(Collectors.joining(", ")))
						.append(f.iterArgs().size() == 1 ? ",)" : ")");
			}
			h.append(" in ").append(iter).append('(').append(expr(f.start())).append(", ").append(expr(f.stop()))
					.append(", ").append(expr(f.step()));
			if (!f.iterArgs().isEmpty()) {
				h.append(", init_values=(").append(f.iterArgs().stream().map(a -> expr(a.init())).collect(Collectors.joining(", ")))
						.append(f.iterArgs().size() == 1 ? ",)" : ")");
			}
			for (Map.Entry<String, Object> a : f.attrs().entrySet()) {
				h.append(", ").append(a.getKey()).append('=').append(value(a.getValue()));
			}
			line(h.append("):").toString());
			body(f.body());
			if (!f.returnVars().isEmpty()) {
				line("# return_vars: " + f.returnVars().stream().map(Var::name).collect(Collectors.joining(", ")));
			}
		} else if (s instanceof Stmt.While w) {
			line("while " + expr(w.condition()) + ":");
			body(w.body());
		} else if (s instanceof Stmt.If i) {
			line("if " + expr(i.condition()) + ":");
			body(i.then());
			if (i.orelse() != null) {
				line("else:");
				body(i.orelse());
			}
			if (!i.returnVars().isEmpty()) {
				line("# return_vars: " + i.returnVars().stream().map(Var::name).collect(Collectors.joining(", ")));
			}
		} else if (s instanceof Stmt.RuntimeScope r) {
			line(r.manual() ? "with pl.manual_scope():" : "with pl.scope():");
			body(r.body());
		} else if (s instanceof Stmt.InCoreScope sc) {
			line("with pl.at(level=pl.Level.CORE_GROUP" + (sc.nameHint().isEmpty() ? "" : ", name_hint=\"" + sc.nameHint() + "\"")
					+ "):");
			body(sc.body());
		} else if (s instanceof Stmt.HierarchyScope h) {
			line("with pl.at(level=pl.Level." + h.level() + (h.role() == null ? "" : ", role=pl.Role." + h.role()) + "):");
			body(h.body());
		} else if (s instanceof Stmt.ClusterScope c) {
			line("with pl.cluster():");
			body(c.body());
		} else if (s instanceof Stmt.SpmdScope sp) {
			line("with pl.spmd(" + expr(sp.coreNum()) + "):");
			body(sp.body());
		} else if (s instanceof Stmt.Scope sc) {
			line("with <" + sc.getClass().getSimpleName() + ">:");
			body(sc.body());
		}
	}

	public static String type(Type t) {
		if (t instanceof Type.Tensor x) {
			String head = x.distributed() ? "pld.DistributedTensor" : "pl.Tensor";
			String layout = x.view() != null ? ", pl." + x.view().layout() : "";
			return head + "[[" + exprList(x.shape()) + "], pl." + x.dtype().dslName() + layout + "]";
		}
		if (t instanceof Type.Tile x) {
			return "pl.Tile[[" + exprList(x.shape()) + "], pl." + x.dtype().dslName()
					+ (x.memory() != null ? ", pl.Mem." + x.memory() : "") + "]";
		}
		if (t instanceof Type.Scalar s) {
			return "pl.Scalar[pl." + s.dtype().dslName() + "]";
		}
		if (t instanceof Type.Tuple tu) {
			return "tuple[" + tu.elements().stream().map(IrPrinter::type).collect(Collectors.joining(", ")) + "]";
		}
		if (t instanceof Type.Array a) {
			return "pl.Array[" + exprList(a.shape()) + ", pl." + a.dtype().dslName() + "]";
		}
		if (t instanceof Type.CommCtx) {
			return "pld.CommCtx";
		}
		if (t instanceof Type.WindowBuffer) {
			return "pl.Ptr";
		}
		return "pl.Unknown";
	}

	private static String exprList(List<Expr> es) {
		return es.stream().map(IrPrinter::expr).collect(Collectors.joining(", "));
	}

	private static String exprs(List<Expr> es) {
		return exprList(es);
	}

	public static String expr(Expr e) {
		if (e == null) {
			return "None";
		}
		if (e instanceof Var v) {
			return v.name();
		}
		if (e instanceof Expr.ConstInt c) {
			return c.dtype() == DType.INDEX ? Long.toString(c.value())
					: "pl.const(" + c.value() + ", pl." + c.dtype().dslName() + ")";
		}
		if (e instanceof Expr.ConstFloat c) {
			return c.dtype() == DType.FP32 ? Double.toString(c.value())
					: "pl.const(" + c.value() + ", pl." + c.dtype().dslName() + ")";
		}
		if (e instanceof Expr.ConstBool b) {
			return b.value() ? "True" : "False";
		}
		if (e instanceof Expr.Binary b) {
			return switch (b.op()) {
			case Min, Max -> "pl." + b.op().symbol() + "(" + expr(b.left()) + ", " + expr(b.right()) + ")";
			default -> "(" + expr(b.left()) + " " + b.op().symbol() + " " + expr(b.right()) + ")";
			};
		}
		if (e instanceof Expr.Unary u) {
			return switch (u.op()) {
			case Neg -> "-" + expr(u.operand());
			case Not -> "not " + expr(u.operand());
			case BitNot -> "~" + expr(u.operand());
			case Abs -> "abs(" + expr(u.operand()) + ")";
			case Cast -> "pl.cast(" + expr(u.operand()) + ", pl." + u.dtype().dslName() + ")";
			};
		}
		if (e instanceof Expr.MakeTuple t) {
			return "[" + exprList(t.elements()) + "]";
		}
		if (e instanceof Expr.TupleGetItem g) {
			return expr(g.tuple()) + "[" + g.index() + "]";
		}
		if (e instanceof Expr.Call c) {
			StringBuilder b = new StringBuilder(c.isOp() ? "pl." + c.name() : "self." + c.name()).append('(')
					.append(exprList(c.args()));
			boolean first = c.args().isEmpty();
			for (Map.Entry<String, Object> k : c.kwargs().entrySet()) {
				String v = k.getKey().equals("layout") && k.getValue() instanceof String l ? "pl.TensorLayout." + l
						: value(k.getValue());
				b.append(first ? "" : ", ").append(k.getKey()).append('=').append(v);
				first = false;
			}
			if (!c.attrs().isEmpty()) {
				b.append(first ? "" : ", ").append("attrs={")
						.append(c.attrs().entrySet().stream().map(a -> "\"" + a.getKey() + "\": " + value(a.getValue()))
								.collect(Collectors.joining(", ")))
						.append('}');
			}
			return b.append(')').toString();
		}
		if (e instanceof Expr.Submit s) {
			return "pl.submit(self." + s.callee().name() + (s.args().isEmpty() ? "" : ", " + exprList(s.args()))
					+ (s.deps().isEmpty() ? "" : ", deps=[" + exprList(s.deps()) + "]") + ")";
		}
		return e.toString();
	}

	private static String value(Object v) {
		if (v instanceof Expr x) {
			return expr(x);
		}
		if (v instanceof ArgDirection d) {
			return "pl.adir." + d.dslName();
		}
		if (v instanceof DType d) {
			return "pl." + d.dslName();
		}
		if (v instanceof MemorySpace m) {
			return "pl.Mem." + m;
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (v instanceof String s) {
			return "\"" + s + "\"";
		}
		if (v instanceof List<?> l) {
			return "[" + l.stream().map(IrPrinter::value).collect(Collectors.joining(", ")) + "]";
		}
		return String.valueOf(v);
	}
}
