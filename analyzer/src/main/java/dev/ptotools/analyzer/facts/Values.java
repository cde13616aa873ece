package dev.ptotools.analyzer.facts;

/** Compile-time values that are not plain Java values (those are Long, Double, Boolean, String, List). */
public final class Values {

	private Values() {
	}

	/** Python's None. */
	public enum None {
		INSTANCE;

		@Override
		public String toString() {
			return "None";
		}
	}

	/** Not known at compile time. */
	public enum Unknown {
		INSTANCE;
	}

	/** A pypto DataType (pl.FP32). */
	public record DType(String name, int bytes) {
	}

	/** A pypto dynamic dimension ({@code M = pl.dynamic("M")}). */
	public record DynVar(String name) {
	}

	/** A member of a pypto enum (pl.FunctionType.AIV). */
	public record EnumValue(String type, String member) {
	}

	/**
	 * An {@code argparse.ArgumentParser} as far as its options were added: the value of each option when
	 * the script runs without arguments, by destination.
	 */
	public record ArgumentParser(java.util.Map<String, Object> defaults) {
	}

	/** What {@code parse_args()} of a script run without arguments returns: its options' defaults. */
	public record Namespace(java.util.Map<String, Object> values) {
	}

	public static boolean known(Object v) {
		return v != null && v != Unknown.INSTANCE;
	}

	/**
	 * Python's truth of a folded constant (bool, int, float, str, tuple or list, None); null for any other
	 * value, which a caller judges itself.
	 */
	public static Boolean truth(Object v) {
		if (v instanceof Boolean b) {
			return b;
		}
		if (v instanceof Long l) {
			return l != 0;
		}
		if (v instanceof Double d) {
			return d != 0;
		}
		if (v instanceof String s) {
			return !s.isEmpty();
		}
		if (v instanceof java.util.List<?> l) {
			return !l.isEmpty();
		}
		if (v == None.INSTANCE) {
			return false;
		}
		return null;
	}

	/** {@code type(v).__name__} of a folded constant, as pypto's messages name it ("int", "str", "NoneType"). */
	public static String pythonTypeName(Object v) {
		if (v instanceof String) {
			return "str";
		}
		if (v instanceof Boolean) {
			return "bool";
		}
		if (v instanceof Long) {
			return "int";
		}
		if (v instanceof Double) {
			return "float";
		}
		if (v instanceof java.util.List<?>) {
			return "list";
		}
		if (v == None.INSTANCE) {
			return "NoneType";
		}
		return v == null ? "NoneType" : v.getClass().getSimpleName();
	}
}
