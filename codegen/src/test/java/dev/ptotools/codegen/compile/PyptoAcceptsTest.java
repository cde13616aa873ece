package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * Programs pypto compiles that this compiler once rejected with a PTO500 of its own making, each the
 * smallest form of a construct pypto's examples and tests use: the {@code pl.Mem} alias, {@code pl.AUTO},
 * tiles of rank 3 (pypto's FlattenTileNdTo2D makes them 2-D before the store is written), the short
 * {@code pl.get_block_idx()} in a {@code pl.spmd} body, and {@code pl.tile.slice}'s own parameter name.
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
}
