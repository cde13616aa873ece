package dev.ptotools.analyzer.facts;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * The folded values of the names each program sees (its module constants and closure constants),
 * and an evaluator over them. A function's own locals shadow these; callers that evaluate inside a
 * body must exclude names the body assigns. The names a program sees whose values cannot be known
 * statically (a builder's parameters no call binds, values computed when the module runs) are kept
 * with what they are, so checks can tell unknown from wrong.
 */
public final class Constants {

	private final IdentityHashMap<Program, Map<String, Object>> envs;
	private final IdentityHashMap<Program, Map<String, UnknownValue>> unknowns;
	private final Imports imports;

	public Constants(IdentityHashMap<Program, Map<String, Object>> envs, String pl, String pld) {
		this(envs, new IdentityHashMap<>(), Imports.of(pl, pld));
	}

	public Constants(IdentityHashMap<Program, Map<String, Object>> envs, Imports imports) {
		this(envs, new IdentityHashMap<>(), imports);
	}

	public Constants(IdentityHashMap<Program, Map<String, Object>> envs,
			IdentityHashMap<Program, Map<String, UnknownValue>> unknowns, Imports imports) {
		this.envs = envs;
		this.unknowns = unknowns;
		this.imports = imports;
	}

	public Map<String, Object> env(Program p) {
		Map<String, Object> env = envs.get(p);
		return env == null ? Map.of() : env;
	}

	/** The names the program sees from scopes around it whose values are not known statically. */
	public Map<String, UnknownValue> unknowns(Program p) {
		Map<String, UnknownValue> u = unknowns.get(p);
		return u == null ? Map.of() : u;
	}

	public ConstEval evaluator(Program p) {
		return new ConstEval(env(p), imports);
	}

	/** Folds an expression in the scope of a program. */
	public Object value(Program p, Expr e) {
		return evaluator(p).eval(e);
	}

	/**
	 * The first name an expression of function f reads from around the program whose value is not
	 * known statically, or null: why the expression does not fold, when that is not its fault. Names f
	 * binds itself (parameters, assignments, loop and with targets) are f's, not the closure's.
	 */
	public UnknownValue unknownIn(Program p, Function f, Expr e) {
		Map<String, UnknownValue> u = unknowns(p);
		if (u.isEmpty() || e == null) {
			return null;
		}
		Set<String> locals = null;
		for (String n : Walk.names(e)) {
			UnknownValue v = u.get(n);
			if (v == null) {
				continue;
			}
			if (locals == null) {
				locals = locals(f);
			}
			if (!locals.contains(n)) {
				return v;
			}
		}
		return null;
	}

	/** The names f binds itself: parameters ({@code self} of a method too), assignment, loop and with targets. */
	public static Set<String> locals(Function f) {
		Set<String> out = new HashSet<>();
		out.add("self"); // a method's own, which the IR leaves out of its parameters

		for (Param p : f.params()) {
			out.add(p.name());
		}
		Walk.statements(f.body(), s -> {
			if (s instanceof Stmt.Assign a) {
				a.targets().forEach(t -> out.addAll(Walk.boundNames(t)));
			} else if (s instanceof Stmt.AugAssign a) {
				out.addAll(Walk.boundNames(a.target()));
			} else if (s instanceof Stmt.For loop) {
				out.addAll(Walk.boundNames(loop.target()));
			} else if (s instanceof Stmt.With w) {
				w.items().stream().filter(i -> i.target() != null).forEach(i -> out.addAll(Walk.boundNames(i.target())));
			}
		});
		return out;
	}
}
