package dev.ptotools.language;

/**
 * An identity map from objects to longs, open addressing over two parallel arrays: no boxing and one
 * array probe per lookup, where IdentityHashMap with Long values costs an extra pointer chase per
 * lookup (lowering looks up the span of every AST object).
 */
final class IdentityLongMap {

	/** Returned by {@link #get} for a key that is not there; spans never pack to it. */
	static final long ABSENT = Long.MIN_VALUE;

	private Object[] keys;
	private long[] values;
	private int size;

	IdentityLongMap(int expected) {
		int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
		keys = new Object[capacity];
		values = new long[capacity];
	}

	private static int hash(Object key, int mask) {
		int h = System.identityHashCode(key);
		return (h ^ (h >>> 16)) & mask;
	}

	long get(Object key) {
		if (key == null) {
			return ABSENT;
		}
		int mask = keys.length - 1;
		for (int i = hash(key, mask);; i = (i + 1) & mask) {
			Object k = keys[i];
			if (k == key) {
				return values[i];
			}
			if (k == null) {
				return ABSENT;
			}
		}
	}

	/** Adds a key that is not there yet; returns false (and changes nothing) if it is. */
	boolean putIfAbsent(Object key, long value) {
		if ((size + 1) * 2 > keys.length) {
			grow();
		}
		int mask = keys.length - 1;
		for (int i = hash(key, mask);; i = (i + 1) & mask) {
			Object k = keys[i];
			if (k == key) {
				return false;
			}
			if (k == null) {
				keys[i] = key;
				values[i] = value;
				size++;
				return true;
			}
		}
	}

	interface Entry {
		void accept(Object key, long value);
	}

	/** Every key with its value, in no particular order. */
	void forEach(Entry action) {
		for (int i = 0; i < keys.length; i++) {
			if (keys[i] != null) {
				action.accept(keys[i], values[i]);
			}
		}
	}

	/** Sets the value of a key that is there (a no-op for one that is not). */
	void replace(Object key, long value) {
		int mask = keys.length - 1;
		for (int i = hash(key, mask);; i = (i + 1) & mask) {
			Object k = keys[i];
			if (k == key) {
				values[i] = value;
				return;
			}
			if (k == null) {
				return;
			}
		}
	}

	int size() {
		return size;
	}

	private void grow() {
		Object[] oldKeys = keys;
		long[] oldValues = values;
		keys = new Object[oldKeys.length * 2];
		values = new long[oldKeys.length * 2];
		size = 0;
		for (int i = 0; i < oldKeys.length; i++) {
			if (oldKeys[i] != null) {
				putIfAbsent(oldKeys[i], oldValues[i]);
			}
		}
	}
}
