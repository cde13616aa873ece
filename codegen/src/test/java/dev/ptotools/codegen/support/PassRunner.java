package dev.ptotools.codegen.support;

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
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.Pass;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.PassPipeline;

/**
 * Test helper: parses the first {@code @pl.program} class of a DSL source with the compiler's front end and
 * runs the default pipeline up to (and including) a pass, so tests can assert on the IR a pass produced.
 */
public final class PassRunner {

	private PassRunner() {
	}

	/** The program IR the front end builds for the first class program of source. */
	public static Program parse(String source) {
		Analysis a = Analyzer.standard().analyze(source, AnalyzerConfig.DEFAULT);
		for (dev.ptotools.analyzer.ir.Program p : a.module().programs()) {
			if (p.style() != dev.ptotools.analyzer.ir.Program.Style.CLASS) {
				continue;
			}
			Closure c = new Closure(a.facts().get(Keys.CONSTANTS).env(p), a.module().pl(), a.module().pld());
			return ProgramParser.parse(p.name(), p.functions(), c, a.module().pl(), a.module().pld());
		}
		throw new IllegalArgumentException("no @pl.program class in the source");
	}

	/** The program after the {@code occurrence}-th (1-based) run of the named pass in the default pipeline. */
	public static Program after(String source, String passName, int occurrence) {
		PassPipeline all = PassPipeline.defaults();
		List<Pass> prefix = new ArrayList<>();
		int seen = 0;
		for (Pass p : all.passes()) {
			prefix.add(p);
			if (p.name().equals(passName) && ++seen == occurrence) {
				return new PassPipeline(prefix).run(parse(source), new PassContext(Backend.ASCEND_910B));
			}
		}
		throw new IllegalArgumentException("no pass " + passName + " #" + occurrence + " in the default pipeline");
	}

	public static Program after(String source, String passName) {
		return after(source, passName, 1);
	}

	/** The printed IR (pypto's dump format) of one function after the named pass. */
	public static String function(String source, String passName, String function) {
		Program p = after(source, passName);
		Function f = p.function(function);
		if (f == null) {
			throw new IllegalArgumentException("no function " + function);
		}
		return IrPrinter.print(f);
	}
}
