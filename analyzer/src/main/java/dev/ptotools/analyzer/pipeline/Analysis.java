package dev.ptotools.analyzer.pipeline;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.language.ParsedFile;

/** The result of analyzing one file: its parse, IR, facts and diagnostics (in source order). */
public record Analysis(ParsedFile file, ModuleIR module, Facts facts, List<Diagnostic> diagnostics) {

	/** Every rank loop with its verdict; empty when the file is not PyPTO or the pass did not run. */
	public List<RankLoop> rankLoops() {
		return facts.has(Keys.RANK_LOOPS) ? facts.get(Keys.RANK_LOOPS).loops() : List.of();
	}

	/** The DSL modules written as strings for pl.parse in this file, each with its own analysis. */
	public List<EmbeddedModules.Embedded> embedded() {
		return facts.has(Keys.EMBEDDED) ? facts.get(Keys.EMBEDDED).modules() : List.of();
	}

	/**
	 * The same analysis without the file's syntax tree ({@link ParsedFile#withoutSyntaxTree()}): every
	 * fact, the IR and the diagnostics stay, and nothing after the pipeline reads the tree.
	 */
	public Analysis withoutSyntaxTree() {
		if (!file.hasSyntaxTree()) {
			return this;
		}
		ParsedFile light = file.withoutSyntaxTree();
		Facts lightFacts = facts.copy();
		if (lightFacts.has(Keys.PARSED)) {
			lightFacts.put(Keys.PARSED, light);
		}
		if (lightFacts.has(Keys.EMBEDDED)) {
			lightFacts.put(Keys.EMBEDDED, lightFacts.get(Keys.EMBEDDED).withoutSyntaxTree());
		}
		return new Analysis(light, module, lightFacts, diagnostics);
	}

	public boolean isPypto() {
		return module != null && module.importsPypto();
	}

	public RankLoops loops() {
		return facts.get(Keys.RANK_LOOPS);
	}
}
