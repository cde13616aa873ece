package dev.ptotools.analyzer.pipeline;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.language.ParsedFile;

/** The facts of the analysis pipeline. */
public final class Keys {

	private Keys() {
	}

	/** Input: the parsed file. */
	public static final Key<ParsedFile> PARSED = new Key<>("parsed file", ParsedFile.class);
	/** Input: the configuration. */
	public static final Key<AnalyzerConfig> CONFIG = new Key<>("configuration", AnalyzerConfig.class);
	/** Input, optional: names bound before the file's own imports run (text given to pl.parse). */
	/** What the module's imports of the project's other modules bind (optional: absent, nothing is read). */
	public static final Key<dev.ptotools.analyzer.project.ImportedModules> IMPORTED_MODULES = new Key<>(
			"imported modules", dev.ptotools.analyzer.project.ImportedModules.class);
	public static final Key<Imports> PRELUDE = new Key<>("names bound before the imports", Imports.class);
	public static final Key<ModuleIR> MODULE = new Key<>("module IR", ModuleIR.class);
	public static final Key<CallResolution> CALLS = new Key<>("call resolution", CallResolution.class);
	public static final Key<Constants> CONSTANTS = new Key<>("constants", Constants.class);
	public static final Key<JitSamples> JIT_SAMPLES = new Key<>("jit samples", JitSamples.class);
	public static final Key<FunctionKinds> FUNCTIONS = new Key<>("function kinds", FunctionKinds.class);
	public static final Key<SubscriptOps> SUBSCRIPTS = new Key<>("subscript ops", SubscriptOps.class);
	public static final Key<CommDomains> COMM_DOMAINS = new Key<>("comm domains", CommDomains.class);
	public static final Key<RankLoops> RANK_LOOPS = new Key<>("rank loops", RankLoops.class);
	public static final Key<dev.ptotools.analyzer.facts.ParseDamage> DAMAGE = new Key<>("parse damage",
			dev.ptotools.analyzer.facts.ParseDamage.class);
	/** The DSL modules written as strings for pl.parse, each analyzed on its own. */
	public static final Key<EmbeddedModules> EMBEDDED = new Key<>("embedded modules", EmbeddedModules.class);
	public static final Key<CallDirections> CALL_DIRECTIONS = new Key<>("call directions", CallDirections.class);
	/**
	 * What compiling the module found; produced only when the compiler is part of the pipeline (the
	 * compiler module adds its pass), so the compile rules are silent in analyzer-only runs.
	 */
	public static final Key<dev.ptotools.analyzer.facts.CompileFindings> COMPILE = new Key<>("compile findings",
			dev.ptotools.analyzer.facts.CompileFindings.class);
}
