package dev.ptotools.analyzer.pipeline;

import java.util.HashMap;
import java.util.Map;

/** The facts known about one file so far, by key. */
public final class Facts {

	private final Map<Key<?>, Object> values = new HashMap<>();

	public <T> T get(Key<T> key) {
		Object v = values.get(key);
		if (v == null) {
			throw new IllegalStateException("fact " + key + " is not available; a pass that produces it must run first");
		}
		return key.type().cast(v);
	}

	public boolean has(Key<?> key) {
		return values.containsKey(key);
	}

	public <T> void put(Key<T> key, T value) {
		values.put(key, key.type().cast(value));
	}

	/** A copy to change one fact in without touching these (the facts themselves are shared). */
	public Facts copy() {
		Facts f = new Facts();
		f.values.putAll(values);
		return f;
	}
}
