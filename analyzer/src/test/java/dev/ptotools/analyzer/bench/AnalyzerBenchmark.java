package dev.ptotools.analyzer.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.DeepStack;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.bench.ParseBenchmark;
import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.support.Python3;

/**
 * Analyzer throughput: parse + lower + every pass and rule, single-threaded, after warm-up. Over the
 * standard library (each file analyzed as if it imported pypto, so that every pass runs) and over a
 * generated 2,000-line multi-rank program; next to CPython's ast.parse on the stdlib.
 */
public final class AnalyzerBenchmark {

	public record Figures(long stdlibLines, double stdlibLinesPerSecond, long programLines,
			double programLinesPerSecond, double cpythonLinesPerSecond, double cpythonProgramLinesPerSecond) {
	}

	private AnalyzerBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Figures f = run(Python3.stdlib().orElseThrow(), 2);
		System.out.printf("%-40s %12s %12s%n", "analyzer (1 thread)", "lines", "lines/s");
		System.out.printf("%-40s %12d %12.0f%n", "stdlib, every pass", f.stdlibLines(), f.stdlibLinesPerSecond());
		System.out.printf("%-40s %12d %12.0f%n", "generated multi-rank program", f.programLines(),
				f.programLinesPerSecond());
		System.out.printf("%-40s %12d %12.0f%n", "CPython ast.parse (stdlib)", f.stdlibLines(), f.cpythonLinesPerSecond());
		System.out.printf("%-40s %12d %12.0f%n", "CPython ast.parse (generated program)", f.programLines(),
				f.cpythonProgramLinesPerSecond());
		System.out.printf("ratio analyzer / CPython ast.parse on the same files: stdlib %.2fx, program %.2fx (goal: >= 0.5x)%n",
				f.stdlibLinesPerSecond() / f.cpythonLinesPerSecond(),
				f.programLinesPerSecond() / f.cpythonProgramLinesPerSecond());
	}

	public static Figures run(Path stdlib, int rounds) throws Exception {
		List<String> sources = new ArrayList<>();
		long lines = 0;
		for (Path p : CorpusScan.pythonFilesOutsideSitePackages(stdlib)) {
			String text = "import pypto.language as pl\n" + new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
			sources.add(text);
			lines += text.chars().filter(c -> c == '\n').count();
		}
		String program = GeneratedPrograms.multiRank(2000);
		long programLines = program.chars().filter(c -> c == '\n').count();
		long stdlibLines = lines;
		double[] figures = DeepStack.call(() -> {
			Analyzer analyzer = Analyzer.standard();
			for (int warm = 0; warm < 1; warm++) {
				for (String s : sources) {
					analyzer.analyze(PythonFrontEnd.get().parse(s), AnalyzerConfig.DEFAULT);
				}
			}
			long t = System.nanoTime();
			for (int r = 0; r < rounds; r++) {
				for (String s : sources) {
					analyzer.analyze(PythonFrontEnd.get().parse(s), AnalyzerConfig.DEFAULT);
				}
			}
			double std = stdlibLines * (double) rounds / ((System.nanoTime() - t) / 1e9);
			for (int warm = 0; warm < 20; warm++) {
				analyzer.analyze(PythonFrontEnd.get().parse(program), AnalyzerConfig.DEFAULT);
			}
			int reps = 50;
			t = System.nanoTime();
			for (int r = 0; r < reps; r++) {
				analyzer.analyze(PythonFrontEnd.get().parse(program), AnalyzerConfig.DEFAULT);
			}
			double prog = programLines * (double) reps / ((System.nanoTime() - t) / 1e9);
			return new double[] { std, prog };
		});
		double cpython = ParseBenchmark.cpythonLinesPerSecond(stdlib, rounds);
		Path dir = Files.createTempDirectory("pto-bench");
		Files.writeString(dir.resolve("generated.py"), program);
		double cpythonProgram = ParseBenchmark.cpythonLinesPerSecond(dir, 200);
		Files.delete(dir.resolve("generated.py"));
		Files.delete(dir);
		return new Figures(stdlibLines, figures[0], programLines, figures[1], cpython, cpythonProgram);
	}
}
