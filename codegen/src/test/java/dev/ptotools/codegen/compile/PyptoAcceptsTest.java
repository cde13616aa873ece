package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * Programs pypto compiles that this compiler once rejected with a PTO500 of its own making, each the
 * smallest form of a construct pypto's examples and tests use: the {@code pl.Mem} alias, {@code pl.AUTO},
 * tiles of rank 3 (pypto's FlattenTileNdTo2D makes them 2-D before the store is written), the short
 * {@code pl.get_block_idx()} in a {@code pl.spmd} body, and {@code pl.tile.slice}'s own parameter name; and
 * the front-end forms pypto's unit tests build (fillpad sugars, keyword spellings, deps by element or
 * comprehension, clamped tile subscripts...). Their rejected neighbours are in ParserChecksTest.
 */
class PyptoAcceptsTest {

	private static void compiles(String program) {
		Generation g = Sources.generate(Sources.HEADER + program, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(List.of(), errors);
		assertFalse(g.files().isEmpty());
	}

	private static final String ORCH_2D = """
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orch(self, a: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
			        c = self.kernel(a, c)
			        return c
			""";

	@Test
	void theMemAliasNamesAMemorySpace() {
		compiles("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(a, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
				        return pl.store(t, [0, 0], c)

				""" + ORCH_2D);
	}

	@Test
	void aTileSliceNamesItsSourceTile() {
		compiles("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(a, [0, 0], [64, 64])
				        s = pl.tile.slice(t, [32, 64], [0, 0])
				        return pl.store(s, [0, 0], c)

				""" + ORCH_2D);
	}

	@Test
	void aThreeDimensionalTileIsStored() {
		compiles("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, x: pl.Tensor[[4, 16, 64], pl.FP16],
				               out: pl.Out[pl.Tensor[[4, 16, 64], pl.FP32]]) -> pl.Tensor[[4, 16, 64], pl.FP32]:
				        t = pl.load(x, [0, 0, 0], [2, 16, 64])
				        f = pl.cast(t, target_type=pl.FP32)
				        return pl.store(f, [0, 0, 0], out)

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[4, 16, 64], pl.FP16],
				             out: pl.Out[pl.Tensor[[4, 16, 64], pl.FP32]]) -> pl.Tensor[[4, 16, 64], pl.FP32]:
				        out = self.kernel(x, out)
				        return out
				""");
	}

	@Test
	void theShortBlockIndexCountsInAnSpmdBody() {
		compiles("""
				@pl.jit
				def rows(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
				    with pl.spmd(4, name_hint="rows"):
				        c = pl.get_block_idx()
				        r0 = c * 16
				        out = pl.assemble(out, pl.mul(pl.slice(x, [16, 64], [r0, 0]), 2.0), [r0, 0])
				    return out


				def main():
				    import torch
				    x = torch.zeros((64, 64), dtype=torch.float32)
				    out = torch.zeros((64, 64), dtype=torch.float32)
				    rows(x, out)
				""");
	}

	@Test
	void autoIsABufferBase() {
		compiles("""
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        buf = pl.reserve_buffer(name="scratch", size=4096, base=pl.AUTO)
				        t = pl.load(a, [0, 0], [64, 64])
				        return pl.store(t, [0, 0], c)

				""" + ORCH_2D);
	}

	private static String kernel(String imports, String body) {
		return imports + Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Tensor[[64, 64], pl.FP32],
				          out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				%s
				        return out
				""".formatted(body.indent(8).stripTrailing());
	}

	/** An orchestration over a store kernel k(x, out), whose body is {@code body}. */
	private static String orchestration(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Tensor[[64, 64], pl.FP32],
				          out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(x, [0, 0], [64, 64])
				        out = pl.store(t, [0, 0], out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[64, 64], pl.FP32],
				             out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				%s
				        return out
				""".formatted(body.indent(8).stripTrailing());
	}

	private static final String SCOPE_BODY = "    t = pl.load(x, [0, 0], [64, 64])\n    out = pl.store(t, [0, 0], out)\n";

	/** Front-end forms of pypto's unit tests (outside pytest.raises) that this compiler once refused. */
	static List<Arguments> frontEndForms() {
		return List.of(
				Arguments.of("fillpad math.inf positional", kernel("import math\n",
						"y = pl.fillpad(x, math.inf)\nz = pl.fillpad(x, -math.inf)\nout = pl.assemble(out, y, [0, 0])")),
				Arguments.of("fillpad pad_value from the module", kernel("from math import inf\n",
						"y = pl.fillpad(x, CLOSURE_PAD)\nz = pl.fillpad(x, pad_value=-inf)\nw = pl.fillpad(x, 0.0)\n"
								+ "out = pl.assemble(out, y, [0, 0])").replace("@pl.program", "CLOSURE_PAD = pl.PadValue.max\n\n\n@pl.program")),
				Arguments.of("tensor.dim by keyword", orchestration("n = pl.tensor.dim(tensor=x, axis=0)\n"
						+ "m = pl.tensor.dim(x, axis=1)\nout = self.k(x, out)")),
				Arguments.of("no_dep in a submit", orchestration("with pl.manual_scope():\n"
						+ "    out, _ = pl.submit(self.k, pl.no_dep(x), out)")),
				Arguments.of("pl.adir as a generic attrs value", orchestration("with pl.manual_scope():\n"
						+ "    out, _ = pl.submit(self.k, x, out, attrs={\"direction\": pl.adir.input})")),
				Arguments.of("pl.at deps by element", orchestration("tids = pl.array.create(2, pl.TASK_ID)\n"
						+ "with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s1\") as t1:\n" + SCOPE_BODY
						+ "tids[0] = t1\nwith pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s2\", deps=[tids[0]]):\n"
						+ SCOPE_BODY)),
				Arguments.of("pl.at deps by comprehension", orchestration("tids = pl.array.create(2, pl.TASK_ID)\n"
						+ "with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s1\") as t1:\n" + SCOPE_BODY
						+ "tids[0] = t1\nwith pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s2\", "
						+ "deps=[tids[k] for k in range(2) if k < 1]):\n" + SCOPE_BODY)),
				Arguments.of("tile subscript past the source's extent", kernel("",
						"t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64])\n"
								+ "s: pl.Tile[[64, 64], pl.FP32] = t[:, :256]\nout = pl.store(s, [0, 0], out)")));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("frontEndForms")
	void aFrontEndFormCompilesWithoutAnError(String family, String program) {
		Generation g = Sources.generate(program, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(List.of(), errors, program);
	}
}
