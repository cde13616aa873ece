package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * Where names are bound in one function body and which loops enclose each statement: what the
 * passes need to follow {@code n = pld.world_size()} into {@code pl.range(n)}, and a device
 * variable to its loop.
 */
public final class FunctionScope {

	private final Function function;
	private final CallResolution calls;
	private final Map<String, List<Stmt.Assign>> assignments = new HashMap<>();
	private final IdentityHashMap<Stmt, List<Stmt>> enclosing = new IdentityHashMap<>();

	public FunctionScope(Function function, CallResolution calls) {
		this.function = function;
		this.calls = calls;
		index(function.body(), new ArrayList<>());
	}

	private void index(List<Stmt> body, List<Stmt> parents) {
		for (Stmt s : body) {
			enclosing.put(s, List.copyOf(parents));
			if (s instanceof Stmt.Assign a) {
				for (Expr t : a.targets()) {
					for (String n : Walk.boundNames(t)) {
						assignments.computeIfAbsent(n, k -> new ArrayList<>()).add(a);
					}
				}
			}
			List<List<Stmt>> kids = Walk.children(s);
			if (!kids.isEmpty()) {
				parents.add(s);
				for (List<Stmt> k : kids) {
					index(k, parents);
				}
				parents.remove(parents.size() - 1);
			}
		}
	}

	public Function function() {
		return function;
	}

	/** The compound statements around a statement of the body, outermost first. */
	public List<Stmt> enclosing(Stmt s) {
		List<Stmt> e = enclosing.get(s);
		return e == null ? List.of() : e;
	}

	/** The for loops around a statement, innermost first. */
	public List<Stmt.For> enclosingLoops(Stmt s) {
		List<Stmt.For> out = new ArrayList<>();
		List<Stmt> e = enclosing(s);
		for (int i = e.size() - 1; i >= 0; i--) {
			if (e.get(i) instanceof Stmt.For f) {
				out.add(f);
			}
		}
		return out;
	}

	/** The last simple assignment {@code name = value} that starts before an offset, or null. */
	public Stmt.Assign lastAssignmentBefore(String name, int offset) {
		Stmt.Assign found = null;
		for (Stmt.Assign a : assignments.getOrDefault(name, List.of())) {
			if (a.span().start() < offset && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name) {
				found = a;
			}
		}
		return found;
	}

	/** All assignments to a name, in source order. */
	public List<Stmt.Assign> assignmentsOf(String name) {
		return assignments.getOrDefault(name, List.of());
	}

	/**
	 * Follows names to their values through simple assignments made before {@code offset}
	 * ({@code n = m}, {@code m = pld.world_size()}), as pypto unwraps Var-to-value hops.
	 */
	public Expr unwrap(Expr e, int offset) {
		Expr x = e;
		for (int hops = 0; hops < 32 && x instanceof Expr.Name n; hops++) {
			Stmt.Assign a = lastAssignmentBefore(n.id(), offset);
			if (a == null || a.value() == null) {
				return x;
			}
			offset = a.span().start();
			x = a.value();
		}
		return x;
	}

	/** Whether an expression is the world size: pld.world_size(), pld.system.world_size() or a name bound to it. */
	public boolean isWorldSize(Expr e, int offset) {
		Expr x = unwrap(e, offset);
		return x instanceof Expr.Call c && c.args().isEmpty() && calls.isBuiltin(c, "pld.system.world_size");
	}
}
