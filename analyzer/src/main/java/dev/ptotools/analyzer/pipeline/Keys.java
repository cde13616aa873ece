package dev.ptotools.analyzer.pipeline;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.RankLoops;
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
	public static final Key<ModuleIR> MODULE = new Key<>("module IR", ModuleIR.class);
	public static final Key<CallResolution> CALLS = new Key<>("call resolution", CallResolution.class);
	public static final Key<Constants> CONSTANTS = new Key<>("constants", Constants.class);
	public static final Key<JitSamples> JIT_SAMPLES = new Key<>("jit samples", JitSamples.class);
	public static final Key<FunctionKinds> FUNCTIONS = new Key<>("function kinds", FunctionKinds.class);
	public static final Key<CommDomains> COMM_DOMAINS = new Key<>("comm domains", CommDomains.class);
	public static final Key<RankLoops> RANK_LOOPS = new Key<>("rank loops", RankLoops.class);
	public static final Key<CallDirections> CALL_DIRECTIONS = new Key<>("call directions", CallDirections.class);
}
