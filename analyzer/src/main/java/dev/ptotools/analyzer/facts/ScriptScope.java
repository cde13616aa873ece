package dev.ptotools.analyzer.facts;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The Python values names hold at a point of a module's plain code, folded statically: module-level
 * constants, then a function's parameters (their defaults unless given) and the assignments before
 * that point, in source order. Control flow is not followed (an assignment under an if counts); a
 * name assigned something that does not fold is unknown from there on, as a reader would expect. An
 * argparse parser's options are their defaults ({@link ArgparseFolding}).
 */
public final class ScriptScope {

	private final Script script;
	/** How the script writes argparse's parser class. */
	private final java.util.Set<String> argumentParsers;
	private final String pl;
	private final String pld;
	private final List<dev.ptotools.analyzer.ir.Function> dslFunctions;

	/**
	 * A {@code @pl.function} a helper returned ({@code _qk = make_kernel_qk(...)}): the function and the
	 * values of the frame it was defined in.
	 */
	public record FunctionValue(dev.ptotools.analyzer.ir.Function function, Map<String, Object> closure) {
	}

	public ScriptScope(dev.ptotools.analyzer.ir.ModuleIR module) {
		this.script = module.script();
		this.argumentParsers = ArgparseFolding.constructors(script);
		this.pl = module.pl();
		this.pld = module.pld();
		List<dev.ptotools.analyzer.ir.Function> fs = new java.util.ArrayList<>();
		for (dev.ptotools.analyzer.ir.Program p : module.programs()) {
			if (p.style() == dev.ptotools.analyzer.ir.Program.Style.JIT) {
				fs.addAll(p.functions());
			}
		}
		this.dslFunctions = fs;
	}

	/** The module's constants (top-level assignments, all of them), folded once. */
	private Map<String, Object> moduleEnv;

	public Map<String, Object> module() {
		if (moduleEnv == null) {
			moduleEnv = new HashMap<>(); // helpers called while folding see what is folded so far
			assignments(script.body(), moduleEnv, Integer.MAX_VALUE);
		}
		return moduleEnv;
	}

	/**
	 * The values at offset {@code at} inside def d (null: the module level), with d's parameters
	 * bound to {@code params} where given and to their defaults otherwise.
	 */
	public Map<String, Object> at(Script.Def d, int at, Map<String, Object> params) {
		if (d == null) {
			Map<String, Object> env = new HashMap<>();
			assignments(script.body(), env, at);
			return env;
		}
		return within(at(d.parent(), d.span().start(), Map.of()), d, at, params);
	}

	/**
	 * The values at offset {@code at} inside def d, whose enclosing frame holds {@code enclosing} where d
	 * is defined (for a def nested in a builder the module binds).
	 */
	public Map<String, Object> within(Map<String, Object> enclosing, Script.Def d, int at, Map<String, Object> params) {
		Map<String, Object> env = new HashMap<>(enclosing);
		ConstEval eval = evaluator(env);
		for (Script.DefParam p : d.params()) {
			if (params.containsKey(p.name())) {
				env.put(p.name(), params.get(p.name()));
			} else if (p.defaultValue() != null) {
				put(env, p.name(), eval.eval(p.defaultValue()));
			} else {
				env.remove(p.name());
			}
		}
		assignments(d.body(), env, at);
		return env;
	}

	public ConstEval evaluator(Map<String, Object> env) {
		return new ConstEval(env, pl, pld, c -> helperCall(c, env, 0));
	}

	private void assignments(List<Stmt> body, Map<String, Object> env, int before) {
		ConstEval eval = evaluator(env);
		for (Stmt s : body) {
			if (s.span().start() >= before) {
				return;
			}
			if (s instanceof Stmt.Assign a && a.value() != null) {
				Object parsing = ArgparseFolding.assigned(a.value(), env, argumentParsers);
				Object v = parsing != null ? parsing : eval.eval(a.value());
				for (Expr t : a.targets()) {
					bind(t, v, env);
				}
			} else if (s instanceof Stmt.ExprStmt e) {
				ArgparseFolding.applied(e, env, eval);
			} else if (s instanceof Stmt.If i) {
				assignments(i.body(), env, before);
				assignments(i.orelse(), env, before);
			} else if (s instanceof Stmt.For f) {
				assignments(f.body(), env, before);
			} else if (s instanceof Stmt.While w) {
				assignments(w.body(), env, before);
			} else if (s instanceof Stmt.With w) {
				assignments(w.body(), env, before);
			}
		}
	}

