package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/**
 * debug/run.py, pypto's replay script (run_script_writer.py): one per program that has compiled_meta.json
 * or distributed_meta.json, from the same parameters. The expected lines are what pypto's _init_expr_for
 * gives for these parameter kinds; the byte-for-byte check of the whole file is the reference compare over
 * pypto's examples.
 */
class DebugRunScriptTest {

	private static final String KERNEL = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def copy(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], out)

			""";

	private static final String MIXED = Sources.HEADER + "M = pl.dynamic(\"M\")\n\n@pl.program\nclass P:\n" + KERNEL + """
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[16, 16], pl.FP32], rows: pl.Tensor[[M, 8], pl.BF16], idx: pl.Tensor[[8], pl.INT32],
			             mask: pl.Tensor[[4, 4], pl.BOOL], n: pl.Scalar[pl.INT64],
			             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        out = self.copy(a, out)
			        return out
			""";

	@Test
	void aSingleChipProgramGetsARunScriptFromItsParameters() {
		Generation g = Sources.ok(MIXED);
		String run = Sources.file(g, "P/debug/run.py");
		List<String> lines = run.lines().toList();
		assertTrue(lines.get(0).startsWith("\"\"\"Auto-generated debug runner \u2014 only"), "pypto's docstring first");
		String inits = """
				    a = torch.randn((16, 16), dtype=torch.float32)
				    rows = torch.randn((1, 8), dtype=torch.bfloat16)  # NOTE: dynamic dim(s) filled with 1 \u2014 edit as needed
				    idx = torch.randint(0, 8, (8,), dtype=torch.int32)
				    mask = torch.randint(0, 2, (4, 4), dtype=torch.bool)
				    n = None  # TODO: scalar param \u2014 set a ctypes value
				    out = torch.zeros((16, 16), dtype=torch.float32)
				    return [a, rows, idx, mask, n, out]
				""";
		assertTrue(run.contains(inits), run);
		assertTrue(run.contains("\ndef _user_compare(a, rows, idx, mask, n, out):\n"), run);
		assertTrue(run.contains("  --platform PLAT          target platform (default: a2a3sim)\n"), run);
		assertTrue(run.endsWith("        default_platform=\"a2a3sim\",\n    ))\n"), run);
		// pypto's f-string braces come out single
		assertTrue(run.contains("    python {this_file}\n") && run.contains("{(c - expected).abs().max().item()}"), run);
		Python.assertCompiles(run);
	}

	@Test
	void thePlatformIsTheCompilesPlatform() {
		String run = Sources.file(Sources.ok(MIXED, Sources.PLAIN.withPlatform("a2a3")), "P/debug/run.py");
		assertTrue(run.contains("(default: a2a3)\n") && run.contains("default_platform=\"a2a3\",\n"), run);
	}

	@Test
	void severalOrchestrationsGetNoRunScriptNorDoTheirSubBuilds() {
		Generation g = Sources.ok(Sources.HEADER + "@pl.program\nclass P:\n" + KERNEL + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def first(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.copy(a, out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def second(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.copy(a, out)
				        return out
				""");
		List<String> paths = g.files().stream().map(GeneratedFile::path).toList();
		assertTrue(paths.stream().anyMatch(p -> p.endsWith("next_levels/first/compiled_meta.json")), paths.toString());
		assertFalse(paths.stream().anyMatch(p -> p.endsWith("run.py")), paths.toString());
	}

	@Test
	void aDistributedProgramsRunScriptHasTheHostParameters() {
		Generation g = Sources.ok(Sources.HEADER + "@pl.program\nclass P:\n" + KERNEL + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.copy(a, out)
				        return out

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[2, 16, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]]) -> pl.Tensor[[2, 16, 16], pl.FP32]:
				        for r in pl.range(2):
				            self.main(x[r], y[r], device=r)
				        return y
				""", Sources.PLAIN.withDeviceIds(List.of(0, 1)));
		String run = Sources.file(g, "P/debug/run.py");
		// the post-pass names, as in distributed_meta.json (pypto's DistributedCompiledProgram keeps the post-pass IR)
		assertTrue(run.contains("""
				    x__ssa_v0 = torch.randn((2, 16, 16), dtype=torch.float32)
				    y__ssa_v0 = torch.zeros((2, 16, 16), dtype=torch.float32)
				    return [x__ssa_v0, y__ssa_v0]
				"""), run);
		assertEquals(1, g.files().stream().filter(f -> f.path().endsWith("run.py")).count(), "none in next_levels/");
		Python.assertCompiles(run);
	}
}
