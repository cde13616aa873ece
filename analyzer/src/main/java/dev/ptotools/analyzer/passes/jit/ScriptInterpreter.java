package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * Runs the plain Python of a module the way the module would run, as far as it can be known without
 * running it: the module body, the functions it calls ({@code main()}), then every function nothing
 * called (tests, helpers) with its parameters' defaults. Loops over known sequences are unrolled; a branch
 * on an unknown condition runs both ways and joins; an argparse option is the choice of its values. Every
 * call of a {@code @pl.jit} function ({@code f(...)}, {@code f.compile(...)}, {@code f.lower(...)}) is
 * recorded with its evaluated arguments, in the order they would happen.
 */
public final class ScriptInterpreter {

	/** A sample call: the jit function, how it is called, its evaluated arguments, the module's scalars then. */
	public record SampleCall(Function function, JitSamples.CallKind kind, List<Object> args, Map<String, Object> kwargs,
			Span span, Map<String, Object> globals) {
	}

	/** How a statement list ended. */
	enum Flow {
		NORMAL, BREAK, CONTINUE, RETURN, STOP
	}

	private static final int MAX_DEPTH = 24;
	private static final int MAX_STEPS = 200_000;
	static final int MAX_UNROLL = 512;

	private final Script script;
	private final Map<List<Integer>, Script.Def> defsBySpan = new HashMap<>();
	private final Map<List<Integer>, Function> jitBySpan = new HashMap<>();
	private final List<SampleCall> samples = new ArrayList<>();
	private final Set<Script.Def> executed = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
	private final Deque<Script.Def> stack = new ArrayDeque<>();
	private final Exprs exprs = new Exprs(this);
	Frame module;
	private int steps;
	/** The command-line options the script declared (argparse), with the other values each can take. */
	private final Map<String, List<Object>> options = new LinkedHashMap<>();
	/** The option values of the run under way (the defaults, or one option set to another value). */
	private Map<String, Object> world = Map.of();

	/** What the module's imports of the project's other modules bind, or null when they are not read. */
	private dev.ptotools.analyzer.project.ImportedModules importedModules;

	/** Reads the module's imports of the project's other modules through {@code imported}. */
	public ScriptInterpreter withImportedModules(dev.ptotools.analyzer.project.ImportedModules imported) {
		this.importedModules = imported;
		return this;
	}

	dev.ptotools.analyzer.project.ImportedModules importedModules() {
		return importedModules;
	}

	/** @param jitFunctions the module's {@code @pl.jit...} functions, found by their definition's span */
	public ScriptInterpreter(Script script, List<Function> jitFunctions) {
		this.script = script;
		for (Script.Def d : script.defs()) {
			defsBySpan.put(key(d.span()), d);
		}
		for (Function f : jitFunctions) {
			jitBySpan.put(key(f.span()), f);
		}
	}

	private static List<Integer> key(Span s) {
		return List.of(s.start(), s.end());
	}

	/**
	 * Runs the module with its command-line options at their defaults, then once more for each other
	 * value of each option (the other choices, a flag set), as the script's modes would be run; then the
	 * functions nothing called. Returns the sample calls in order.
	 */
	public List<SampleCall> run() {
		runWorld(Map.of());
		Frame defaults = module;
		List<Map<String, Object>> worlds = new ArrayList<>();
		for (Map.Entry<String, List<Object>> o : options.entrySet()) {
			for (Object alt : o.getValue()) {
				if (worlds.size() < 16) {
					worlds.add(Map.of(o.getKey(), alt));
				}
			}
		}
		for (Map<String, Object> w : worlds) {
			runWorld(w);
		}
		module = defaults;
		world = Map.of();
		for (Script.Def d : script.defs()) {
			if (!d.decorated() && !executed.contains(d) && steps < MAX_STEPS) {
				invoke(new Py.DefRef(d, module), List.of(), Map.of(), true);
			}
		}
		return List.copyOf(samples);
	}

