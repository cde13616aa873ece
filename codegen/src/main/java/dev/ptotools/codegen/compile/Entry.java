package dev.ptotools.codegen.compile;

import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;

/**
 * One program a module asks the compiler for, as pypto would build it when the module runs: a
 * {@code @pl.program} class (for a builder function, once per distinct argument binding), a
 * {@code @pl.jit} entry (once per distinct specialization), or a {@code @pl.function} outside any class,
 * which pypto parses where it is decorated and compiles into nothing of its own.
 *
 * @param outputName the folder the program's files go to (unique within the module)
 * @param programName pypto's program name (the class name, or {@code _jit_<entry>})
 * @param source the source functions, in the order pypto parses them
 * @param closure the Python values the bodies see (closure constants, builder arguments)
 * @param span where the program is defined
 * @param origin what bound it, for messages ("build_x(batch=64, ...)" at a line), or null
 * @param externals module-level functions the program calls by bare name
 * @param parseOnly a standalone {@code @pl.function}: only pypto's front end runs on it (its errors are
 *        raised where the function is defined); no pass, no files
 * @param lenient a program a test module's helper builds for its tests, which may only parse it: compiled
 *        and written when it compiles, and a refusal after pypto's front end is not reported
 */
public record Entry(String outputName, String programName, List<dev.ptotools.analyzer.ir.Function> source,
		Map<String, Object> closure, Span span, String origin, List<ExternalSource> externals, boolean parseOnly,
		boolean lenient) {

	public Entry(String outputName, String programName, List<dev.ptotools.analyzer.ir.Function> source,
			Map<String, Object> closure, Span span, String origin, List<ExternalSource> externals) {
		this(outputName, programName, source, closure, span, origin, externals, false, false);
	}

	public Entry(String outputName, String programName, List<dev.ptotools.analyzer.ir.Function> source,
			Map<String, Object> closure, Span span, String origin, List<ExternalSource> externals, boolean parseOnly) {
		this(outputName, programName, source, closure, span, origin, externals, parseOnly, false);
	}

	/**
	 * A module-level {@code @pl.function} the program calls by bare name, with the closure of its frame; or,
	 * with inline, a {@code @pl.inline} function, whose body pypto's parser expands at each call.
	 */
	public record ExternalSource(String callName, dev.ptotools.analyzer.ir.Function function, Map<String, Object> closure,
			boolean inline) {

		public ExternalSource(String callName, dev.ptotools.analyzer.ir.Function function, Map<String, Object> closure) {
			this(callName, function, closure, false);
		}
	}
}
