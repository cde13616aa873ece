package dev.ptotools.analyzer.support;

import java.util.List;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.language.PythonFrontEnd;

/** Analyzing snippets in tests. */
public final class Fixtures {

	/** Imports every PyPTO test program starts with. */
	public static final String IMPORTS = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n";

	private Fixtures() {
	}

	public static Analysis analyze(String source) {
		return Analyzer.standard().analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
	}

	public static Analysis analyze(String source, AnalyzerConfig config) {
		return Analyzer.standard().analyze(PythonFrontEnd.get().parse(source), config);
	}

	public static List<Diagnostic> of(Analysis a, String rule) {
		return a.diagnostics().stream().filter(d -> d.rule().equals(rule)).toList();
	}

	public static List<Diagnostic> errors(Analysis a) {
		return a.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
	}

	public static int line(Analysis a, Diagnostic d) {
		return a.file().lines().line(d.span().start());
	}

	/** A one-line summary per diagnostic, for assertion messages. */
	public static String describe(Analysis a) {
		StringBuilder b = new StringBuilder();
		for (Diagnostic d : a.diagnostics()) {
			b.append(line(a, d)).append(": ").append(d.rule()).append(' ').append(d.message()).append('\n');
		}
		return b.toString();
	}

	/**
	 * A program with one CHIP orchestrator {@code chip} (a DistributedTensor and a Tensor parameter)
	 * and a HOST orchestrator whose body is {@code hostBody} (indented by 8 spaces by the caller).
	 */
	public static String hostProgram(String hostBody) {
		return IMPORTS + """
				N = 64


				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[N], pl.FP32], data: pld.DistributedTensor[[N], pl.FP32]):
				        return data

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def other(self, x: pl.Tensor[[N], pl.FP32], data: pld.DistributedTensor[[N], pl.FP32]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, inputs: pl.Tensor[[8, N], pl.FP32], flag: pl.Scalar[pl.INT32]):
				        buf = pld.alloc_window_buffer(N * pl.FP32.get_byte())
				        data = pld.window(buf, [N], dtype=pl.FP32)
				""" + hostBody + "        return 0\n";
	}
}