	private void runWorld(Map<String, Object> w) {
		world = w;
		module = new Frame(null, null);
		module.vars.put("__name__", "__main__");
		exec(script.body(), module);
	}

	/** An argparse option: its value in the run under way; its other values are remembered for later runs. */
	Object option(String dest, Object dflt, List<Object> alternatives) {
		if (!options.containsKey(dest)) {
			List<Object> others = new ArrayList<>();
			for (Object a : alternatives) {
				if (!Py.unknown(a) && !Exprs.equal(a, dflt) && !others.contains(a)) {
					others.add(a);
				}
			}
			options.put(dest, others);
		}
		return world.containsKey(dest) ? world.get(dest) : dflt;
	}

	// ---- statements -------------------------------------------------------------------------

	Flow exec(List<Stmt> body, Frame f) {
		for (Stmt s : body) {
			if (++steps > MAX_STEPS) {
				return Flow.STOP;
			}
			Flow flow = stmt(s, f);
			if (flow != Flow.NORMAL) {
				return flow;
			}
		}
		return Flow.NORMAL;
	}

	private Flow stmt(Stmt s, Frame f) {
		if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Opaque o
				&& o.kind().startsWith(dev.ptotools.analyzer.project.ImportKinds.STAR)) {
			// from .config import *: every name the project's module exports
			if (importedModules != null) {
				importedModules.star(o.kind().substring(dev.ptotools.analyzer.project.ImportKinds.STAR.length()))
						.forEach((n, v) -> f.vars.put(n, Values.known(v) ? v : new Py.Unknown("'" + n + "' is imported from "
								+ "another module")));
			}
			return Flow.NORMAL;
		}
		if (s instanceof Stmt.Assign a) {
			if (a.value() != null) {
				Object v = exprs.eval(a.value(), f);
				for (Expr t : a.targets()) {
					assign(t, v, f);
				}
			}
			return Flow.NORMAL;
		}
		if (s instanceof Stmt.AugAssign a) {
			Object v = exprs.binary(a.op(), exprs.eval(a.target(), f), exprs.eval(a.value(), f));
			assign(a.target(), v, f);
			return Flow.NORMAL;
		}
		if (s instanceof Stmt.ExprStmt e) {
			exprs.eval(e.value(), f);
			return Flow.NORMAL;
		}
		if (s instanceof Stmt.If i) {
			return branch(exprs.truth(exprs.eval(i.test(), f)), i.body(), i.orelse(), f);
		}
		if (s instanceof Stmt.For loop) {
			return forLoop(loop, f);
		}
		if (s instanceof Stmt.While w) {
			Boolean t = exprs.truth(exprs.eval(w.test(), f));
			if (Boolean.FALSE.equals(t)) {
				return exec(w.orelse(), f);
			}
			return maybeOnce(w.body(), f);
		}
		if (s instanceof Stmt.With w) {
			for (Stmt.WithItem item : w.items()) {
				Object v = exprs.eval(item.context(), f);
				if (item.target() != null) {
					assign(item.target(), v instanceof Py.Tensor ? v : new Py.Unknown("a with target"), f);
				}
			}
			return exec(w.body(), f);
		}
		if (s instanceof Stmt.Try t) {
			Flow flow = exec(t.body(), f);
			if (flow == Flow.STOP) {
				flow = Flow.NORMAL; // an except clause may catch it
			}
			if (flow == Flow.NORMAL) {
				flow = exec(t.orelse(), f);
			}
			Flow fin = exec(t.finalbody(), f);
			return fin != Flow.NORMAL ? fin : flow;
		}
		if (s instanceof Stmt.Raise r) {
			if (r.exc() != null) {
				exprs.eval(r.exc(), f);
			}
			return Flow.STOP;
		}
		if (s instanceof Stmt.Return r) {
			f.returns.add(r.value() == null ? Values.None.INSTANCE : exprs.eval(r.value(), f));
			return Flow.RETURN;
		}
		if (s instanceof Stmt.Break) {
			return Flow.BREAK;
		}
		if (s instanceof Stmt.Continue) {
			return Flow.CONTINUE;
		}
		if (s instanceof Stmt.Other o && o.kind().equals("def")) {
			Script.Def d = defsBySpan.get(key(o.span()));
			if (d != null) {
				f.vars.put(d.name(), definition(d, f));
			}
		}
		return Flow.NORMAL;
	}

	private Object definition(Script.Def d, Frame f) {
		if (!d.decorated()) {
			return new Py.DefRef(d, f);
		}
		Function jit = jitBySpan.get(key(d.span()));
		return jit != null ? new Py.JitRef(jit) : new Py.Opaque("DSL function " + d.name());
	}

	/** An if: the taken branch, or both joined when the condition is not known. */
	private Flow branch(Boolean test, List<Stmt> then, List<Stmt> orelse, Frame f) {
		if (test != null) {
			return exec(test ? then : orelse, f);
		}
		Map<String, Object> before = f.snapshot();
		Flow a = exec(then, f);
		Map<String, Object> afterThen = f.snapshot();
		f.restore(before);
		Flow b = exec(orelse, f);
		boolean aEnds = a == Flow.RETURN || a == Flow.STOP;
		boolean bEnds = b == Flow.RETURN || b == Flow.STOP;
		if (aEnds && bEnds) {
			return a == Flow.RETURN || b == Flow.RETURN ? Flow.RETURN : Flow.STOP;
		}
		if (bEnds) {
			f.restore(afterThen);
		} else if (!aEnds) {
			f.merge(afterThen, f.snapshot());
		}
		return Flow.NORMAL;
	}

	/** A body that runs zero or more times, the count unknown: once, joined with not running it. */
	private Flow maybeOnce(List<Stmt> body, Frame f) {
		Map<String, Object> before = f.snapshot();
		Flow flow = exec(body, f);
		if (flow == Flow.RETURN || flow == Flow.STOP) {
			f.restore(before);
			return Flow.NORMAL;
		}
		f.merge(before, f.snapshot());
		return Flow.NORMAL;
	}

	private Flow forLoop(Stmt.For loop, Frame f) {
		Object it = exprs.eval(loop.iter(), f);
		List<Object> items = exprs.iterate(it);
		if (items == null || items.size() > MAX_UNROLL) {
			assign(loop.target(), Py.unknownOf(it, "a loop variable"), f);
			return maybeOnce(loop.body(), f);
		}
		for (Object item : items) {
			assign(loop.target(), item, f);
			Flow flow = exec(loop.body(), f);
			if (flow == Flow.BREAK) {
				return Flow.NORMAL;
			}
			if (flow == Flow.RETURN || flow == Flow.STOP) {
				return flow;
			}
		}
		return exec(loop.orelse(), f);
	}

	/** Binds a target (a name, a tuple of targets, a subscript) to a value. */
	void assign(Expr target, Object v, Frame f) {
		if (target instanceof Expr.Name n) {
			f.vars.put(n.id(), v);
		} else if (target instanceof Expr.TupleExpr || target instanceof Expr.ListExpr) {
			List<Expr> elts = target instanceof Expr.TupleExpr t ? t.elts() : ((Expr.ListExpr) target).elts();
			List<Object> items = exprs.iterate(v);
			boolean starred = elts.stream().anyMatch(e -> e instanceof Expr.Starred);
			for (int i = 0; i < elts.size(); i++) {
				Object item = items != null && !starred && items.size() == elts.size() ? items.get(i)
						: Py.unknownOf(v, "an unpacked value");
				Expr e = elts.get(i);
				assign(e instanceof Expr.Starred s ? s.value() : e, item, f);
			}
		} else if (target instanceof Expr.Subscript s && s.indices().size() == 1) {
			Object base = exprs.eval(s.value(), f);
			Object k = exprs.eval(s.indices().get(0), f);
			if (base instanceof Py.Dict d && !Py.unknown(k)) {
				d.map().put(k, v);
			} else if (base instanceof ArrayList<?> l && k instanceof Long i && i >= -l.size() && i < l.size()) {
				@SuppressWarnings("unchecked")
				ArrayList<Object> list = (ArrayList<Object>) l;
				list.set((int) (i < 0 ? i + l.size() : i), v);
			}
		}
	}

	// ---- calls ------------------------------------------------------------------------------

	/**
	 * The module's int, float and bool variables now (what pypto inlines into jit bodies), and those of the
	 * modules it imports as a name ({@code cfg.COLS}).
	 */
	public Map<String, Object> scalarGlobals() {
		Map<String, Object> globals = new java.util.TreeMap<>();
		for (Map.Entry<String, Object> e : module.vars.entrySet()) {
			Object v = e.getValue();
			if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
				globals.put(e.getKey(), v);
			} else if (v instanceof Py.Namespace ns) {
				// an imported module's constants, read as cfg.COLS: keyed by the dotted name
				ns.values().forEach((k, x) -> {
					if (x instanceof Long || x instanceof Double || x instanceof Boolean) {
						globals.put(e.getKey() + "." + k, x);
					}
				});
			}
		}
		return java.util.Collections.unmodifiableMap(globals);
	}

	/** Records a sample call of a jit function; returns what the call gives the script. */
	Object sample(Function fn, JitSamples.CallKind kind, List<Object> args, Map<String, Object> kwargs, Span span) {
		samples.add(new SampleCall(fn, kind, java.util.Collections.unmodifiableList(new ArrayList<>(args)),
				java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kwargs)), span, scalarGlobals()));
		return switch (kind) {
		case COMPILE -> new Py.Opaque("compiled program of " + fn.name());
		case LOWER -> new Py.Opaque("lowered program of " + fn.name());
		default -> new Py.Unknown("the result of " + fn.name());
		};
	}

	/** Calls a plain function: binds its parameters, runs its body, gives what it returns. */
	Object invoke(Py.DefRef ref, List<Object> args, Map<String, Object> kwargs, boolean defaultsOnly) {
		Script.Def d = ref.def();
		if (stack.contains(d) || stack.size() >= MAX_DEPTH) {
			return new Py.Unknown("a recursive call of " + d.name());
		}
		executed.add(d);
		Frame f = new Frame(ref.closure(), d);
		int pos = 0;
		Map<String, Object> rest = new LinkedHashMap<>(kwargs);
		for (Script.DefParam p : d.params()) {
			Object v;
			if (p.kind().equals("*")) {
				v = pos < args.size() ? List.copyOf(args.subList(pos, args.size())) : List.of();
				pos = args.size();
			} else if (p.kind().equals("**")) {
				v = new Py.Dict(new LinkedHashMap<>(rest));
				rest.clear();
			} else if (pos < args.size()) {
				v = args.get(pos++);
			} else if (rest.containsKey(p.name())) {
				v = rest.remove(p.name());
			} else if (p.defaultValue() != null) {
				v = exprs.eval(p.defaultValue(), ref.closure());
			} else {
				v = new Py.Unknown(defaultsOnly ? "'" + p.name() + "' is a parameter of " + d.name() + ", which nothing in the file calls"
						: "parameter '" + p.name() + "' of " + d.name() + " has no value");
			}
			f.vars.put(p.name(), v);
		}
		stack.push(d);
		try {
			Flow flow = exec(d.body(), f);
			if (flow == Flow.NORMAL || f.returns.isEmpty()) {
				f.returns.add(Values.None.INSTANCE);
			}
			return Py.choice(f.returns);
		} finally {
			stack.pop();
		}
	}

	/** A name no frame binds: a builtin, or unknown. */
	Object global(String name) {
		return Builtins.named(name);
	}
}
