package dev.ptotools.codegen.dev;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.ir.IrPrinter;

/** Development aid: prints the program IR the front end builds for each class program of a file. */
public final class DumpIr {

	private DumpIr() {
	}

	public static void main(String[] args) throws Exception {
		String text = Files.readString(Path.of(args[0]));
		Analysis a = Analyzer.standard().analyze(text, AnalyzerConfig.DEFAULT);
		for (Program p : a.module().programs()) {
			if (p.style() != Program.Style.CLASS) {
				continue;
			}
			Closure c = new Closure(a.facts().get(Keys.CONSTANTS).env(p), a.module().pl(), a.module().pld());
			try {
				System.out.println(IrPrinter.print(ProgramParser.parse(p.name(), p.functions(), c, a.module().pl(),
						a.module().pld())));
			} catch (RuntimeException e) {
				System.out.println("ERROR " + p.name() + ": " + e);
			}
		}
	}
}
