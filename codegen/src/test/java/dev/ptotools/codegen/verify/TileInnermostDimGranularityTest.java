package dev.ptotools.codegen.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.support.Sources;
import dev.ptotools.language.PythonFrontEnd;

/** pypto's PH001 perf hint as PTO503: narrow loads and stores, per backend, deduplicated, never a compile problem. */
class TileInnermostDimGranularityTest {

	private static String program(int rows, int cols, String unroll) {
		return Sources.program("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.AIV)
				    def k(self, x: pl.Tensor[[%1$d, %2$d], pl.FP32], out: pl.Out[pl.Tensor[[%1$d, %2$d], pl.FP32]]) -> pl.Tensor[[%1$d, %2$d], pl.FP32]:
				        for i in pl.unroll(%3$s):
				            t = pl.load(x, [0, 0], [%1$d, %2$d])
				            out = pl.store(t, [0, 0], out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[%1$d, %2$d], pl.FP32], out: pl.Out[pl.Tensor[[%1$d, %2$d], pl.FP32]]) -> pl.Tensor[[%1$d, %2$d], pl.FP32]:
				        out = self.k(x, out)
				        return out
				""".formatted(rows, cols, unroll));
	}

	private static List<Diagnostic> hints(String source, CompileOptions options) {
		Analysis a = Compiler.analyzer(options).analyze(PythonFrontEnd.get().parse(source), AnalyzerConfig.DEFAULT);
		return a.diagnostics().stream().filter(d -> d.rule().equals("PTO503")).toList();
	}

	@Test
	void aNarrowLoadAndStoreAreEachOneHintWithTheirCountInAnUnrolledLoop() {
		List<Diagnostic> found = hints(program(64, 16, "2"), CompileOptions.DEFAULT);
		assertEquals(List.of(
				"[P] PH001 TileInnermostDimGranularity: tile.load has innermost dim = 64B (tile fp32[16], target_memory=Vec); "
						+ "moves 4096B as 64 x 64B rows; recommended >= 512B for backend a2a3 (L2 cache line = 512B). Consider "
						+ "increasing tile shape on the innermost axis. (2 occurrences at this source location)",
				"[P] PH001 TileInnermostDimGranularity: tile.store has innermost dim = 64B (tile fp32[16], target_memory=Vec); "
						+ "moves 4096B as 64 x 64B rows; recommended >= 512B for backend a2a3 (L2 cache line = 512B). Consider "
						+ "increasing tile shape on the innermost axis. (2 occurrences at this source location)"),
				found.stream().map(Diagnostic::message).toList());
	}

	@Test
	void theThresholdIsTheBackends() {
		// 32 floats: 128 bytes, below Ascend910B's 512, at Ascend950's 128
		assertEquals(2, hints(program(64, 32, "1"), CompileOptions.DEFAULT).size());
		assertEquals(0, hints(program(64, 32, "1"), CompileOptions.DEFAULT.withBackend(Backend.ASCEND_950)).size());
		assertEquals(0, hints(program(8, 128, "1"), CompileOptions.DEFAULT).size());
	}

	@Test
	void aHintIsNoCompileProblem() {
		Generation g = Sources.ok(program(64, 16, "1"));
		assertTrue(g.problems().isEmpty(), g.problems().toString());
	}
}
