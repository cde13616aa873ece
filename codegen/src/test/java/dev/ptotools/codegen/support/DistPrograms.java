package dev.ptotools.codegen.support;

import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.emit.distributed.DistributedCodegen;
import dev.ptotools.codegen.emit.distributed.GroupedLoop;
import dev.ptotools.codegen.emit.distributed.HostOrchResult;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.LowerHostTensorCollectivesPass;
import dev.ptotools.codegen.passes.MaterializeCommDomainScopesPass;
import dev.ptotools.codegen.passes.MaterializeDistTensorCtxPass;
import dev.ptotools.codegen.passes.Pass;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.SynthesizeAllReduceSignalsPass;

/**
 * Distributed test programs through the front end and the distributed passes (SynthesizeAllReduceSignals,
 * MaterializeCommDomainScopes, LowerHostTensorCollectives, MaterializeDistTensorCtx) alone, then host
 * codegen: the IR the passes see is the front end's, so the facts tests state are those pypto shows for the
 * same program run through the same four passes (without SSA, flattening and simplification).
 */
public final class DistPrograms {

	private DistPrograms() {
	}

	/** The class program of a module. */
	public static Program parse(String text, String program) {
		Analysis a = Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT);
		for (dev.ptotools.analyzer.ir.Program p : a.module().programs()) {
			if (p.name().equals(program)) {
				Closure c = new Closure(a.facts().get(Keys.CONSTANTS).env(p), a.module().pl(), a.module().pld());
				return ProgramParser.parse(p.name(), p.functions(), c, a.module().pl(), a.module().pld());
			}
		}
		throw new AssertionError("no program " + program);
	}

	/** The analysis of a module (for its rank-loop verdicts). */
	public static Analysis analyze(String text) {
		return Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT);
	}

	/** The four distributed passes, in pipeline order. */
	public static List<Pass> passes() {
		return List.of(new SynthesizeAllReduceSignalsPass(), new MaterializeCommDomainScopesPass(),
				new LowerHostTensorCollectivesPass(), new MaterializeDistTensorCtxPass());
	}

	/** The program after the distributed passes up to and including the named one. */
	public static Program lower(Program p, String through) {
		PassContext ctx = new PassContext(Backend.ASCEND_910B);
		for (Pass pass : passes()) {
			p = pass.run(p, ctx);
			if (pass.name().equals(through)) {
				return p;
			}
		}
		return p;
	}

	public static Program lower(String text, String program) {
		return lower(parse(text, program), "MaterializeDistTensorCtx");
	}

	/** A function of the lowered program, printed. */
	public static String print(Program p, String function) {
		Function f = p.function(function);
		if (f == null) {
			throw new AssertionError("no function " + function);
		}
		return IrPrinter.print(f);
	}

	/** host_orch.py with pypto's per-rank dispatch (grouped dispatch off). */
	public static String hostOrch(String text, String program) {
		return result(text, program, CompileOptions.DEFAULT.withGroupedDispatch(false), List.of()).code();
	}

	public static HostOrchResult result(String text, String program, CompileOptions options, List<GroupedLoop> grouped) {
		Program p = lower(text, program);
		return DistributedCodegen.generate(p, DistributedCodegen.entryOf(p), options, grouped);
	}
}