	/** The def whose body {@link #run} is running (a returned @pl.function must be defined in it). */
	private dev.ptotools.analyzer.ir.Span defSpan = dev.ptotools.analyzer.ir.Span.NONE;

	/** Deepest helper-call nesting folded (a guard against recursion). */
	private static final int MAX_DEPTH = 8;

	/**
	 * The value of a call of a module-level helper function ({@code rows, cols = shape_for(4)}), by
	 * running its body on constants: assignments, ifs whose conditions fold, and a return. A raise,
	 * a loop or a condition that does not fold makes the value unknown.
	 */
	private Object helperCall(Expr.Call c, Map<String, Object> callerEnv, int depth) {
		if (depth > MAX_DEPTH || c.funcText() == null || c.funcText().contains(".")) {
			return Values.Unknown.INSTANCE;
		}
		Script.Def d = null;
		for (Script.Def x : script.defs()) {
			if (x.parent() == null && !x.decorated() && x.name().equals(c.funcText())) {
				d = x;
			}
		}
		if (d == null) {
			return Values.Unknown.INSTANCE;
		}
		ConstEval callerEval = new ConstEval(callerEnv, pl, pld, cc -> helperCall(cc, callerEnv, depth + 1));
		Map<String, Object> env = new HashMap<>(module());
		List<Script.DefParam> ps = d.params();
		for (int i = 0; i < c.args().size(); i++) {
			if (i >= ps.size() || !ps.get(i).kind().isEmpty()) {
				return Values.Unknown.INSTANCE;
			}
			env.put(ps.get(i).name(), callerEval.eval(c.args().get(i)));
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() == null || d.param(k.name()) == null) {
				return Values.Unknown.INSTANCE;
			}
			env.put(k.name(), callerEval.eval(k.value()));
		}
		ConstEval eval = new ConstEval(env, pl, pld, cc -> helperCall(cc, env, depth + 1));
		for (Script.DefParam p : ps) {
			if (!env.containsKey(p.name())) {
				if (p.defaultValue() == null) {
					return Values.Unknown.INSTANCE;
				}
				env.put(p.name(), eval.eval(p.defaultValue()));
			}
		}
		Object[] result = { Values.Unknown.INSTANCE };
		defSpan = d.span();
		run(d.body(), env, eval, result);
		return result[0];
	}

	/** Runs straight-line helper code; true once a return (or something unfoldable) ends it. */
	private boolean run(List<Stmt> body, Map<String, Object> env, ConstEval eval, Object[] result) {
		for (Stmt s : body) {
			if (s instanceof Stmt.Assign a && a.value() != null) {
				Object v = eval.eval(a.value());
				for (Expr t : a.targets()) {
					bind(t, v, env);
				}
			} else if (s instanceof Stmt.Return r) {
				result[0] = r.value() == null ? Values.None.INSTANCE : eval.eval(r.value());
				if (r.value() instanceof Expr.Name n && !env.containsKey(n.id())) {
					for (dev.ptotools.analyzer.ir.Function f : dslFunctions) {
						if (f.name().equals(n.id()) && f.span().start() < r.span().start() && defSpan.contains(f.span())) {
							result[0] = new FunctionValue(f, Map.copyOf(env));
						}
					}
				}
				return true;
			} else if (s instanceof Stmt.If i) {
				Object t = eval.eval(i.test());
				if (!(t instanceof Boolean b)) {
					return true;
				}
				if (run(b ? i.body() : i.orelse(), env, eval, result)) {
					return true;
				}
			} else if (s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal) {
				continue; // docstring
			} else if (s instanceof Stmt.Pass || s instanceof Stmt.Other o && o.kind().equals("def")) {
				continue; // a nested def binds a function the return may hand out
			} else if (s instanceof Stmt.Other o && o.kind().equals("import")) {
				continue;
			} else {
				return true; // raise, loops, calls for effect: not folded
			}
		}
		return false;
	}

	private static void bind(Expr target, Object v, Map<String, Object> env) {
		if (target instanceof Expr.Name n) {
			put(env, n.id(), v);
		} else if (target instanceof Expr.TupleExpr || target instanceof Expr.ListExpr) {
			List<Expr> items = target instanceof Expr.TupleExpr t ? t.elts() : ((Expr.ListExpr) target).elts();
			for (int i = 0; i < items.size(); i++) {
				Object item = v instanceof List<?> l && l.size() == items.size() ? l.get(i) : Values.Unknown.INSTANCE;
				bind(items.get(i), item, env);
			}
		}
	}

	private static void put(Map<String, Object> env, String name, Object v) {
		if (Values.known(v)) {
			env.put(name, v);
		} else {
			env.remove(name);
		}
	}
}
