package dev.ptotools.codegen.dev;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.codegen.compile.Entry;
import dev.ptotools.codegen.compile.EntryPrograms;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.passes.PassPipeline;

/**
 * Development aid: runs the front end and the pass pipeline on every class program of a file and
 * writes the IR before and after each pass as pypto's {@code passes_dump/} does, so the two can be
 * diffed file by file. Usage: {@code DumpIr FILE OUTDIR}.
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
			Closure c = new Closure(p.closure(), a.module().pl(), a.module().pld());
			try {
				java.util.List<ProgramParser.External> ext = new java.util.ArrayList<>();
				for (Entry.ExternalSource e : p.externals()) {
					ext.add(new ProgramParser.External(e.callName(), e.function(), new Closure(e.closure(), a.module().pl(), a.module().pld())));
				}
				dev.ptotools.codegen.ir.Program ir = ProgramParser.parse(p.programName(), p.source(), c, a.module().pl(),
						a.module().pld(), ext);
				Files.writeString(out.resolve("00_frontend.py"), IrPrinter.print(ir));
				PassPipeline pipeline = PassPipeline.defaults();
				int[] i = { 0 };
				pipeline.run(ir, new PassContext(Backend.ASCEND_910B), (pass, prog) -> {
					try {
						Files.writeString(out.resolve(pipeline.dumpName(i[0]++)), IrPrinter.print(prog));
					} catch (java.io.IOException e) {
						throw new java.io.UncheckedIOException(e);
					}
				});
				System.out.println("OK " + p.outputName() + " -> " + out);
			} catch (RuntimeException e) {
				System.out.println("ERROR " + p.outputName() + ": " + e);
			}
		}
	}
}
