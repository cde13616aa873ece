package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/** pl.aiv_shard / pl.aic_gather in a pl.split_aiv region: typed as pypto types them, so their results can be stored. */
class SplitTransfersTest {

	private static String jit(String mode, String rows, String store) {
		return Sources.HEADER + """
				import torch

				@pl.jit
				def k(a: pl.Tensor[[%1$s, 64], pl.BF16], w: pl.Tensor[[32, 64], pl.BF16],
				      out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
				    with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
				        a_tile = pl.slice(a, [16, 64], [0, 0], valid_shape=[%1$s, 64])
				        acc = pl.matmul(a_tile, w[0:32, 0:64], b_trans=True, out_dtype=pl.FP32)
				        for lane in pl.split_aiv(2, mode=pl.SplitMode.%2$s):
				            shard = pl.aiv_shard(acc)
				            %3$s
				    return out

				k(torch.zeros((%1$s, 64), dtype=torch.bfloat16), torch.zeros((32, 64), dtype=torch.bfloat16),
				  torch.zeros((16, 32), dtype=torch.float32))
				""".formatted(rows, mode, store);
	}

	@Test
	void anUpDownShardOfATensorIsItsHalfRowsAndCanBeStored() {
		Generation g = Sources.ok(jit("UP_DOWN", "16", "out[lane * 8 : lane * 8 + 8, 0:32] = shard"));
		assertTrue(Sources.file(g, ".cpp").contains("MixedKernels"), g.files().toString());
	}

	@Test
	void aRaggedValidExtentIsCarriedHalvedAndALeftRightShardHalvesTheColumns() {
		Sources.ok(jit("UP_DOWN", "5", "out[lane * 8 : lane * 8 + 8, 0:32] = shard"));
		Sources.ok(jit("LEFT_RIGHT", "16", "out[0:16, lane * 16 : lane * 16 + 16] = shard"));
	}

	/** The printed type of the value named {@code shard}, as the compile typed it. */
	private static String shardType(String source) {
		var a = dev.ptotools.codegen.Compiler.analyzer(Sources.PLAIN)
				.analyze(dev.ptotools.language.PythonFrontEnd.get().parse(source), dev.ptotools.analyzer.config.AnalyzerConfig.DEFAULT);
		return dev.ptotools.codegen.Compiler.compilation(a, Sources.PLAIN).types().stream().filter(t -> t.name().equals("shard"))
				.map(t -> t.type()).findFirst().orElse("none");
	}

	@Test
	void theShardsTypeHalvesTheSplitAxisAndItsValidExtent() {
		assertEquals("pl.Tensor[[8, 32], pl.FP32]", shardType(jit("UP_DOWN", "16", "out[lane * 8 : lane * 8 + 8, 0:32] = shard")));
		assertEquals("pl.Tensor[[16, 16], pl.FP32]", shardType(jit("LEFT_RIGHT", "16", "out[0:16, lane * 16 : lane * 16 + 16] = shard")));
		// a slice of 16 rows valid to 5: each lane's box is 8 rows, valid to the ceil half, 3
		String ragged = shardType(jit("UP_DOWN", "5", "pass").replace("shard = pl.aiv_shard(acc)", "shard = pl.aiv_shard(a_tile)"));
		assertTrue(ragged.startsWith("pl.Tensor[[8, 64], pl.BF16, pl.TensorView(") && ragged.contains("valid_shape=[3, 64]"),
				ragged);
	}

	@Test
	void outsideASplitAivRegionTheModeIsMissing() {
		Generation g = Sources.generate(Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t = pl.load(a, [0, 0], [16, 16])
				        s = pl.aiv_shard(t)
				        return pl.store(t, [0, 0], out)
				""", Sources.PLAIN);
		assertTrue(g.problems().toString().contains("pl.aiv_shard() must be used inside a 'for ... in pl.split_aiv(...)' "
				+ "loop"), g.problems().toString());
	}
}
