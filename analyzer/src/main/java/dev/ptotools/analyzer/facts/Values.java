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
}
