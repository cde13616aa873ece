package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Script;

/** The variables of one run of a function body (or of the module), and the frame it is nested in. */
final class Frame {

	final Map<String, Object> vars = new HashMap<>();
	final Frame parent;
	final Script.Def def;
	/** The values its return statements gave, over every path taken. */
	final List<Object> returns = new ArrayList<>();

	Frame(Frame parent, Script.Def def) {
		this.parent = parent;
		this.def = def;
	}

	/** A name's value in this frame or an enclosing one, or null when no frame binds it. */
	Object lookup(String name) {
		for (Frame f = this; f != null; f = f.parent) {
			if (f.vars.containsKey(name)) {
				return f.vars.get(name);
			}
		}
		return null;
	}

	Map<String, Object> snapshot() {
		return new HashMap<>(vars);
	}

	void restore(Map<String, Object> saved) {
		vars.clear();
		vars.putAll(saved);
	}

	/**
	 * After two alternative paths: a name both paths left equal keeps its value, one they left different
	 * becomes the choice of both.
	 */
	void merge(Map<String, Object> a, Map<String, Object> b) {
		vars.clear();
		for (Map.Entry<String, Object> e : a.entrySet()) {
			Object other = b.get(e.getKey());
			if (!b.containsKey(e.getKey()) || java.util.Objects.equals(other, e.getValue())) {
				vars.put(e.getKey(), e.getValue());
			} else {
				vars.put(e.getKey(), Py.choice(java.util.Arrays.asList(e.getValue(), other)));
			}
		}
		for (Map.Entry<String, Object> e : b.entrySet()) {
			vars.putIfAbsent(e.getKey(), e.getValue());
		}
	}
}
