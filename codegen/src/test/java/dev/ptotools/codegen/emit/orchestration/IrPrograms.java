package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.ClassifyIterArgCarryPass;
import dev.ptotools.codegen.passes.DeriveCallDirectionsPass;
import dev.ptotools.codegen.passes.ExpandManualPhaseFencePass;
import dev.ptotools.codegen.passes.FuseCreateAssembleToSlicePass;
import dev.ptotools.codegen.passes.MaterializeRuntimeScopesPass;
import dev.ptotools.codegen.passes.NormalizeReturnOrderPass;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.PassPipeline;

/**
 * Test helpers for the new compiler path: DSL text to the program IR through the front end, and the
 * passes pypto's orchestration tests run on hand-built programs (kernels declared AIC/AIV directly):
 * NormalizeReturnOrder, DeriveCallDirections, MaterializeRuntimeScopes, ClassifyIterArgCarry.
 */
public final class IrPrograms {

	public static final String HEADER = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n";

	private IrPrograms() {
	}

	/** Every class program of a source, through the front end only. */
	public static List<Program> parse(String source) {
		Analysis a = Analyzer.standard().analyze(source, AnalyzerConfig.DEFAULT);
		List<Program> out = new ArrayList<>();
		for (dev.ptotools.analyzer.ir.Program p : a.module().programs()) {
			if (p.style() != dev.ptotools.analyzer.ir.Program.Style.CLASS) {
				continue;
			}
			Closure c = new Closure(a.facts().get(Keys.CONSTANTS).env(p), a.module().pl(), a.module().pld());
			out.add(ProgramParser.parse(p.name(), p.functions(), c, a.module().pl(), a.module().pld()));
		}
		return out;
	}

	/** The only class program of a source. */
	public static Program parseOne(String source) {
		List<Program> ps = parse(source);
		if (ps.size() != 1) {
			throw new AssertionError("expected one program, got " + ps.size());
		}
		return ps.get(0);
	}

	/** pypto's codegen-entry passes for a hand-built program. */
	public static Program handBuilt(Program p) {
		return handBuilt(p, false, false);
	}

	/** The same, optionally with FuseCreateAssembleToSlice before and ExpandManualPhaseFence after the directions. */
	public static Program handBuilt(Program p, boolean fuse, boolean fence) {
		PassContext ctx = new PassContext(Backend.ASCEND_910B);
		p = new NormalizeReturnOrderPass().run(p, ctx);
		if (fuse) {
			p = new FuseCreateAssembleToSlicePass().run(p, ctx);
		}
		p = new DeriveCallDirectionsPass().run(p, ctx);
		if (fence) {
			p = new ExpandManualPhaseFencePass().run(p, ctx);
		}
		p = new MaterializeRuntimeScopesPass().run(p, ctx);
		return new ClassifyIterArgCarryPass().run(p, ctx);
	}

	/** The whole default pipeline (the passes ported so far). */
	public static Program pipeline(Program p) {
		return PassPipeline.defaults().run(p, new PassContext(Backend.ASCEND_910B));
	}

	public static Function orchestration(Program p) {
		for (Function f : p.sortedByName()) {
			if (f.isOrchestration()) {
				return f;
			}
		}
		throw new AssertionError("no orchestration function");
	}
}
