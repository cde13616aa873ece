package dev.ptotools.analyzer.support;

import java.nio.file.Path;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/** Prints every diagnostic and rank-loop verdict of files: a developer's look at the analyzer. */
public final class AnalyzeMain {

	private AnalyzeMain() {
	}

	public static void main(String[] args) throws Exception {
		for (String a : args) {
			ParsedFile parsed = PythonFrontEnd.get().parse(Path.of(a));
			Analysis analysis = Analyzer.standard().analyze(parsed, AnalyzerConfig.DEFAULT);
			System.out.println("== " + a);
			for (Diagnostic d : analysis.diagnostics()) {
				System.out.printf("%d:%d %s %s %s%n", parsed.lines().line(d.span().start()),
						parsed.lines().column(d.span().start()), d.rule(), d.severity().lower(), d.message());
				for (Fix f : d.fixes()) {
					System.out.println("    fix: " + f.title() + (f.preferred() ? " (preferred)" : ""));
				}
			}
			for (RankLoop l : analysis.rankLoops()) {
				System.out.printf("  loop %d: %s %s%n", parsed.lines().line(l.loop().span().start()),
						l.grouped() ? "GROUPED" : "not grouped [" + l.failed().rule() + "]", l.reason());
			}
		}
	}
}
