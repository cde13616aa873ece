package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DeepClone;
import dev.ptotools.codegen.passes.util.Stmts;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's inline_functions (InlineFunctions, src/ir/transforms/inline_functions_pass.cpp): every
 * statement-level call of a {@code FunctionType.Inline} function ({@code x = f(...)}, {@code f(...)},
 * {@code return f(...)}) is replaced by the callee's body, parameters bound to the arguments and every
 * local definition renamed {@code <name>_inline<K>}; calls nested in expressions stay. Repeated to a
 * fixpoint (inline functions calling inline functions), then the inline functions are dropped.
 *
 * <p>K comes from one counter that pypto keeps for the whole process; here it lives in the
 * {@link PassContext}. pypto numbers the locals of one splice in the iteration order of a pointer hash
 * set, which is not reproducible: we number them in reverse definition order, which is what pypto shows
 * when no two Vars share a hash bucket. Functions are visited in name order (pypto: hash map order).
 */
public final class InlineFunctionsPass implements Pass {

	@Override
	public String name() {
		return "InlineFunctions";
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.InlineFunctionsEliminated);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Map<String, Function> inlineFns = new TreeMap<>();
		for (Function f : program.functions()) {
			if (f.type() == FunctionType.Inline) {
				if (inlineFns.put(f.name(), f) != null) {
					throw new CodegenException("Duplicate FunctionType::Inline function name '" + f.name() + "' in program",
							f.span());
				}
			}
		}
		if (inlineFns.isEmpty()) {
			return program;
		}
		detectCycles(inlineFns);
		Map<String, Function> current = new TreeMap<>();
		for (Function f : program.functions()) {
			current.put(f.name(), f);
		}
		int maxIters = inlineFns.size() + 1;
		for (int iter = 0; iter < maxIters; iter++) {
			boolean anyChanged = false;
			Map<String, Function> latest = new HashMap<>();
			for (String n : inlineFns.keySet()) {
				latest.put(n, current.get(n));
			}
			for (Map.Entry<String, Function> e : current.entrySet()) {
				Inliner inliner = new Inliner(latest, ctx);
				Stmt body = inliner.stmt(e.getValue().body());
				if (inliner.changed) {
					e.setValue(e.getValue().withBody(body));
					anyChanged = true;
				}
			}
			if (!anyChanged) {
				break;
			}
			if (iter + 1 >= maxIters) {
				throw new CodegenException("internal error: InlineFunctions did not reach a fixpoint within " + maxIters
						+ " iterations", Span.NONE);
			}
		}
		List<Function> kept = new ArrayList<>();
		for (Function f : program.functions()) {
			Function latestF = current.get(f.name());
			if (latestF.type() != FunctionType.Inline) {
				kept.add(latestF);
			}
		}
		return program.withFunctions(kept);
	}

	private static void detectCycles(Map<String, Function> inlineFns) {
		Map<String, Set<String>> graph = new HashMap<>();
		for (Map.Entry<String, Function> e : inlineFns.entrySet()) {
			Set<String> called = new LinkedHashSet<>();
			new IrVisitor() {
				@Override
				public void call(Expr.Call c) {
					if (c.functionName() != null && inlineFns.containsKey(c.functionName())) {
						called.add(c.functionName());
					}
					super.call(c);
				}
			}.stmt(e.getValue().body());
			graph.put(e.getKey(), called);
		}
		Map<String, Integer> color = new HashMap<>(); // absent white, 1 gray, 2 black
		List<String> stack = new ArrayList<>();
		for (String n : inlineFns.keySet()) {
			if (!color.containsKey(n)) {
				dfs(n, graph, color, stack, inlineFns);
			}
		}
	}

	private static void dfs(String u, Map<String, Set<String>> graph, Map<String, Integer> color, List<String> stack,
			Map<String, Function> fns) {
		color.put(u, 1);
		stack.add(u);
		for (String v : graph.get(u)) {
			Integer c = color.get(v);
			if (c != null && c == 1) {
				StringBuilder cycle = new StringBuilder();
				boolean started = false;
				for (String s : stack) {
					started |= s.equals(v);
					if (started) {
						cycle.append(s).append(" -> ");
					}
				}
				cycle.append(v);
				throw new CodegenException("Cycle detected in FunctionType::Inline call graph: " + cycle, fns.get(u).span());
			}
			if (c == null) {
				dfs(v, graph, color, stack, fns);
			}
		}
		stack.remove(stack.size() - 1);
		color.put(u, 2);
	}

	/** A callee body cloned for one call site: its statements before the return and the returned values. */
	private record Spliced(List<Stmt> stmts, List<Expr> returnValues, boolean hasReturn) {
	}

	private static final class Inliner extends IrMutator {
		private final Map<String, Function> inlineFns;
		private final PassContext ctx;
		boolean changed;
		private final Map<Var, List<Expr>> tupleSubs = new HashMap<>();

		Inliner(Map<String, Function> inlineFns, PassContext ctx) {
			this.inlineFns = inlineFns;
			this.ctx = ctx;
		}

		@Override
		public Stmt seq(Stmt.Seq q) {
			List<Stmt> out = new ArrayList<>();
			boolean any = false;
			for (Stmt s : q.stmts()) {
				List<Stmt> spliced = spliceTopLevel(s);
				if (spliced != null) {
					out.addAll(spliced);
					any = true;
					changed = true;
					continue;
				}
				Stmt n = stmt(s);
				any |= n != s;
				out.add(n);
			}
			return any ? Stmts.flatten(out, q.span()) : q;
		}

		@Override
		public Stmt stmt(Stmt s) {
			if (s instanceof Stmt.Assign || s instanceof Stmt.Eval || s instanceof Stmt.Return) {
				List<Stmt> spliced = spliceTopLevel(s);
				if (spliced != null) {
					changed = true;
					return Stmts.flatten(spliced, s.span());
				}
			}
			return super.stmt(s);
		}

		@Override
		public Expr expr(Expr e) {
			if (e instanceof Expr.TupleGetItem g && !tupleSubs.isEmpty()) {
				Expr t = expr(g.tuple());
				if (t instanceof Var v && tupleSubs.containsKey(v)) {
					List<Expr> vals = tupleSubs.get(v);
					if (g.index() >= 0 && g.index() < vals.size()) {
						return expr(vals.get(g.index()));
					}
				}
				return t == g.tuple() ? g : new Expr.TupleGetItem(t, g.index(), g.span());
			}
			return super.expr(e);
		}

		private Function callee(Expr e) {
			return e instanceof Expr.Call c && c.functionName() != null ? inlineFns.get(c.functionName()) : null;
		}

		/** The statements replacing a top-level inline call statement, or null when s is none. */
		private List<Stmt> spliceTopLevel(Stmt s) {
			if (s instanceof Stmt.Assign a && callee(a.value()) != null) {
				Expr.Call call = (Expr.Call) a.value();
				Function f = callee(call);
				if (returnsTuple(f)) {
					List<Expr> sub = new ArrayList<>();
					List<Stmt> stmts = spliceTupleSub(f, call.args(), sub);
					tupleSubs.put(a.var(), sub);
					return stmts;
				}
				Spliced b = cloneBody(f, call.args());
				if (!b.hasReturn() || b.returnValues().size() != 1) {
					throw new CodegenException("Inline function '" + f.name() + "' is called for its value but returns "
							+ b.returnValues().size() + " values", a.span());
				}
				Expr value = b.returnValues().get(0);
				List<Stmt> out = new ArrayList<>(b.stmts());
				if (value != a.var()) {
					out.add(new Stmt.Assign(a.var(), value, a.span()));
				}
				return out;
			}
			if (s instanceof Stmt.Eval e && callee(e.expr()) != null) {
				Expr.Call call = (Expr.Call) e.expr();
				return new ArrayList<>(cloneBody(callee(call), call.args()).stmts());
			}
			if (s instanceof Stmt.Return r && r.values().size() == 1 && callee(r.values().get(0)) != null) {
				Expr.Call call = (Expr.Call) r.values().get(0);
				Spliced b = cloneBody(callee(call), call.args());
				List<Stmt> out = new ArrayList<>(b.stmts());
				out.add(new Stmt.Return(b.returnValues(), r.span()));
				return out;
			}
			return null;
		}

		private static boolean returnsTuple(Function f) {
			Stmt body = f.body();
			if (body instanceof Stmt.Seq q) {
				if (q.stmts().isEmpty()) {
					return false;
				}
				body = q.stmts().get(q.stmts().size() - 1);
			}
			if (!(body instanceof Stmt.Return r)) {
				return false;
			}
			return r.values().size() > 1 || (r.values().size() == 1 && r.values().get(0).type() instanceof Type.Tuple);
		}

		private List<Stmt> spliceTupleSub(Function f, List<Expr> args, List<Expr> out) {
			Spliced b = cloneBody(f, args);
			List<Stmt> stmts = new ArrayList<>(b.stmts());
			if (b.returnValues().size() > 1) {
				out.addAll(b.returnValues());
				return stmts;
			}
			Expr ret = b.returnValues().get(0);
			if (ret instanceof Expr.MakeTuple t) {
				out.addAll(t.elements());
				return stmts;
			}
			if (ret instanceof Var v) {
				for (int i = stmts.size() - 1; i >= 0; i--) {
					if (stmts.get(i) instanceof Stmt.Assign a && a.var() == v && a.value() instanceof Expr.MakeTuple t) {
						out.addAll(t.elements());
						stmts.remove(i);
						return stmts;
					}
				}
			}
			throw new CodegenException("Inline function '" + f.name() + "' returns a tuple through an unsupported "
					+ "expression; return its elements directly or via a tuple literal", f.span());
		}

		/** The callee body with parameters bound to the arguments and its definitions renamed x_inlineK. */
		private Spliced cloneBody(Function f, List<Expr> args) {
			if (f.params().size() != args.size()) {
				throw new CodegenException("Inline call to '" + f.name() + "' has " + args.size() + " argument(s) but the "
						+ "function expects " + f.params().size(), f.span());
			}
			Map<Var, Expr> seed = new HashMap<>();
			for (int i = 0; i < args.size(); i++) {
				seed.put(f.params().get(i), args.get(i));
			}
			List<Var> defs = new ArrayList<>(definitions(f.body()));
			java.util.Collections.reverse(defs);
			for (Var v : defs) {
				if (!seed.containsKey(v)) {
					seed.put(v, new Var(v.name() + "_inline" + ctx.nextInlineNumber(), v.type(), v.span()));
				}
			}
			Stmt body = DeepClone.clone(f.body(), seed, true);
			List<Stmt> stmts = new ArrayList<>();
			List<Expr> ret = List.of();
			boolean hasReturn = false;
			for (Stmt s : Stmts.topLevel(body)) {
				if (s instanceof Stmt.Return r) {
					ret = r.values();
					hasReturn = true;
					break;
				}
				stmts.add(s);
			}
			for (Stmt s : stmts) {
				boolean[] nested = { false };
				new IrVisitor() {
					@Override
					public void stmt(Stmt st) {
						nested[0] |= st instanceof Stmt.Return;
						super.stmt(st);
					}
				}.stmt(s);
				if (nested[0]) {
					throw new CodegenException("Inline function '" + f.name() + "' contains a non-trailing ReturnStmt; only a "
							+ "single trailing return is supported (early-return inside an If/For/While branch is rejected)",
							f.span());
				}
			}
			return new Spliced(stmts, ret, hasReturn);
		}

		/** pypto's DefVarCollector in visit order: assignment targets, loop variables, return vars. */
		private static Set<Var> definitions(Stmt body) {
			Set<Var> defs = new LinkedHashSet<>();
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.Assign a) {
						defs.add(a.var());
					} else if (s instanceof Stmt.For f) {
						defs.add(f.loopVar());
						defs.addAll(f.returnVars());
					} else if (s instanceof Stmt.While w) {
						defs.addAll(w.returnVars());
					} else if (s instanceof Stmt.If i) {
						defs.addAll(i.returnVars());
					}
					super.stmt(s);
				}
			}.stmt(body);
			return defs;
		}
	}
}
