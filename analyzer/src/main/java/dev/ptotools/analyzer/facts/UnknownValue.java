package dev.ptotools.analyzer.facts;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A name a program reads from a scope around it (its builder function, the module) whose value the
 * analyzer cannot know: pypto reads it from the enclosing frame when the module runs, where it is
 * whatever the builder was called with or the module computed. Unknown is not wrong: a check that
 * needs the value says what it depends on instead of reporting an error.
 *
 * @param name the name the program reads
 * @param why what it is, worded to follow the quoted name ("a parameter of build(); known when build
 *            is called with a constant")
 */
public record UnknownValue(String name, String why) {

	/** A parameter of the function the program is defined in, which no call binds to constants. */
	public static UnknownValue parameter(String name, String function) {
		return new UnknownValue(name, "a parameter of " + function + "(); known when " + function
				+ " is called with a constant");
	}

	/** A parameter (or a value computed from them) that the builder's calls bind to different constants. */
	public static UnknownValue differing(String name, String function, List<Object> values) {
		String shown = values.stream().map(UnknownValue::python).collect(Collectors.joining(", "));
		return new UnknownValue(name, "which differs between the calls of " + function + "() (" + shown + ")");
	}

	/** A name assigned something the analyzer does not fold (a call, input, the environment). */
	public static UnknownValue runtime(String name) {
		return new UnknownValue(name, "a value computed when the module runs");
	}

	/** A name imported from a module the analyzer does not read. */
	public static UnknownValue imported(String name, String module) {
		return new UnknownValue(name, "imported from " + module);
	}

	/** A name computed from another unknown one: the cause is the root's. */
	public static UnknownValue derived(String name, UnknownValue from) {
		if (from.name().equals(name)) {
			return from;
		}
		if (from.why().startsWith("computed from ")) {
			return new UnknownValue(name, from.why());
		}
		return new UnknownValue(name, "computed from " + from.describe());
	}

	/** "'n_ranks', a parameter of build(); known when build is called with a constant". */
	public String describe() {
		return "'" + name + "', " + why;
	}

	private static String python(Object v) {
		if (v instanceof String s) {
			return "'" + s + "'";
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		return String.valueOf(v);
	}
}
