package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;
import java.util.List;

import dev.ptotools.analyzer.ir.Expr;

/**
 * The direction of every positional argument of every call to a program function, as pypto's
 * DeriveCallDirections pass writes {@code Call.attrs["arg_directions"]}: from the callee's declared
 * parameter directions, with a callee {@code Out} promoted to {@code InOut} inside a sequential loop,
 * after a prior write of the same buffer in the same scope, on a buffer that may differ by control
 * flow path, or on a buffer rooted at an enclosing {@code pl.InOut} parameter; {@code pl.no_dep(x)}
 * gives {@code NoDep}. Chip orchestration codegen picks {@code add_input/add_output/add_inout/...}
 * from these.
 */
public final class CallDirections {

	/** pypto's ArgDirection. */
	public enum Arg {
		INPUT, OUTPUT, OUTPUT_EXISTING, IN_OUT, NO_DEP, SCALAR;

		/** The runtime signature name of a tensor direction ("IN", "OUT", "INOUT"). */
		public String signatureName() {
			return switch (this) {
			case INPUT -> "IN";
			case OUTPUT, OUTPUT_EXISTING -> "OUT";
			case IN_OUT, NO_DEP -> "INOUT";
			case SCALAR -> "SCALAR";
			};
		}
	}

	private final IdentityHashMap<Expr.Call, List<Arg>> directions;

	public CallDirections(IdentityHashMap<Expr.Call, List<Arg>> directions) {
		this.directions = directions;
	}

	/** The directions of a call's positional arguments, or null when the call is not to a program function. */
	public List<Arg> of(Expr.Call call) {
		return directions.get(call);
	}
}
