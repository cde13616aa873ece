package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.ir.Span;

/**
 * What compiling the module found (the compiler module produces this fact when it is part of the
 * pipeline, as in {@code pto check}, {@code pto compile} and the language server): every problem that
 * stops or changes a compile, where it is, and the compiler's output for whoever writes it.
 *
 * @param findings the problems, in source order
 * @param output the compiler's generation (files and problems), opaque to the analyzer
 */
public record CompileFindings(List<Finding> findings, Object output, List<Span> parsedOnly) {

	/**
	 * @param parsedOnly where the programs are that running the module only parses (a standalone
	 *        {@code @pl.function}, a program a test builds without compiling it): no pass runs on them
	 */
	public CompileFindings {
		parsedOnly = List.copyOf(parsedOnly);
	}

	public CompileFindings(List<Finding> findings, Object output) {
		this(findings, output, List.of());
	}

	/** Why a program does not compile, or what a compile leaves out. */
	public enum Kind {
		/** pypto rejects the program: its front end, a pass or its codegen raises an error. */
		REJECTED,
		/** The program is valid pypto, but this compiler cannot reproduce what pypto writes for it. */
		UNSUPPORTED,
		/**
		 * Not a problem: the settings (flags, [tool.pto], the editor's) override what the module's own compile
		 * call asks for, so the program is compiled for other options than running the module would.
		 */
		OVERRIDDEN,
		/**
		 * Not a problem: one of pypto's performance hints (its PerfHint diagnostics, e.g. PH001) on a program that
		 * compiles.
		 */
		PERF_HINT
	}

	/**
	 * One problem of one program; program is its output name (or null for the module). frontEnd says that
	 * pypto's front end raises it while it parses the program, before any pass or verifier runs: nothing a
	 * pass would report on that program is then ever reached.
	 */
	public record Finding(Kind kind, Span span, String message, String program, boolean frontEnd) {

		public Finding(Kind kind, Span span, String message, String program) {
			this(kind, span, message, program, false);
		}
	}
}
