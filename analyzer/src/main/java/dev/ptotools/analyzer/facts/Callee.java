package dev.ptotools.analyzer.facts;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.ir.Function;

/** What a call calls, as name resolution decided. */
public sealed interface Callee {

	/** A function of the same program: {@code self.f(...)} or, in jit style, {@code f(...)}. */
	record ProgramFunction(Function function, boolean viaSelf) implements Callee {
	}

	/** {@code self.f(...)} (or a bare jit-style call) naming no function of the program. */
	record UnknownFunction(String name, boolean viaSelf) implements Callee {
	}

	/** A pl./pld. member; {@code written} is the normalized spelling used ("pld.world_size"). */
	record BuiltinCall(Builtin builtin, String written) implements Callee {

		public boolean is(String opOrName) {
			return builtin.name().equals(opOrName) || builtin.isOp(opOrName);
		}
	}

	/** A pl./pld. name that is not a member of pypto's public surface. */
	record UnknownBuiltin(String written) implements Callee {
	}

	/** Anything else: a Python builtin, a helper of the module, an expression. */
	record Other(String text) implements Callee {
	}
}
