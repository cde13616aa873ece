package dev.ptotools.analyzer.passes.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Script;

/**
 * The values the script interpreter works with, besides Python's own (Long, Double, Boolean, String,
 * {@link Values#None}, java Lists for tuples and lists): torch tensors by shape and dtype, references to
 * functions, a few library objects, a value that is one of several (an argparse option, a branch on an
 * unknown condition), and an unknown value that says why.
 */
final class Py {

	private Py() {
	}

	/** Not known statically; reason says why, for messages ("'n' comes from the command line"). */
	record Unknown(String reason) {
	}

	/** One of several values (each option known); what an unknown branch or an argparse option gives. */
	record Choice(List<Object> options) {
	}

	/** A torch tensor: its shape and its torch dtype name ("float32"). */
	record Tensor(List<Long> shape, String dtype) {
		Tensor {
			shape = List.copyOf(shape);
		}
	}

	/** {@code torch.float32} and friends, by torch name. */
	record TorchDtype(String name) {
	}

	/** A {@code @pl.jit...} function of the module. */
	record JitRef(Function function) {
	}

	/** A plain {@code def} of the module (its body runs when it is called). */
	record DefRef(Script.Def def, Frame closure) {
	}

	/** {@code obj.method} before the call. */
	record Bound(Object self, String method) {
	}

	/** A module the script imports (torch, argparse, pypto.language...) by its canonical name. */
	record Module(String name) {
	}

	/** A library callable by dotted name ("torch.randn", "RunConfig"). */
	record Builtin(String name) {
	}

	/**
	 * A pypto configuration object ({@code RunConfig}, {@code DistributedConfig}) with its keyword
	 * arguments as evaluated: a sample call's {@code config=} says what platform and devices the
	 * program is compiled for.
	 */
	record Config(String name, Map<String, Object> kwargs) {
	}

	/** An object the interpreter only names (a compiled program...). */
	record Opaque(String what) {
	}

	/** {@code pl.RUNTIME}. */
	enum Runtime {
		INSTANCE
	}

	/** An argparse parser: the default of each option by destination, and its choices. */
	static final class ArgParser {
		final Map<String, Object> defaults = new LinkedHashMap<>();
	}

	/** What {@code parse_args()} returns. */
	record Namespace(Map<String, Object> values) {
	}

	/** A dict (insertion ordered, mutable like Python's). */
	record Dict(Map<Object, Object> map) {
	}

	/** A range object. */
	record Range(long start, long stop, long step) {
		List<Object> items(int limit) {
			List<Object> out = new ArrayList<>();
			for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
				if (out.size() >= limit) {
					return null;
				}
				out.add(i);
			}
			return out;
		}
	}

	static boolean unknown(Object v) {
		return v == null || v instanceof Unknown || v == Values.Unknown.INSTANCE;
	}

	static Unknown unknownOf(Object v, String fallback) {
		if (v instanceof Unknown u) {
			return u;
		}
		return new Unknown(fallback);
	}

	/** A value as Python would print it in a message, short. */
	static String show(Object v) {
		if (v instanceof String s) {
			return "'" + s + "'";
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (v instanceof Tensor t) {
			return "tensor" + t.shape() + " " + t.dtype();
		}
		if (v instanceof List<?> l) {
			return l.toString();
		}
		if (v == Values.None.INSTANCE) {
			return "None";
		}
		if (v instanceof Builtin b) {
			return "'" + b.name() + "', which is imported"; // a library object the analyzer only names
		}
		return String.valueOf(v);
	}

	/** A Choice of the distinct options, or the single one; Unknown when an option is or when too many. */
	static Object choice(List<Object> options) {
		List<Object> out = new ArrayList<>();
		for (Object o : options) {
			if (unknown(o)) {
				return o == null ? new Unknown("unknown") : o;
			}
			List<Object> flat = o instanceof Choice c ? c.options() : List.of(o);
			for (Object f : flat) {
				if (!out.contains(f)) {
					out.add(f);
				}
			}
		}
		if (out.size() == 1) {
			return out.get(0);
		}
		if (out.size() > 16) {
			return new Unknown("too many possible values");
		}
		return new Choice(List.copyOf(out));
	}
}
