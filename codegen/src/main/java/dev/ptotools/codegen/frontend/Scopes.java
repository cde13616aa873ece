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

	void enter() {
		stack.push(new LinkedHashMap<>());
	}

	/** Closes the innermost scope; with leak, its bindings become the enclosing scope's. */
	Map<String, Var> exit(boolean leak) {
		Map<String, Var> top = stack.pop();
		if (leak && !stack.isEmpty()) {
			stack.peek().putAll(top);
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
	}

	/** The bindings of the innermost scope, for the callers that snapshot and restore branches. */
	Map<String, Var> top() {
		return stack.peek();
	}
}
