package dev.ptotools.codegen.ir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.types.DType;

/**
 * Prints a program in the form of pypto's IR printer (src/ir/transforms/python_printer.cpp, the
 * {@code passes_dump/*.py} files), so that the IR after each pass can be diffed with pypto's dump of the
 * same pass: functions callee-first, concise {@code pl.range} headers, loop and branch merges as
 * {@code rv: T = pl.yield_(...)}, operators parenthesised by precedence, and within a function two
 * distinct Vars of one name told apart as {@code x}, {@code x_1} (pypto's rename map; the IR keeps the
 * name). Memory references and tile views are not printed.
 */
public final class IrPrinter {

	private final StringBuilder out = new StringBuilder();
	private int indent;
	/** Printed names of Vars whose name another Var of the function shares. */
	private Map<Var, String> rename = Map.of();
	/** Vars a function body uses but neither defines nor receives (pypto marks them __FREE_VAR). */
	private Set<Var> free = Set.of();
	/** pl.dynamic symbols of the program (never free, never renamed per function). */
	private Set<Var> dynamic = Set.of();
	/** Expressions and types, with this printer's names for Vars. */
	private final IrExprPrinter exprs = new IrExprPrinter(this::name);

	private IrPrinter() {
	}

	public static String print(Program p) {
		IrPrinter pr = new IrPrinter();
		pr.out.append("# pypto.program: ").append(p.name()).append('\n');
		pr.out.append("import pypto.language as pl\n\n");
		pr.dynamic = dynamicSymbols(p);
		if (!pr.dynamic.isEmpty()) {
			for (String n : pr.dynamic.stream().map(Var::name).collect(Collectors.toCollection(java.util.TreeSet::new))) {
				pr.out.append(n).append(" = pl.dynamic(\"").append(n).append("\")\n");
			}
			pr.out.append('\n');
		}
		pr.out.append("@pl.program\nclass ").append(p.name()).append(":\n");
		pr.indent = 1;
		for (Function f : calleesFirst(p)) {
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
		pr.buildRenameMap(List.of(), s, false);
		pr.block(s);
		return pr.out.toString();
	}

	/** pypto's TopologicalSortFunctions: by name, each function after the functions it calls. */
	private static List<Function> calleesFirst(Program p) {
		Map<String, Function> byName = new TreeMap<>();
		for (Function f : p.functions()) {
			byName.put(f.name(), f);
		}
		List<Function> sorted = new ArrayList<>();
		Set<String> done = new HashSet<>();
		Set<String> active = new HashSet<>();
		for (String n : byName.keySet()) {
			if (!visitCallees(n, byName, done, active, sorted)) {
				return new ArrayList<>(byName.values());
			}
		}
		return sorted;
	}

	private static boolean visitCallees(String n, Map<String, Function> byName, Set<String> done, Set<String> active,
			List<Function> sorted) {
		if (done.contains(n)) {
			return true;
		}
		if (!active.add(n)) {
			return false;
		}
		Function f = byName.get(n);
		Set<String> callees = new java.util.TreeSet<>();
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				if (c.functionName() != null && byName.containsKey(c.functionName())) {
					callees.add(c.functionName());
				}
				super.call(c);
			}

			@Override
			public void submit(Expr.Submit s) {
				if (s.callee() instanceof Expr.Callee.Function fn && byName.containsKey(fn.name())) {
					callees.add(fn.name());
				}
				super.submit(s);
			}
		}.stmt(f.body());
		for (String c : callees) {
			if (!visitCallees(c, byName, done, active, sorted)) {
				return false;
			}
		}
		active.remove(n);
		done.add(n);
		sorted.add(f);
		return true;
	}

	/**
	 * pypto's CollectDynVarMapping, simplified: Vars that appear in the shape of a tensor or tile type of any
	 * Var of the program (parameters, definitions, uses) and that no function defines.
	 */
	private static Set<Var> dynamicSymbols(Program p) {
		Set<Var> inTypes = new LinkedHashSet<>();
		Set<Var> defined = new HashSet<>();
		for (Function f : p.functions()) {
			for (Var v : f.params()) {
				defined.add(v);
				shapeVars(v.type(), inTypes);
			}
			for (Type t : f.returnTypes()) {
				shapeVars(t, inTypes);
			}
			new IrVisitor() {
				@Override
				public void def(Var v) {
					defined.add(v);
					shapeVars(v.type(), inTypes);
				}

				@Override
				public void use(Var v) {
					shapeVars(v.type(), inTypes);
				}
			}.stmt(f.body());
		}
		inTypes.removeAll(defined);
		return inTypes;
	}

	private static void shapeVars(Type t, Set<Var> out) {
		List<Expr> dims = new ArrayList<>();
		if (t instanceof Type.Tensor x) {
			dims.addAll(x.shape());
			if (x.view() != null) {
				if (x.view().validShape() != null) {
					dims.addAll(x.view().validShape());
				}
				if (x.view().stride() != null) {
					dims.addAll(x.view().stride());
				}
			}
		} else if (t instanceof Type.Tile x) {
			dims.addAll(x.shape());
			if (x.validShape() != null) {
				dims.addAll(x.validShape());
			}
		} else if (t instanceof Type.Tuple tu) {
			tu.elements().forEach(e -> shapeVars(e, out));
		}
		for (Expr d : dims) {
			collectVars(d, out);
		}
	}

	private static void collectVars(Expr e, Set<Var> out) {
		if (e instanceof Var v) {
			out.add(v);
		} else if (e instanceof Expr.Binary b) {
			collectVars(b.left(), out);
			collectVars(b.right(), out);
		} else if (e instanceof Expr.Unary u) {
			collectVars(u.operand(), out);
		}
	}

	/**
	 * pypto's BuildVarRenameMap: params, then definitions in pre-order, then uses; names held by one Var
	 * are kept, every Var of a shared name gets {@code name}, {@code name_1}, ... in that order.
	 */
	private void buildRenameMap(List<Var> params, Stmt body, boolean isFunction) {
		DefsAndUses du = new DefsAndUses();
		du.stmt(body);
		List<Var> ordered = new ArrayList<>(params);
		ordered.addAll(du.defs);
		ordered.addAll(du.uses);
		Set<Var> freeVars = new HashSet<>();
		if (isFunction) {
			Set<Var> paramSet = new HashSet<>(params);
			Set<Var> defSet = new HashSet<>(du.defs);
			for (Var u : du.uses) {
				if (!paramSet.contains(u) && !defSet.contains(u) && !dynamic.contains(u)) {
					freeVars.add(u);
				}
			}
		}
		ordered.removeIf(dynamic::contains);
		List<Var> unique = new ArrayList<>(new LinkedHashSet<>(ordered));
		Map<String, Integer> counts = new HashMap<>();
		for (Var v : unique) {
			counts.merge(v.name(), 1, Integer::sum);
		}
		Set<String> used = new HashSet<>();
		for (Var v : unique) {
			if (counts.get(v.name()) == 1) {
				used.add(v.name());
			}
		}
		Map<Var, String> map = new HashMap<>();
		for (Var v : unique) {
			if (counts.get(v.name()) > 1) {
				String candidate = v.name();
				int n = 0;
				while (!used.add(candidate)) {
					candidate = v.name() + "_" + ++n;
				}
				map.put(v, candidate);
			}
		}
		rename = map;
		free = freeVars;
	}

	/** pypto's VarDefUseCollector order: definitions (loop var, return vars, iter args) and first uses. */
	private static final class DefsAndUses extends IrVisitor {
		final List<Var> defs = new ArrayList<>();
		final Set<Var> uses = new LinkedHashSet<>();

		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.Assign a) {
				defs.add(a.var());
				expr(a.value());
			} else if (s instanceof Stmt.For f) {
				defs.add(f.loopVar());
				defs.addAll(f.returnVars());
				for (IterArg ia : f.iterArgs()) {
					defs.add(ia);
					expr(ia.init());
				}
				expr(f.start());
				expr(f.stop());
				expr(f.step());
				stmt(f.body());
			} else if (s instanceof Stmt.While w) {
				defs.addAll(w.returnVars());
				for (IterArg ia : w.iterArgs()) {
					defs.add(ia);
					expr(ia.init());
				}
				expr(w.condition());
				stmt(w.body());
			} else if (s instanceof Stmt.If i) {
				defs.addAll(i.returnVars());
				expr(i.condition());
				stmt(i.then());
				stmt(i.orelse());
			} else {
				super.stmt(s);
			}
		}

		@Override
		public void use(Var v) {
			uses.add(v);
		}
	}

	private String name(Var v) {
		String r = rename.get(v);
		String n = r != null ? r : v.name();
		return free.contains(v) ? n + "__FREE_VAR" : n;
	}

	private void line(String s) {
		out.append("    ".repeat(indent)).append(s).append('\n');
	}

	private void function(Function f) {
		buildRenameMap(f.params(), f.body(), true);
		// pypto leaves out type= for Opaque functions and the parentheses when nothing is left.
		List<String> keywords = new ArrayList<>();
		if (f.type() != FunctionType.Opaque) {
			keywords.add("type=pl.FunctionType." + f.type());
		}
		if (f.level() != null) {
			keywords.add("level=pl.Level." + f.level());
		}
		if (f.role() != null) {
			keywords.add("role=pl.Role." + f.role());
		}
		// auto_scope and external_source are read before the body: they stay decorator keywords; every other
		// attr prints as a pl.func_attr({...}) prologue of the body (pypto's PrintFunction)
		if (Boolean.FALSE.equals(f.attrs().get("auto_scope"))) {
			keywords.add("auto_scope=False");
		}
		if (f.attrs().get("external_source") instanceof String src && !src.isEmpty()) {
			keywords.add("external_source=\"" + src.replace("\\", "\\\\").replace("\"", "\\\"") + "\""); // std::quoted
		}
		StringBuilder d = new StringBuilder("@pl.function");
		if (!keywords.isEmpty()) {
			d.append('(').append(String.join(", ", keywords)).append(')');
		}
		line(d.toString());
		// pypto declares SubWorker functions self-contained (no self).
		boolean self = f.role() != dev.ptotools.analyzer.ir.Role.SubWorker;
		StringBuilder sig = new StringBuilder("def ").append(f.name()).append(self ? "(self" : "(");
		for (int i = 0; i < f.params().size(); i++) {
			Var v = f.params().get(i);
			String t = typeText(v.type());
			Direction dir = f.directions().get(i);
			if (dir == Direction.Out) {
				t = "pl.Out[" + t + "]";
			} else if (dir == Direction.InOut) {
				t = "pl.InOut[" + t + "]";
			}
			sig.append(i > 0 || self ? ", " : "").append(name(v)).append(": ").append(t);
		}
		sig.append(')');
		if (f.returnTypes().size() == 1) {
			sig.append(" -> ").append(typeText(f.returnTypes().get(0)));
		} else if (f.returnTypes().size() > 1) {
			sig.append(" -> tuple[").append(f.returnTypes().stream().map(this::typeText).collect(Collectors.joining(", ")))
					.append(']');
		}
		line(sig.append(':').toString());
		indent++;
		List<String> prologue = new ArrayList<>();
		for (Map.Entry<String, Object> a : f.attrs().entrySet()) {
			String k = a.getKey();
			if (k.equals("auto_scope") || k.equals("external_source") || k.equals("split") && "None".equals(a.getValue())) {
				continue;
			}
			prologue.add("\"" + k + "\": " + (k.equals("split") ? "pl.SplitMode." + splitMember(a.getValue()) : value(a.getValue())));
		}
		if (!prologue.isEmpty()) {
			line("pl.func_attr({" + String.join(", ", prologue) + "})");
		}
		if (f.body() instanceof Stmt.Seq q && q.stmts().isEmpty()) {
			line("pass");
		} else {
			block(f.body());
		}
		indent--;
	}

	/** pypto's PrintStmtBlock: the statements of a Seq one by one, any other statement as itself. */
	private void block(Stmt s) {
		if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(this::block);
		} else if (s != null) {
			stmt(s);
		}
	}

	/**
	 * pypto's VisitStmtBody: the body of a loop or branch; its trailing yield binds the statement's return
	 * vars ({@code rv: T = pl.yield_(v)}, {@code a, b = pl.yield_(x, y)}).
	 */
	private void body(Stmt s, List<Var> returnVars) {
		indent++;
		bodyStmts(s, returnVars);
		indent--;
	}

	private void bodyStmts(Stmt s, List<Var> returnVars) {
		if (s instanceof Stmt.Seq q && q.stmts().size() == 1) {
			bodyStmts(q.stmts().get(0), returnVars);
		} else if (s instanceof Stmt.Yield y) {
			yieldLine(y, returnVars);
		} else if (s instanceof Stmt.Seq q) {
			if (q.stmts().isEmpty()) {
				line("pass");
				return;
			}
			for (int i = 0; i < q.stmts().size(); i++) {
				Stmt c = q.stmts().get(i);
				if (c instanceof Stmt.Yield y) {
					yieldLine(y, i == q.stmts().size() - 1 ? returnVars : List.of());
				} else {
					block(c);
				}
			}
		} else if (s instanceof Stmt.RuntimeScope r && !r.manual()) {
			line("with pl.scope():");
			body(r.body(), returnVars);
		} else {
			block(s);
		}
	}

	private void yieldLine(Stmt.Yield y, List<Var> returnVars) {
		String call = "pl.yield_(" + exprList(y.values()) + ")";
		if (y.values().isEmpty() || returnVars.isEmpty()) {
			line(call);
		} else if (returnVars.size() == 1) {
			Var rv = returnVars.get(0);
			line(name(rv) + ": " + typeText(rv.type()) + " = " + call);
		} else {
			line(returnVars.stream().map(this::name).collect(Collectors.joining(", ")) + " = " + call);
		}
	}

	private void stmt(Stmt s) {
		if (s instanceof Stmt.Seq q) {
			block(q);
		} else if (s instanceof Stmt.Assign a) {
			line(name(a.var()) + ": " + typeText(a.var().type()) + " = " + text(a.value()));
		} else if (s instanceof Stmt.Eval e) {
			line(text(e.expr()));
		} else if (s instanceof Stmt.Return r) {
			line(r.values().isEmpty() ? "return" : "return " + exprList(r.values()));
		} else if (s instanceof Stmt.Yield y) {
			yieldLine(y, List.of());
		} else if (s instanceof Stmt.Inline in) {
			if (in.code().isEmpty()) {
				line("...");
			} else {
				in.code().lines().forEach(this::line);
			}
		} else if (s instanceof Stmt.Break) {
			line("break");
		} else if (s instanceof Stmt.Continue) {
			line("continue");
		} else if (s instanceof Stmt.For f) {
			forStmt(f);
		} else if (s instanceof Stmt.While w) {
			whileStmt(w);
		} else if (s instanceof Stmt.If i) {
			line("if " + text(i.condition()) + ":");
			body(i.then(), i.returnVars());
			if (i.orelse() != null) {
				line("else:");
				body(i.orelse(), i.returnVars());
			}
		} else if (s instanceof Stmt.RuntimeScope r) {
			line(r.manual() ? "with pl.scope(mode=pl.ScopeMode.MANUAL):" : "with pl.scope():");
			scopeBody(r.body());
		} else if (s instanceof Stmt.InCoreScope sc) {
			line("with pl.at(level=pl.Level.CORE_GROUP" + (sc.nameHint().isEmpty() ? "" : ", name_hint=\"" + sc.nameHint() + "\"")
					+ "):");
			scopeBody(sc.body());
		} else if (s instanceof Stmt.HierarchyScope h) {
			line("with pl.at(level=pl.Level." + h.level() + (h.role() == null ? "" : ", role=pl.Role." + h.role()) + "):");
			scopeBody(h.body());
		} else if (s instanceof Stmt.ClusterScope c) {
			line("with pl.cluster():");
			scopeBody(c.body());
		} else if (s instanceof Stmt.SpmdScope sp) {
			line("with pl.spmd(" + text(sp.coreNum()) + (sp.syncStart() ? ", sync_start=True" : "")
					+ (sp.nameHint().isEmpty() ? "" : ", name_hint=\"" + sp.nameHint() + "\"") + "):");
			scopeBody(sp.body());
		} else if (s instanceof Stmt.CommDomainScope cd) {
			// pypto prints no with-wrapper for a comm domain (it has no DSL form): a comment naming the
			// covered devices and the slots, then the body at the same indent
			String devices = cd.devices().isEmpty() ? "all"
					: "[" + cd.devices().stream().map(String::valueOf).collect(Collectors.joining(", ")) + "]";
			line("# pld.comm_domain: devices=" + devices + ", slots=["
					+ cd.slots().stream().map(WindowBuffer::name).collect(Collectors.joining(", ")) + "]");
			stmt(cd.body());
		} else if (s instanceof Stmt.Scope sc) {
			line("with <" + sc.getClass().getSimpleName() + ">:");
			scopeBody(sc.body());
		}
	}

	private void scopeBody(Stmt s) {
		indent++;
		block(s);
		indent--;
	}

	private void forStmt(Stmt.For f) {
		String iter = switch (f.kind()) {
		case Parallel -> "pl.parallel";
		case Unroll -> "pl.unroll";
		case Pipeline -> "pl.pipeline";
		default -> "pl.range";
		};
		StringBuilder h = new StringBuilder("for ").append(name(f.loopVar()));
		if (!f.iterArgs().isEmpty()) {
			h.append(", (").append(f.iterArgs().stream().map(this::name).collect(Collectors.joining(", ")))
					.append(f.iterArgs().size() == 1 ? ",)" : ")");
		}
		h.append(" in ").append(iter).append('(');
		boolean startZero = isIndexConst(f.start(), 0);
		boolean stepOne = isIndexConst(f.step(), 1);
		if (startZero && stepOne) {
			h.append(text(f.stop()));
		} else if (stepOne) {
			h.append(text(f.start())).append(", ").append(text(f.stop()));
		} else {
			h.append(text(f.start())).append(", ").append(text(f.stop())).append(", ").append(text(f.step()));
		}
		Object stages = f.attr("pipeline_stages");
		if (f.kind() == Stmt.ForKind.Pipeline && stages != null) {
			h.append(", stage=").append(stages);
		}
		if (!f.iterArgs().isEmpty()) {
			h.append(", init_values=(").append(f.iterArgs().stream().map(a -> text(a.init())).collect(Collectors.joining(", ")))
					.append(f.iterArgs().size() == 1 ? ",)" : ")");
		}
		List<String> attrs = new ArrayList<>();
		for (Map.Entry<String, Object> a : f.attrs().entrySet()) {
			if (f.kind() == Stmt.ForKind.Pipeline && a.getKey().equals("pipeline_stages")) {
				continue;
			}
			attrs.add("\"" + a.getKey() + "\": " + value(a.getValue()));
		}
		if (!attrs.isEmpty()) {
			h.append(", attrs={").append(String.join(", ", attrs)).append('}');
		}
		line(h.append("):").toString());
		body(f.body(), f.returnVars());
	}

	private void whileStmt(Stmt.While w) {
		if (w.iterArgs().isEmpty()) {
			line("while " + text(w.condition()) + ":");
			body(w.body(), w.returnVars());
			return;
		}
		line("for (" + w.iterArgs().stream().map(this::name).collect(Collectors.joining(", "))
				+ (w.iterArgs().size() == 1 ? ",)" : ")") + " in pl.while_(init_values=("
				+ w.iterArgs().stream().map(a -> text(a.init())).collect(Collectors.joining(", "))
				+ (w.iterArgs().size() == 1 ? ",)" : ")") + "):");
		indent++;
		line("pl.cond(" + text(w.condition()) + ")");
		bodyStmts(w.body(), w.returnVars());
		indent--;
	}

	private static boolean isIndexConst(Expr e, long v) {
		return e instanceof Expr.ConstInt c && c.value() == v && c.dtype() == DType.INDEX;
	}

	/** A type as pypto prints it, without rename information (for other generators' messages). */
	public static String type(Type t) {
		return new IrExprPrinter(Var::name).typeText(t);
	}

	/** A shape as pypto's FormatShape prints it in messages: {@code [64, 64]}, each dim as {@link #expr}. */
	public static String shape(List<Expr> dims) {
		StringBuilder out = new StringBuilder("[");
		for (int i = 0; i < dims.size(); i++) {
			out.append(i > 0 ? ", " : "").append(expr(dims.get(i)));
		}
		return out.append(']').toString();
	}

	/** An expression as pypto prints it, without rename information (for other generators' messages). */
	public static String expr(Expr e) {
		return new IrExprPrinter(Var::name).text(e);
	}

	private String typeText(Type t) {
		return exprs.typeText(t);
	}

	private String text(Expr e) {
		return exprs.text(e);
	}

	private String exprList(List<Expr> es) {
		return exprs.exprList(es);
	}

	private String value(Object v) {
		return exprs.value(v);
	}

	/** SplitModeToPythonString: the enum member pypto's printer names ("UpDown" as UP_DOWN). */
	public static String splitMember(Object mode) {
		return switch (String.valueOf(mode)) {
		case "UpDown" -> "UP_DOWN";
		case "LeftRight" -> "LEFT_RIGHT";
		default -> "NONE";
		};
	}
}
