package dev.ptotools.codegen.dev;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.frontend.jit.JitSpecializer;

/**
 * Development aid: a specialized jit program written back as the Python source pypto's {@code Specializer}
 * generates, so that the two can be compared (as Python ASTs: parentheses are added generously and
 * numbers may be spelled differently).
 */
final class JitSource {

	private JitSource() {
	}

	static String of(JitSpecializer.JitProgram p, Map<String, String> dynvarLiterals) {
		StringBuilder b = new StringBuilder("import pypto.language as pl\n");
		String all = p.functions().toString();
		if (all.contains("DistributedTensor")) {
			b.append("import pypto.language.distributed as pld\n");
		}
		b.append('\n');
		for (Map.Entry<String, String> d : dynvarLiterals.entrySet()) {
			b.append(d.getKey()).append(" = pl.dynamic(\"").append(d.getValue()).append("\")\n");
		}
		if (!dynvarLiterals.isEmpty()) {
			b.append('\n');
		}
		b.append("@pl.program\nclass ").append(p.name()).append(":\n");
		for (Function f : p.functions()) {
			List<String> kws = new ArrayList<>();
			for (Map.Entry<String, Expr> k : f.decl().keywords().entrySet()) {
				kws.add(k.getKey() + "=" + expr(k.getValue()));
			}
			b.append("    @pl.function(").append(String.join(", ", kws)).append(")\n");
			List<String> params = new ArrayList<>();
			params.add("self");
			for (Param prm : f.params()) {
				if (prm.annotation() == null) {
					params.add(prm.name());
					continue;
				}
				String ann = expr(prm.annotation());
				if (prm.direction() == Direction.Out) {
					ann = "pl.Out[" + ann + "]";
				} else if (prm.direction() == Direction.InOut) {
					ann = "pl.InOut[" + ann + "]";
				}
				params.add(prm.name() + ": " + ann);
			}
			b.append("    def ").append(f.name()).append('(').append(String.join(", ", params)).append(')');
			if (f.returnAnnotation() != null) {
				b.append(" -> ").append(expr(f.returnAnnotation()));
			}
			b.append(":\n");
			block(f.body(), "        ", b);
			b.append('\n');
		}
		return b.toString();
	}

	private static void block(List<Stmt> body, String indent, StringBuilder b) {
		if (body.isEmpty()) {
			b.append(indent).append("pass\n");
		}
		for (Stmt s : body) {
			stmt(s, indent, b);
		}
	}

	private static void stmt(Stmt s, String in, StringBuilder b) {
		if (s instanceof Stmt.Assign a) {
			b.append(in);
			if (a.annotation() != null) {
				b.append(expr(a.targets().get(0))).append(": ").append(expr(a.annotation()));
				if (a.value() != null) {
					b.append(" = ").append(expr(a.value()));
				}
			} else {
				for (Expr t : a.targets()) {
					b.append(target(t)).append(" = ");
				}
				b.append(expr(a.value()));
			}
			b.append('\n');
		} else if (s instanceof Stmt.AugAssign a) {
			b.append(in).append(target(a.target())).append(' ').append(a.op()).append("= ").append(expr(a.value())).append('\n');
		} else if (s instanceof Stmt.ExprStmt e) {
			b.append(in).append(expr(e.value())).append('\n');
		} else if (s instanceof Stmt.For f) {
			b.append(in).append("for ").append(target(f.target())).append(" in ").append(expr(f.iter())).append(":\n");
			block(f.body(), in + "    ", b);
			if (!f.orelse().isEmpty()) {
				b.append(in).append("else:\n");
				block(f.orelse(), in + "    ", b);
			}
		} else if (s instanceof Stmt.While w) {
			b.append(in).append("while ").append(expr(w.test())).append(":\n");
			block(w.body(), in + "    ", b);
			if (!w.orelse().isEmpty()) {
				b.append(in).append("else:\n");
				block(w.orelse(), in + "    ", b);
			}
		} else if (s instanceof Stmt.If i) {
			b.append(in).append("if ").append(expr(i.test())).append(":\n");
			block(i.body(), in + "    ", b);
			if (!i.orelse().isEmpty()) {
				b.append(in).append("else:\n");
				block(i.orelse(), in + "    ", b);
			}
		} else if (s instanceof Stmt.With w) {
			List<String> items = new ArrayList<>();
			for (Stmt.WithItem item : w.items()) {
				items.add(expr(item.context()) + (item.target() == null ? "" : " as " + target(item.target())));
			}
			b.append(in).append("with ").append(String.join(", ", items)).append(":\n");
			block(w.body(), in + "    ", b);
		} else if (s instanceof Stmt.Return r) {
			b.append(in).append("return").append(r.value() == null ? "" : " " + expr(r.value())).append('\n');
		} else if (s instanceof Stmt.Break) {
			b.append(in).append("break\n");
		} else if (s instanceof Stmt.Continue) {
			b.append(in).append("continue\n");
		} else if (s instanceof Stmt.Pass) {
			b.append(in).append("pass\n");
		} else if (s instanceof Stmt.Other o) {
			b.append(in).append("__unsupported_").append(o.kind().replaceAll("\\W", "_")).append("__\n");
		}
	}

