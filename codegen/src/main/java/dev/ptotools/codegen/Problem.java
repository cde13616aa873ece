package dev.ptotools.codegen;

import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * Why a program was not (or not fully) generated, or why a file was not written.
 *
 * @param severity ERROR stops generation of the program (or the write of the batch)
 * @param message what is wrong, in pypto's words where pypto has them
 * @param source the source file (as the caller named it), or null
 * @param line 1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param program the program concerned, or null
 */
public record Problem(Severity severity, String message, String source, int line, int column, String program) {

	public boolean isError() {
		return severity == Severity.ERROR;
	}

	@Override
	public String toString() {
		StringBuilder b = new StringBuilder();
		if (source != null) {
			b.append(source);
			if (line > 0) {
				b.append(':').append(line).append(':').append(column);
			}
			b.append(": ");
		}
		b.append(severity.lower()).append(": ");
		if (program != null) {
			b.append('[').append(program).append("] ");
		}
		return b.append(message).toString();
	}
}
