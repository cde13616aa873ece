package dev.ptotools.analyzer.project;

import java.nio.file.Path;
import java.util.Map;

import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.ir.Function;

/**
 * A {@code @pl.jit...} function of another module of the project, as a jit entry that imports it reaches
 * it: its IR (spans are offsets into its own file {@code text}, moved by {@code base}: past the analyzed
 * file's, {@link SpanBases}), its kind, how bare names in its body
 * resolve (its own module's functions and imports) and its module's constants (what pypto inlines from
 * its globals).
 */
public record ImportedFunction(Function function, JitKind kind, JitGraph.Names names, Map<String, Object> globals,
		Path file, String text, int base) {

	/** The 1-based line in its file of an offset of the analysis (its file starts at {@code base}). */
	public int line(int offset) {
		int line = 1;
		for (int i = 0; i < Math.min(offset - base, text.length()); i++) {
			if (text.charAt(i) == '\n') {
				line++;
			}
		}
		return line;
	}
}
