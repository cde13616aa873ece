package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;
import dev.ptotools.language.PythonFrontEnd;

/**
 * Programs built by a function from its parameters: compiled with the constants the module calls the
 * builder with, the same values the analyzer folds, so check and compile agree; a value known only when
 * the module runs is named in the finding, never reported as an undefined variable.
 */
class BuilderProgramsTest {

	/** A rank loop over a builder parameter, dispatching into a window buffer; {@code after} ends the module. */
	private static String ring(String after) {
		return Sources.HEADER + """
				SIZE = 256


				def build(n_ranks, step=1):
				    @pl.program
				    class Ring:
				        @pl.function(type=pl.FunctionType.Orchestration)
				        def chip_step(self, data: pld.DistributedTensor[[SIZE], pl.FP32]):
				            return data

				        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				        def host_orch(self):
				            buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				            for r in pl.range(0, n_ranks, step):
				                data = pld.window(buf, [SIZE], dtype=pl.FP32)
				                self.chip_step(data, device=r)
				            return 0

				    return Ring
				""" + after;
	}

	private static List<Diagnostic> checkErrors(String source) {
		Analysis a = Analyzer.standard().analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
		return a.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
	}

	@Test
	void aBuilderCalledWithAConstantCompilesWithItAndCheckFindsNoError() {
		String src = ring("\n\ndef main():\n    build(4)\n");
		Generation g = Sources.ok(src);
		String host = Sources.file(g, "Ring/orchestration/host_orch.py");
		assertTrue(host.contains("in range(0, 4, 1):"), host);
		assertEquals(List.of(), checkErrors(src));
	}

	@Test
	void aBuilderNoCallBindsBuildsNothingAndIsNoError() {
		String src = ring("");
		Generation g = Sources.generate(src, Sources.PLAIN);
		assertEquals(List.of(), g.files());
		assertEquals(List.of(), g.problems());
		assertEquals(List.of(), checkErrors(src));
	}

	@Test
	void aBindingPyptoRejectsIsRejectedByBoth() {
		String src = ring("\n\nP = build(4, 2)\n");
		Generation g = Sources.generate(src, Sources.PLAIN);
		assertEquals(List.of(), g.files());
		assertTrue(g.problems().stream().anyMatch(p -> p.message().contains("non-unit-step")), g.problems().toString());
		List<Diagnostic> errors = checkErrors(src);
		assertEquals(1, errors.size(), errors.toString());
		assertEquals("PTO203", errors.get(0).rule());
	}

	@Test
	void eachDistinctBindingIsItsOwnProgram() {
		Generation g = Sources.ok(ring("\n\nTWO = build(2)\nFOUR = build(4)\n"));
		assertTrue(Sources.file(g, "Ring/orchestration/host_orch.py").contains("range(0, 2, 1)"));
		assertTrue(Sources.file(g, "Ring__2/orchestration/host_orch.py").contains("range(0, 4, 1)"));
	}

	@Test
	void aValueTheModuleComputesIsNamedWhereTheProgramReadsIt() {
		String src = Sources.HEADER + """
				import os

				N_RANKS = int(os.environ["N_RANKS"])


				@pl.program
				class Step:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_step(self, data: pl.Tensor[[256], pl.FP32]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, inputs: pl.Tensor[[N_RANKS, 256], pl.FP32]):
				        for r in pl.range(N_RANKS):
				            self.chip_step(inputs[r], device=r)
				        return 0
				""";
		Generation g = Sources.generate(src, Sources.PLAIN);
		assertEquals(List.of(), g.files());
		assertEquals(1, g.problems().size(), g.problems().toString());
		Problem p = g.problems().get(0);
		assertEquals("PTO501: cannot compile without the value of 'N_RANKS', a value computed when the module runs",
				p.message());
		assertEquals(16, p.line(), "the first read, in the HOST orchestrator's parameter annotation");
		assertEquals(List.of(), checkErrors(src));
	}

	@Test
	void aBuilderNestedInAFunctionTheModuleCallsIsBoundThroughIt() {
		String src = Sources.HEADER + """
				def outer(n_ranks):
				    def build():
				        @pl.program
				        class Step:
				            @pl.function(type=pl.FunctionType.Orchestration)
				            def chip_step(self, data: pl.Tensor[[256], pl.FP32]):
				                return data

				            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				            def host_orch(self, inputs: pl.Tensor[[n_ranks, 256], pl.FP32]):
				                for r in pl.range(n_ranks):
				                    self.chip_step(inputs[r], device=r)
				                return 0

				        return Step

				    return build()


				P = outer(2)
				""";
		Generation g = Sources.ok(src);
		assertTrue(Sources.file(g, "Step/orchestration/host_orch.py").contains("range(0, 2, 1)"));
		assertFalse(g.files().stream().map(GeneratedFile::path).anyMatch(p -> p.contains("__2")));
	}
}
