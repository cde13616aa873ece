package dev.ptotools.codegen.dev;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.compile.Entry;
import dev.ptotools.codegen.compile.EntryPrograms;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.compile.Compilation;
import dev.ptotools.codegen.frontend.jit.JitSpecializer;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.PassPipeline;

/**
 * Development aid: runs the front end and the pass pipeline on every class program of a file, and on
 * every specialization of every {@code @pl.jit} entry the analyzer finds sample calls for, and writes the
 * IR before and after each pass as pypto's {@code passes_dump/} does, so the two can be diffed file by
 * file. Usage: {@code DumpIr FILE OUTDIR}. A class program goes to {@code OUTDIR/<output name>/}; a jit
 * specialization to {@code OUTDIR/_jit_<entry>/}, the 2nd, 3rd... distinct specialization of one entry (in
 * the order the module compiles them) to {@code OUTDIR/_jit_<entry>__2/}, {@code __3/}..., the names the
 * reference driver gives pypto's own compiles of one program name; next to its {@code 00_frontend.py} a
 * jit folder has {@code specialized.py}, the source pypto's specializer would generate for it.
 */
public final class DumpIr {

	private DumpIr() {
	}

	public static void main(String[] args) throws Exception {
		String text = Files.readString(Path.of(args[0]));
		Path outRoot = Path.of(args[1]);
		Analysis a = Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT);
		for (Entry p : EntryPrograms.of(a.module())) {
			Path out = outRoot.resolve(p.outputName());
			Files.createDirectories(out);
			try {
				dump(Compilation.parse(a.module(), p, text), out, p.outputName());
			} catch (RuntimeException e) {
				System.out.println("ERROR " + p.outputName() + ": " + e);
				if (!(e instanceof dev.ptotools.codegen.support.CodegenException)) {
					e.printStackTrace(System.out); // an internal error: where it happened
				}
			}
		}
		if (!a.facts().has(Keys.JIT_SAMPLES)) {
			return;
		}
		for (JitSamples.Entry entry : a.facts().get(Keys.JIT_SAMPLES).entries()) {
			for (JitSamples.Problem problem : entry.problems()) {
				System.out.println("UNKNOWN " + entry.function().name() + (problem.param() == null ? "" : " " + problem.param())
						+ ": " + problem.reason());
			}
			for (JitSamples.Specialization spec : entry.specializations()) {
				Path out = outRoot.resolve(spec.folderName());
				try {
					JitSpecializer.JitProgram jp = JitSpecializer.specialize(a.module(), a.facts().get(Keys.CONSTANTS), spec);
					Files.createDirectories(out);
					Files.writeString(out.resolve("specialized.py"), JitSource.of(jp, jp.dynvarLiterals()));
					dump(JitSpecializer.parse(jp), out, spec.folderName());
				} catch (RuntimeException e) {
					System.out.println("ERROR " + spec.folderName() + ": " + e);
				}
			}
		}
	}

	private static void dump(dev.ptotools.codegen.ir.Program ir, Path out, String name) throws java.io.IOException {
		Files.createDirectories(out);
		Files.writeString(out.resolve("00_frontend.py"), IrPrinter.print(ir));
		PassPipeline pipeline = PassPipeline.defaults();
		int[] i = { 0 };
		try {
			pipeline.run(ir, new PassContext(Backend.ASCEND_910B), (pass, prog) -> {
				try {
					Files.writeString(out.resolve(pipeline.dumpName(i[0]++)), IrPrinter.print(prog));
				} catch (java.io.IOException e) {
					throw new java.io.UncheckedIOException(e);
				}
			});
			System.out.println("OK " + name + " -> " + out);
		} catch (dev.ptotools.codegen.support.CodegenException e) {
			System.out.println("ERROR " + name + ": " + e.getMessage() + " at " + e.span());
		} catch (RuntimeException e) {
			System.out.println("PASSES " + name + ": " + e);
		}
	}
}
