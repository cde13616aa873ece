package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.Program;

/**
 * The folded values of the names each program sees (its module constants and closure constants),
 * and an evaluator over them. A function's own locals shadow these; callers that evaluate inside a
 * body must exclude names the body assigns.
 */
public final class Constants {

	private final IdentityHashMap<Program, Map<String, Object>> envs;
	private final Imports imports;

	public Constants(IdentityHashMap<Program, Map<String, Object>> envs, String pl, String pld) {
		this(envs, Imports.of(pl, pld));
	}

	public Constants(IdentityHashMap<Program, Map<String, Object>> envs, Imports imports) {
		this.envs = envs;
		this.imports = imports;
	}

	public Map<String, Object> env(Program p) {
		Map<String, Object> env = envs.get(p);
		return env == null ? Map.of() : env;
	}

	public ConstEval evaluator(Program p) {
		return new ConstEval(env(p), imports);
	}

	/** Folds an expression in the scope of a program. */
	public Object value(Program p, Expr e) {
		return evaluator(p).eval(e);
	}
}
