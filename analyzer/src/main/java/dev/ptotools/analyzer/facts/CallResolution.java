package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;

/** The callee of every call in every DSL function, and the program each function belongs to. */
public final class CallResolution {

	private final IdentityHashMap<Expr.Call, Callee> callees;
	private final IdentityHashMap<Function, Program> owners;
	private final String pl;
	private final String pld;

	public CallResolution(IdentityHashMap<Expr.Call, Callee> callees, IdentityHashMap<Function, Program> owners,
			String pl, String pld) {
		this.callees = callees;
		this.owners = owners;
		this.pl = pl;
		this.pld = pld;
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
	 * A dotted name with the module's import aliases replaced by pl/pld ("dist.window" becomes
	 * "pld.window" when pypto.language.distributed is imported as dist), else null.
	 */
	public String normalize(String dotted) {
		return normalize(dotted, pl, pld);
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
