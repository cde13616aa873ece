package dev.ptotools.codegen.chip;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The name scopes of one function being lowered, with pypto's parser rules: reassigning a name bound
 * to a plain Var reuses that Var (no SSA); loops and ifs that yield open a scope of their own, others
 * leak their bindings to the enclosing one.
 */
final class LoweringEnv {

	private final Deque<Map<String, OVar>> scopes = new ArrayDeque<>();
	/** Vars tagged with pl.dump_tag: every later kernel call passing one dumps it. */
	final Set<OVar> dumpTagged = new LinkedHashSet<>();

	LoweringEnv() {
		scopes.push(new HashMap<>());
	}

	OVar lookup(String name) {
		for (Iterator<Map<String, OVar>> it = scopes.iterator(); it.hasNext();) {
			OVar v = it.next().get(name);
			if (v != null) {
				return v;
			}
		}
		return null;
	}

	void define(String name, OVar var) {
		scopes.peek().put(name, var);
	}

	void push() {
		scopes.push(new HashMap<>());
	}

	void pop() {
		scopes.pop();
	}

	/** pypto's _assign_or_let: the existing plain Var of the name, or a new one defined here. */
	OVar assignOrLet(String name, OType type) {
		OVar existing = lookup(name);
		if (existing != null && existing.kind == OVar.Kind.PLAIN) {
			return existing;
		}
		OVar fresh = new OVar(name, type);
		define(name, fresh);
		return fresh;
	}
}
