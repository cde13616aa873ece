package dev.ptotools.codegen.frontend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Function;

/**
 * What every function of one program sees while it is parsed (pypto's {@code @pl.program} pass 2): the
 * closure, the names of the program's functions (its GlobalVars), the functions already parsed (a
 * call of a later one has no known return type, as in pypto), and the import names of pypto.
 */
final class ParseContext {

	/** A function of the program as declared, before it is parsed. */
	record Declared(String name, FunctionType type, Level level, Role role, int params) {

		Role effectiveRole() {
			return role != null ? role : type.impliedRole();
		}
	}

	final Closure closure;
	final String pl;
	final String pld;
	final Map<String, Declared> declared = new LinkedHashMap<>();
	final Map<String, Function> parsed = new LinkedHashMap<>();
	/**
	 * Module-level {@code @pl.function}s the program calls by bare name (pypto's external functions): the
	 * name a call uses (a closure variable may hold a function a factory built) to the function's name.
	 */
	final Map<String, String> externals = new LinkedHashMap<>();
	/** The names of the program's own functions (its class methods), which an external one may not share. */
	final java.util.Set<String> programFunctions = new java.util.HashSet<>();
	/** {@code @pl.inline} functions the program calls by bare name: pypto's parser expands them at each call. */
	final Map<String, dev.ptotools.analyzer.ir.Function> inlines = new LinkedHashMap<>();
	/**
	 * The text of the module the functions come from (their spans are offsets into it), for what pypto
	 * takes from the source itself (a HOST SubWorker's body); null when the program has no such text.
	 */
	String sourceText;
	/** Names of {@code pld.alloc_window_buffer} allocations, program-wide (they must be unique). */
	final Map<String, dev.ptotools.analyzer.ir.Span> windowBuffers = new LinkedHashMap<>();

	ParseContext(Closure closure, String pl, String pld, List<Declared> functions) {
		this.closure = closure;
		this.pl = pl;
		this.pld = pld;
		for (Declared d : functions) {
			declared.put(d.name(), d);
		}
	}

	/** A dotted callee with the import aliases of pypto unified to pl./pld. */
	String normalize(String dotted) {
		return CallResolution.normalize(dotted, pl, pld);
	}
}
