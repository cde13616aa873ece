package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/** The callee of every call in every DSL function, and the program each function belongs to. */
public final class CallResolution {

	private final IdentityHashMap<Expr.Call, Callee> callees;
	private final IdentityHashMap<Function, Program> owners;
	private final IdentityHashMap<Function, List<Expr.Call>> callsByFunction;
	private final IdentityHashMap<Expr.Call, Stmt> statements;
	private final Imports imports;

	public CallResolution(IdentityHashMap<Expr.Call, Callee> callees, IdentityHashMap<Function, Program> owners,
			IdentityHashMap<Function, List<Expr.Call>> callsByFunction, IdentityHashMap<Expr.Call, Stmt> statements,
			String pl, String pld) {
		this(callees, owners, callsByFunction, statements, Imports.of(pl, pld));
	}

	/** With the module's import bindings, which {@link #normalize(String)} resolves names through. */
	public CallResolution(IdentityHashMap<Expr.Call, Callee> callees, IdentityHashMap<Function, Program> owners,
			IdentityHashMap<Function, List<Expr.Call>> callsByFunction, IdentityHashMap<Expr.Call, Stmt> statements,
			Imports imports) {
		this.callees = callees;
		this.owners = owners;
		this.callsByFunction = callsByFunction;
		this.statements = statements;
		this.imports = imports;
	}

	/** Every call of a function's body, nested statements included, in source order (walked once). */
	public List<Expr.Call> callsIn(Function f) {
		List<Expr.Call> c = callsByFunction.get(f);
		return c != null ? c : Walk.allCalls(f.body());
	}

	/** The calls of a function that lie inside a span (a loop's body, say), in source order. */
	public List<Expr.Call> callsWithin(Function f, Span span) {
		List<Expr.Call> out = new java.util.ArrayList<>();
		for (Expr.Call c : callsIn(f)) {
			if (span.contains(c.span())) {
				out.add(c);
			}
		}
		return out;
	}

	/** The statement that holds a call directly (its own expressions, not a nested statement's). */
	public Stmt statementOf(Expr.Call call) {
		return statements.get(call);
	}

	public Callee of(Expr.Call call) {
		Callee c = callees.get(call);
		return c != null ? c : new Callee.Other(String.valueOf(call.funcText()));
	}

	public Program programOf(Function f) {
		return owners.get(f);
	}

	public Map<Function, Program> owners() {
		return owners;
	}

	/** Whether a call is the builtin with this canonical name or op id. */
	public boolean isBuiltin(Expr.Call call, String nameOrOp) {
		return of(call) instanceof Callee.BuiltinCall b && b.is(nameOrOp);
	}

	/** The program function a call dispatches to, or null. */
	public Function target(Expr.Call call) {
		return of(call) instanceof Callee.ProgramFunction pf ? pf.function() : null;
	}

	/**
	 * A dotted name in the catalog's spelling through what the module's imports bind ("dist.window"
	 * becomes "pld.window" when pypto.language.distributed is imported as dist, "jit.host" becomes
	 * "pl.jit.host" after from pypto.jit import jit), else null.
	 */
	public String normalize(String dotted) {
		return imports.normalize(dotted);
	}

	public static String normalize(String dotted, String pl, String pld) {
		if (dotted == null) {
			return null;
		}
		if (pld != null && (dotted.equals(pld) || dotted.startsWith(pld + "."))) {
			return "pld" + dotted.substring(pld.length());
		}
		if (pl != null && (dotted.equals(pl) || dotted.startsWith(pl + "."))) {
			String rest = dotted.substring(pl.length());
			// pl.distributed.x is the same module as pld.x
			if (rest.startsWith(".distributed.") || rest.equals(".distributed")) {
				return "pld" + rest.substring(".distributed".length());
			}
			return "pl" + rest;
		}
		return null;
	}

	public List<Function> functions() {
		return List.copyOf(owners.keySet());
	}
}
