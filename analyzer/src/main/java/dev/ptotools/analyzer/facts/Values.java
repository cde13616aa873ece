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

	public static boolean known(Object v) {
		return v != null && v != Unknown.INSTANCE;
	}
}