	private static String target(Expr t) {
		if (t instanceof Expr.TupleExpr tu) {
			List<String> parts = new ArrayList<>();
			for (Expr e : tu.elts()) {
				parts.add(target(e));
			}
			return parts.size() == 1 ? parts.get(0) + "," : String.join(", ", parts);
		}
		return expr(t);
	}

	static String expr(Expr e) {
		if (e == null) {
			return "None";
		}
		if (e instanceof Expr.Name n) {
			return n.id();
		}
		if (e instanceof Expr.Literal l) {
			Object v = l.value();
			if (v == null || v == Values.None.INSTANCE) {
				return "None";
			}
			if (v instanceof Boolean bo) {
				return bo ? "True" : "False";
			}
			if (v instanceof String str) {
				return "\"" + str.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
			}
			if (v instanceof Double d) {
				return d.isInfinite() ? (d > 0 ? "1e999" : "(-1e999)") : String.valueOf(d);
			}
			return String.valueOf(v);
		}
		if (e instanceof Expr.BinOp bo) {
			return "(" + expr(bo.left()) + " " + bo.op() + " " + expr(bo.right()) + ")";
		}
		if (e instanceof Expr.UnaryOp u) {
			return "(" + u.op() + (u.op().equals("not") ? " " : "") + expr(u.operand()) + ")";
		}
		if (e instanceof Expr.Compare c) {
			StringBuilder b = new StringBuilder("(").append(expr(c.left()));
			for (int i = 0; i < c.ops().size(); i++) {
				b.append(' ').append(c.ops().get(i)).append(' ').append(expr(c.comparators().get(i)));
			}
			return b.append(')').toString();
		}
		if (e instanceof Expr.BoolOp bo) {
			List<String> parts = new ArrayList<>();
			for (Expr v : bo.values()) {
				parts.add(expr(v));
			}
			return "(" + String.join(" " + bo.op() + " ", parts) + ")";
		}
		if (e instanceof Expr.Conditional c) {
			return "(" + expr(c.body()) + " if " + expr(c.test()) + " else " + expr(c.orelse()) + ")";
		}
		if (e instanceof Expr.Attribute a) {
			String base = expr(a.value());
			return (a.value() instanceof Expr.Literal ? "(" + base + ")" : base) + "." + a.attr();
		}
		if (e instanceof Expr.Subscript s) {
			List<String> parts = new ArrayList<>();
			for (Expr i : s.indices()) {
				parts.add(expr(i));
			}
			return expr(s.value()) + "[" + String.join(", ", parts) + "]";
		}
		if (e instanceof Expr.SliceExpr s) {
			return (s.lower() == null ? "" : expr(s.lower())) + ":" + (s.upper() == null ? "" : expr(s.upper()))
					+ (s.step() == null ? "" : ":" + expr(s.step()));
		}
		if (e instanceof Expr.TupleExpr t) {
			List<String> parts = new ArrayList<>();
			for (Expr x : t.elts()) {
				parts.add(expr(x));
			}
			return "(" + String.join(", ", parts) + (parts.size() == 1 ? ",)" : ")");
		}
		if (e instanceof Expr.ListExpr l) {
			List<String> parts = new ArrayList<>();
			for (Expr x : l.elts()) {
				parts.add(expr(x));
			}
			return "[" + String.join(", ", parts) + "]";
		}
		if (e instanceof Expr.DictExpr d) {
			List<String> parts = new ArrayList<>();
			for (int i = 0; i < d.values().size(); i++) {
				Expr k = i < d.keys().size() ? d.keys().get(i) : null;
				parts.add(k == null ? "**" + expr(d.values().get(i)) : expr(k) + ": " + expr(d.values().get(i)));
			}
			return "{" + String.join(", ", parts) + "}";
		}
		if (e instanceof Expr.Starred s) {
			return "*" + expr(s.value());
		}
		if (e instanceof Expr.Call c) {
			List<String> parts = new ArrayList<>();
			for (Expr a : c.args()) {
				parts.add(expr(a));
			}
			for (Expr.Keyword k : c.keywords()) {
				parts.add(k.name() == null ? "**" + expr(k.value()) : k.name() + "=" + expr(k.value()));
			}
			return expr(c.func()) + "(" + String.join(", ", parts) + ")";
		}
		if (e instanceof Expr.Opaque o) {
			if (o.kind().equals("ellipsis")) {
				return "...";
			}
			return "__opaque_" + o.kind().replaceAll("\\W", "_") + "__";
		}
		return "__unknown__";
	}
}
