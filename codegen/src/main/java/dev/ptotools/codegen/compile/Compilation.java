package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.PassPipeline;
import dev.ptotools.codegen.support.CodegenException;

/**
 * One module compiled: every entry program through the front end, pypto's default pass pipeline and
 * the emitters. A program that does not compile gets a finding at the construct that stops it and no
 * files; the others are unaffected.
 *
 * @param programs the programs that compiled, with their files (paths relative to the output folder)
 * @param findings why the others did not, in source order
 */
public record Compilation(List<CompiledProgram> programs, List<CompileFindings.Finding> findings) {

	/** A program that compiled: its entry (output name, where it is defined) and its files. */
	public record CompiledProgram(Entry entry, List<GeneratedFile> files) {
	}

	/** Compiles a module; loops (may be null) are the analyzer's rank-loop verdicts, for grouped dispatch. */
	public static Compilation of(ModuleIR module, RankLoops loops, CompileOptions options) {
		List<CompiledProgram> programs = new ArrayList<>();
		List<CompileFindings.Finding> findings = new ArrayList<>();
		if (!module.importsPypto()) {
			return new Compilation(programs, findings);
		}
		for (Entry e : EntryPrograms.of(module)) {
			try {
				Program ir = parse(module, e);
				Program lowered = PassPipeline.defaults().run(ir, new PassContext(options.backend()));
				programs.add(new CompiledProgram(e, ProgramBuild.files(e.outputName(), lowered, options, loops)));
			} catch (CodegenException ex) {
				findings.add(new CompileFindings.Finding(
						ex.isUnsupported() ? CompileFindings.Kind.UNSUPPORTED : CompileFindings.Kind.REJECTED,
						ex.span() == Span.NONE ? e.span() : ex.span(), ex.getMessage(), e.outputName()));
			} catch (RuntimeException | StackOverflowError ex) {
				findings.add(new CompileFindings.Finding(CompileFindings.Kind.UNSUPPORTED, e.span(),
						"internal error in the compiler: " + ex + " (please report)", e.outputName()));
			}
		}
		findings.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
		return new Compilation(programs, findings);
	}

	/** The entry's program as pypto's front end builds it. */
	static Program parse(ModuleIR module, Entry e) {
		List<ProgramParser.External> externals = new ArrayList<>();
		for (Entry.ExternalSource x : e.externals()) {
			externals.add(new ProgramParser.External(x.callName(), x.function(),
					new Closure(x.closure(), module.pl(), module.pld())));
		}
		return ProgramParser.parse(e.programName(), e.source(), new Closure(e.closure(), module.pl(), module.pld()),
				module.pl(), module.pld(), externals);
	}
}
