package dev.ptotools.codegen.support;

import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.codegen.CompileOptions;

/**
 * Everything a generator reads about one program: the analysis facts, the options and the source text
 * (SubWorker modules carry their body's source).
 */
public record ProgramContext(Program program, CallResolution calls, FunctionKinds kinds, ConstEval eval,
		CallDirections directions, CommDomains commDomains, RankLoops rankLoops, CompileOptions options, String source) {

	public FunctionInfo info(Function f) {
		return kinds.of(f);
	}
}
