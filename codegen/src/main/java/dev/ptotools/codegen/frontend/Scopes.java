package dev.ptotools.codegen.frontend;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.ptotools.codegen.ir.Var;

/**
 * The parser's stack of name bindings (pypto's {@code scope_manager.py}): lookups go innermost to
 * outermost; a scope closed with {@code leak} copies its bindings into the one around it, as Python
 * blocks (loop bodies, branches without yields, with-bodies) do.
 */
final class Scopes {

	private final Deque<Map<String, Var>> stack = new ArrayDeque<>();
	/**
	 * Names bound to an expression that is not a variable, per scope (parallel to {@link #stack}): the
	 * parameters of an expanded {@code @pl.inline} function given a constant or a computed argument, which
	 * pypto's parser substitutes where they are read.
	 */
	private final Deque<Map<String, dev.ptotools.codegen.ir.Expr>> bound = new ArrayDeque<>();

	void enter() {
		stack.push(new LinkedHashMap<>());
		bound.push(new LinkedHashMap<>());
	}

	/** Closes the innermost scope; with leak, its bindings become the enclosing scope's. */
	Map<String, Var> exit(boolean leak) {
		Map<String, Var> top = stack.pop();
		Map<String, dev.ptotools.codegen.ir.Expr> topBound = bound.pop();
		if (leak && !stack.isEmpty()) {
			stack.peek().putAll(top);
			bound.peek().putAll(topBound);
		}
		return top;
	}

	Var lookup(String name) {
		for (Map<String, Var> s : stack) {
			Var v = s.get(name);
			if (v != null) {
				return v;
			}
		}
		return null;
	}

	void define(String name, Var v) {
		stack.peek().put(name, v);
		bound.peek().remove(name);
	}

	/** Binds a name to an expression (see {@link #bound}); a variable is bound with {@link #define}. */
	void bind(String name, dev.ptotools.codegen.ir.Expr e) {
		if (e instanceof Var v) {
			define(name, v);
			return;
		}
		stack.peek().remove(name);
		bound.peek().put(name, e);
	}

	/** What a name reads: its variable, or the expression it is bound to, innermost scope first; else null. */
	dev.ptotools.codegen.ir.Expr resolve(String name) {
		java.util.Iterator<Map<String, dev.ptotools.codegen.ir.Expr>> b = bound.iterator();
		for (Map<String, Var> s : stack) {
			Map<String, dev.ptotools.codegen.ir.Expr> e = b.next();
			Var v = s.get(name);
			if (v != null) {
				return v;
			}
			if (e.containsKey(name)) {
				return e.get(name);
			}
		}
		return null;
	}

	/** The bindings of the innermost scope, for the callers that snapshot and restore branches. */
	Map<String, Var> top() {
		return stack.peek();
	}
}
