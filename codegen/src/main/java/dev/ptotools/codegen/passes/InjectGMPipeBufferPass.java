package dev.ptotools.codegen.passes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's InjectGMPipeBuffer (src/ir/transforms/inject_gm_pipe_buffer_pass.cpp), Ascend910B only: every
 * function that initializes a cross-core pipe (the AIC/AIV halves of a mixed kernel), and every
 * non-Orchestration function calling one (Group, Spmd...), gets a trailing
 * {@code __gm_pipe_buffer: pl.Out[pl.Tensor[[1], pl.FP32]]} parameter that it forwards; each call of such
 * a function in an Orchestration function is preceded by
 * {@code gm_pipe_buffer_<n> = tensor.create([1], dtype=FP32, layout=ND, manual_dep=True)} ({@code n}
 * counting per function) and passes it.
 */
public final class InjectGMPipeBufferPass implements Pass {

	static final String PARAM = "__gm_pipe_buffer";

	@Override
	public String name() {
		return "InjectGMPipeBuffer";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded, IrProperty.NormalizedStmtStructure);
	}

	private static final Type BUFFER = new Type.Tensor(List.of(Expr.index(1)), DType.FP32);

	private static List<Stmt> flat(Stmt s) {
		return ScopeOutliner.flatten(Stmt.flatten(s));
	}

	private static boolean initializesPipe(List<Stmt> stmts) {
		for (Stmt s : stmts) {
			Expr v = s instanceof Stmt.Assign a ? a.value() : s instanceof Stmt.Eval e ? e.expr() : null;
			if (v instanceof Expr.Call c && (c.isOp("system.aic_initialize_pipe") || c.isOp("system.aiv_initialize_pipe"))) {
				return true;
			}
			for (Stmt b : children(s)) {
				if (initializesPipe(flat(b))) {
					return true;
				}
			}
		}
		return false;
	}

	private static List<Stmt> children(Stmt s) {
		if (s instanceof Stmt.For f) {
			return List.of(f.body());
		}
		if (s instanceof Stmt.While w) {
			return List.of(w.body());
		}
		if (s instanceof Stmt.If i) {
			return i.orelse() == null ? List.of(i.then()) : List.of(i.then(), i.orelse());
		}
		if (s instanceof Stmt.Scope sc) {
			return List.of(sc.body());
		}
		return List.of();
	}

	private static String calleeOf(Stmt s) {
		Expr v = s instanceof Stmt.Assign a ? a.value() : s instanceof Stmt.Eval e ? e.expr() : null;
		if (v instanceof Expr.Call c) {
			return c.functionName();
		}
		if (v instanceof Expr.Submit sb && sb.callee() instanceof Expr.Callee.Function fn) {
			return fn.name();
		}
		return null;
	}

	private static void callGraph(dev.ptotools.codegen.ir.Function f, List<Stmt> stmts, Set<String> names,
			Map<String, Set<String>> callers, Map<String, Set<String>> callees) {
		for (Stmt s : stmts) {
			String c = calleeOf(s);
			if (c != null && names.contains(c)) {
				callees.computeIfAbsent(f.name(), k -> new HashSet<>()).add(c);
				callers.computeIfAbsent(c, k -> new HashSet<>()).add(f.name());
			}
			for (Stmt b : children(s)) {
				callGraph(f, flat(b), names, callers, callees);
			}
		}
	}

	private static boolean hasParam(dev.ptotools.codegen.ir.Function f) {
		return f.params().stream().anyMatch(p -> p.name().equals(PARAM));
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		if (ctx.backend() != Backend.ASCEND_910B) {
			return program;
		}
		List<dev.ptotools.codegen.ir.Function> fs = new ArrayList<>(program.sortedByName());
		Set<String> names = new HashSet<>();
		fs.forEach(f -> names.add(f.name()));
		Map<String, Set<String>> callers = new HashMap<>();
		Map<String, Set<String>> callees = new HashMap<>();
		Map<String, dev.ptotools.codegen.ir.Function> byName = new LinkedHashMap<>();
		for (dev.ptotools.codegen.ir.Function f : fs) {
			byName.put(f.name(), f);
			callGraph(f, flat(f.body()), names, callers, callees);
		}
		Set<String> needs = new HashSet<>();
		for (dev.ptotools.codegen.ir.Function f : fs) {
			if (!hasParam(f) && initializesPipe(flat(f.body()))) {
				needs.add(f.name());
			}
		}
		if (needs.isEmpty()) {
			return program;
		}
		Deque<String> work = new ArrayDeque<>(needs);
		while (!work.isEmpty()) {
			for (String caller : callers.getOrDefault(work.pop(), Set.of())) {
				dev.ptotools.codegen.ir.Function cf = byName.get(caller);
				if (cf != null && cf.type() != FunctionType.Orchestration && needs.add(caller)) {
					work.push(caller);
				}
			}
		}
		for (int i = 0; i < fs.size(); i++) {
			dev.ptotools.codegen.ir.Function f = fs.get(i);
			if (needs.contains(f.name()) && !hasParam(f)) {
				List<Var> params = new ArrayList<>(f.params());
				List<Direction> dirs = new ArrayList<>(f.directions());
				params.add(new Var(PARAM, BUFFER, f.span()));
				dirs.add(Direction.Out);
				fs.set(i, f.withSignature(params, dirs, f.returnTypes()));
			}
		}
		for (int i = 0; i < fs.size(); i++) {
			dev.ptotools.codegen.ir.Function f = fs.get(i);
			if (!needs.contains(f.name())) {
				continue;
			}
			Var gm = f.params().stream().filter(p -> p.name().equals(PARAM)).findFirst().orElseThrow();
			Set<String> mod = new HashSet<>();
			for (String c : callees.getOrDefault(f.name(), Set.of())) {
				if (needs.contains(c)) {
					mod.add(c);
				}
			}
			if (!mod.isEmpty()) {
				fs.set(i, f.withBody(rewrite(f.body(), mod, stmt -> gm, null)));
			}
		}
		for (int i = 0; i < fs.size(); i++) {
			dev.ptotools.codegen.ir.Function f = fs.get(i);
			if (f.type() != FunctionType.Orchestration) {
				continue;
			}
			int[] counter = { 0 };
			List<Stmt> creates = new ArrayList<>();
			Function<Stmt, Var> perCall = stmt -> {
				Var v = new Var("gm_pipe_buffer_" + counter[0]++, BUFFER, f.span());
				Map<String, Object> kw = new LinkedHashMap<>();
				kw.put("dtype", DType.FP32);
				kw.put("layout", "ND");
				kw.put("manual_dep", true);
				creates.add(new Stmt.Assign(v, Expr.Call.op("tensor.create",
						List.of(new Expr.MakeTuple(List.of(Expr.index(1)), f.span())), kw, BUFFER, f.span()), f.span()));
				return v;
			};
			fs.set(i, f.withBody(rewrite(f.body(), needs, perCall, creates)));
		}
		return program.withFunctions(fs);
	}

	/**
	 * Appends the buffer to each call (an assignment or evaluation value) of a function in mod, recursing
	 * into loops, branches and scopes. When creates is not null, the statements perCall adds there are
	 * placed right before the call.
	 */
	private static Stmt rewrite(Stmt body, Set<String> mod, Function<Stmt, Var> perCall, List<Stmt> creates) {
		List<Stmt> out = new ArrayList<>();
		boolean changed = false;
		for (Stmt s : flat(body)) {
			String c = calleeOf(s);
			if (c != null && mod.contains(c)) {
				Var buf = perCall.apply(s);
				if (creates != null) {
					out.addAll(creates);
					creates.clear();
				}
				out.add(withArg(s, buf));
				changed = true;
				continue;
			}
			Stmt n = s;
			if (s instanceof Stmt.For f) {
				n = f.withBody(rewrite(f.body(), mod, perCall, creates));
				n = ((Stmt.For) n).body() == f.body() ? s : n;
			} else if (s instanceof Stmt.While w) {
				Stmt b = rewrite(w.body(), mod, perCall, creates);
				n = b == w.body() ? s : new Stmt.While(w.condition(), w.iterArgs(), b, w.returnVars(), w.span());
			} else if (s instanceof Stmt.If i) {
				Stmt t = rewrite(i.then(), mod, perCall, creates);
				Stmt e = i.orelse() == null ? null : rewrite(i.orelse(), mod, perCall, creates);
				n = t == i.then() && e == i.orelse() ? s : new Stmt.If(i.condition(), t, e, i.returnVars(), i.span());
			} else if (s instanceof Stmt.Scope sc) {
				Stmt b = rewrite(sc.body(), mod, perCall, creates);
				n = b == sc.body() ? s : sc.withBody(b);
			}
			changed |= n != s;
			out.add(n);
		}
		return changed ? new Stmt.Seq(out, body.span()) : body;
	}

	private static Stmt withArg(Stmt s, Var buf) {
		if (s instanceof Stmt.Assign a) {
			return new Stmt.Assign(a.var(), appended(a.value(), buf), a.span());
		}
		Stmt.Eval e = (Stmt.Eval) s;
		return new Stmt.Eval(appended(e.expr(), buf), e.span());
	}

	private static Expr appended(Expr v, Var buf) {
		if (v instanceof Expr.Call c) {
			List<Expr> args = new ArrayList<>(c.args());
			args.add(buf);
			return c.withArgs(args);
		}
		Expr.Submit sb = (Expr.Submit) v;
		List<Expr> args = new ArrayList<>(sb.args());
		args.add(buf);
		return sb.withArgs(args);
	}
}
