package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * How running a module would call the function a program is defined in (a program builder such as
 * {@code def build(n_ranks): @pl.program class P ...; return P}): the distinct constant bindings of its
 * parameters at its calls in the module, in call order, or its defaults when no call binds it and every
 * parameter has one. A builder with neither builds nothing statically: its parameters are unknown. The
 * compiler builds one program per binding; the analyzer folds the values all bindings agree on.
 */
public final class BuilderBindings {

	/**
	 * A builder's parameter values at one of its calls (origin says which call; null for the defaults),
	 * and the values of the frame around the builder where it is defined (the module's at the builder for
	 * a module-level builder; for a builder nested in another function, that function's frame under one
	 * of its own bindings).
	 */
	public record Binding(Map<String, Object> args, String origin, Map<String, Object> enclosing) {
	}

	/** Bindings of nested builders multiply; past this many the rest are not built. */
	private static final int MAX_BINDINGS = 32;

	private final ModuleIR module;
	private final ScriptScope scope;

	public BuilderBindings(ModuleIR module, ScriptScope scope) {
		this.module = module;
		this.scope = scope;
	}

	/** The innermost plain def whose body holds the span, or null at module level. */
	public Script.Def enclosingDef(Span span) {
		Script.Def best = null;
		for (Script.Def d : module.script().defs()) {
			if (!d.decorated() && d.span().contains(span) && (best == null || best.span().contains(d.span()))) {
				best = d;
			}
		}
		return best;
	}

	/**
	 * The bindings a builder's programs are built with; empty when none is known (for a nested builder,
	 * also when the function around it has none).
	 */
	public List<Binding> of(Script.Def builder) {
		List<Map<String, Object>> own = atCalls(builder);
		List<String> origins = new ArrayList<>();
		for (Map<String, Object> args : own) {
			origins.add(builder.name() + "(" + args.values().stream().map(String::valueOf)
					.reduce((a, b) -> a + ", " + b).orElse("") + ")");
		}
		if (own.isEmpty() && defaulted(builder)) {
			// a test's fixtures and parametrized arguments stay unbound: parameters whose values are not known
			// here (a program that reads one is not built), never a module name of the same spelling
			own.add(Map.of());
			origins.add(null);
		}
		List<Binding> out = new ArrayList<>();
		if (builder.parent() == null) {
			Map<String, Object> module = scope.at(null, builder.span().start(), Map.of());
			for (int i = 0; i < own.size(); i++) {
				out.add(new Binding(own.get(i), origins.get(i), module));
			}
			return out;
		}
		for (Binding around : of(builder.parent())) {
			Map<String, Object> enclosing = frame(builder.parent(), around, builder.span().start());
			for (int i = 0; i < own.size() && out.size() < MAX_BINDINGS; i++) {
				String origin = origins.get(i) == null ? around.origin()
						: around.origin() == null ? origins.get(i) : around.origin() + " -> " + origins.get(i);
				out.add(new Binding(own.get(i), origin, enclosing));
			}
		}
		return out;
	}

	/** The values in the builder's frame at an offset of its body, under one binding. */
	public Map<String, Object> frame(Script.Def builder, Binding b, int at) {
		return scope.within(b.enclosing(), builder, at, b.args());
	}

	/** The builder's frame at a program, once per binding; empty when the builder has no known binding. */
	public List<Map<String, Object>> closures(Script.Def builder, int at) {
		List<Map<String, Object>> out = new ArrayList<>();
		for (Binding b : of(builder)) {
			out.add(frame(builder, b, at));
		}
		return out;
	}

	/** The distinct constant bindings of the builder's parameters at its calls, in call order. */
	private List<Map<String, Object>> atCalls(Script.Def builder) {
		List<Map<String, Object>> out = new ArrayList<>();
		Set<Map<String, Object>> seen = new HashSet<>();
		for (Located call : calls(builder.name())) {
			Map<String, Object> args = bind(builder, call);
			if (args != null && seen.add(args) && out.size() < MAX_BINDINGS) {
				out.add(args);
			}
		}
		return out;
	}

	/** The parameter values one call gives, or null when one of them does not fold. */
	private Map<String, Object> bind(Script.Def builder, Located call) {
		Map<String, Object> env = scope.at(call.def(), call.call().span().start(), Map.of());
		ConstEval eval = scope.evaluator(env);
		Map<String, Object> args = new LinkedHashMap<>();
		List<Script.DefParam> ps = builder.params();
		for (int i = 0; i < call.call().args().size(); i++) {
			if (i >= ps.size() || !ps.get(i).kind().isEmpty()) {
				return null;
			}
			Object v = eval.eval(call.call().args().get(i));
			if (!Values.known(v)) {
				return null;
			}
			args.put(ps.get(i).name(), v);
		}
		for (Expr.Keyword k : call.call().keywords()) {
			if (k.name() == null || builder.param(k.name()) == null) {
				return null;
			}
			Object v = eval.eval(k.value());
			if (!Values.known(v)) {
				return null;
			}
			args.put(k.name(), v);
		}
		for (Script.DefParam p : ps) {
			if (p.kind().isEmpty() && !args.containsKey(p.name()) && p.defaultValue() == null) {
				return null;
			}
		}
		return args;
	}

	private static boolean defaulted(Script.Def d) {
		// a test function runs when pytest collects it, on its fixtures (whose values are not known here: a
		// program that reads one is not built), a test method on its instance
		return d.name().startsWith("test")
				|| d.params().stream().allMatch(p -> !p.kind().isEmpty() || p.defaultValue() != null);
	}

	private record Located(Expr.Call call, Script.Def def) {
	}

	/** Every call {@code name(...)} by bare name in the module's plain code, with the def it is in. */
	private List<Located> calls(String name) {
		List<Located> out = new ArrayList<>();
		collect(module.script().body(), null, name, out);
		for (Script.Def d : module.script().defs()) {
			collect(d.body(), d, name, out);
		}
		out.sort((a, b) -> Integer.compare(a.call().span().start(), b.call().span().start()));
		return out;
	}

	private static void collect(List<Stmt> body, Script.Def d, String name, List<Located> out) {
		Set<Integer> seen = new HashSet<>();
		for (Expr.Call c : Walk.allCalls(body)) {
			if (name.equals(c.funcText()) && seen.add(c.span().start())) {
				out.add(new Located(c, d));
			}
		}
	}
}
