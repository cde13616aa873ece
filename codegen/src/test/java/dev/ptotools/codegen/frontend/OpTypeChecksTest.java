package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * Each operand check pypto's type deducers make, one family per case: the rejected program gets
 * pypto's message at the op's call (line and column, as pypto's parser locates it), and its accepted
 * neighbour, one token away, compiles. Messages from pypto's src/ir/op (e2d0f78).
 */
class OpTypeChecksTest {

	/** A kernel computing tc by {@code stmt} from ta (a as [64, 64] FP32) and tb (b as given), stored at [0, 0]. */
	private static String kernel(String bLoad, String stmt) {
		return kernel(bLoad, stmt, "[0, 0]");
	}

	private static String kernel(String bLoad, String stmt, String storeAt) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32], b: pl.Tensor[[64, 64], pl.FP32],
				               c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        ta = pl.load(a, [0, 0], [64, 64])
				        tb = %s
				        tc = %s
				        out = pl.store(tc, %s, c)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[64, 64], pl.FP32], b: pl.Tensor[[64, 64], pl.FP32],
				             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        c = self.kernel(a, b, c)
				        return c
				""".formatted(bLoad, stmt, storeAt);
	}

	static List<Arguments> rejected() {
		String b64 = "pl.load(b, [0, 0], [64, 64])";
		String add = "pl.add(ta, tb)";
		return List.of(
				Arguments.of("shape", "pl.load(b, [0, 0], [64, 32])", add, b64, add, "tc = ",
						"pl operation 'add': The operator tile.add requires compatible shapes, but got [64, 64] and [64, 32]"),
				Arguments.of("broadcast", "pl.load(b, [0, 0], [32, 64])", "pl.tile.mul(ta, tb)",
						"pl.load(b, [0, 0], [1, 64])", "pl.tile.mul(ta, tb)", "tc = ",
						"pl.tile operation 'mul': The operator tile.mul requires compatible shapes, but got [64, 64] and "
								+ "[32, 64]"),
				Arguments.of("tile or tensor", b64, "pl.relu(a)", b64, "pl.relu(ta)", "tc = ",
						"pl operation 'relu': The operator tile.relu requires argument to be a TileType, but got TensorType"),
				Arguments.of("exact shapes of tile.div", "pl.load(b, [0, 0], [1, 64])", "pl.tile.div(ta, tb)", b64,
						"pl.tile.div(ta, tb)", "tc = ",
						"pl.tile operation 'div': The operator tile.div requires src0, src1, and dst to have the same "
								+ "physical shape, but dimension 0 differs; got src0 shape [64, 64] and src1 shape [1, 64]"),
				Arguments.of("dtype", b64, "pl.tile.sin(pl.cast(ta, target_type=pl.FP16))", b64, "pl.tile.sin(ta)", "tc = ",
						"pl.tile operation 'sin': tile.sin is FP32-only, but got input with dtype fp16. Cast the input to "
								+ "FP32 explicitly via pl.cast(tile, pl.FP32) before applying tile.sin."),
				Arguments.of("matmul", "pl.load(b, [0, 0], [32, 64], target_memory=pl.Mem.Mat)", MATMUL,
						"pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)", MATMUL, "tc = ",
						"pl operation 'matmul': The operator tile.matmul requires matching physical inner dimensions "
								+ "(physical K), but got lhs K=64 and rhs K=32"),
				Arguments.of("reshape", b64, "pl.reshape(ta, [32, 64])", b64, "pl.reshape(ta, [64, 64])", "tc = ",
						"pl operation 'reshape': tile.reshape: cannot reshape tile of size 4096 into shape with size 2048"),
				Arguments.of("reduction scratch", "pl.tile.create([64, 32], dtype=pl.FP32)", "pl.tile.row_sum(ta, tb)",
						"pl.tile.create([64, 64], dtype=pl.FP32)", "pl.tile.row_sum(ta, tb)", "tc = ",
						"pl.tile operation 'row_sum': The operator tile.row_sum requires tmp_tile shape to be at least the "
								+ "input shape in every dimension, but tmp_tile dimension 1 is undersized; got tmp_tile shape "
								+ "[64, 32] and input shape [64, 64]"),
				Arguments.of("row vector", "pl.load(b, [0, 0], [64, 2])", "pl.row_expand_mul(ta, tb)",
						"pl.load(b, [0, 0], [64, 1])", "pl.row_expand_mul(ta, tb)", "tc = ",
						"pl operation 'row_expand_mul': The operator tile.row_expand_mul requires second argument's last "
								+ "dimension to be 1, but got [64, 2]"),
				Arguments.of("row vector rows", "pl.load(b, [0, 0], [32, 1])", "pl.row_expand_sub(ta, tb)",
						"pl.load(b, [0, 0], [64, 1])", "pl.row_expand_sub(ta, tb)", "tc = ",
						"pl operation 'row_expand_sub': The operator tile.row_expand_sub requires matching row dimensions, "
								+ "but got tile rows=64 and row_vec rows=32"),
				Arguments.of("row_expand_add dtypes", "pl.cast(pl.load(b, [0, 0], [64, 8]), target_type=pl.FP16)",
						"pl.row_expand_add(ta, tb)", "pl.load(b, [0, 0], [64, 8])", "pl.row_expand_add(ta, tb)", "tc = ",
						"pl operation 'row_expand_add': The operator tile.row_expand_add requires src0 and src1 to have the "
								+ "same dtype, but got fp32 and fp16"),
				Arguments.of("col vector of a tensor", "pl.load(b, [0, 0], [1, 64])", "pl.tile.col_expand_mul(ta, b)",
						"pl.load(b, [0, 0], [1, 64])", "pl.tile.col_expand_mul(ta, tb)", "tc = ",
						"pl.tile operation 'col_expand_mul': The operator tile.col_expand_mul requires second argument to be "
								+ "a TileType, but got TensorType"),
				Arguments.of("same-dtype cast", b64, "pl.cast(tb, target_type=pl.FP32)", b64,
						"pl.cast(pl.cast(tb, target_type=pl.FP16), target_type=pl.FP32)", "tc = ",
						"pl operation 'cast': tile.cast: target_type fp32 equals input dtype; same-dtype cast is not a valid "
								+ "operation. Remove the cast or use a different target_type."),
				Arguments.of("accumulator dtype", "pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)",
						MATMUL_ACC.formatted("pl.FP16"), "pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)",
						MATMUL_ACC.formatted("pl.FP32"), "tc = ",
						"pl operation 'matmul_acc': The operator tile.matmul_acc requires accumulator dtype fp32, but got fp16"),
				Arguments.of("accumulator M", "pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)",
						MATMUL_ACC.formatted("pl.FP32").replace("create([64, 64]", "create([32, 64]"),
						"pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)", MATMUL_ACC.formatted("pl.FP32"), "tc = ",
						"pl operation 'matmul_acc': The operator tile.matmul_acc requires matching physical M dimensions, but got "
								+ "acc M=32 and product M=64"),
				Arguments.of("bias shape", "pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)", MATMUL_BIAS.formatted("[2, 64]"),
						"pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)", MATMUL_BIAS.formatted("[1, 64]"), "tc = ",
						"pl.tile operation 'matmul_bias': The operator tile.matmul_bias requires bias to have shape [1, N], but "
								+ "got [2, 64]"),
				Arguments.of("tile.create shape", "pl.tile.create([0, 64], dtype=pl.FP32)", "pl.add(ta, tb)",
						"pl.tile.create([64, 64], dtype=pl.FP32)", "pl.add(ta, tb)", "tb = ",
						"pl.tile operation 'create': The operator tile.create shape element 0 must be positive, got 0"),
				Arguments.of("tile.slice shape", b64, "pl.slice(ta, [0, 64], [0, 0])", b64, "pl.slice(ta, [64, 64], [0, 0])",
						"tc = ", "pl operation 'slice': tile.slice shape element 0 must be positive, got 0"),
				Arguments.of("load of a tile", b64, "pl.load(ta, [0, 0], [64, 64])", b64, "pl.load(a, [0, 0], [64, 64])",
						"tc = ", "pl operation 'load': The operator tile.load requires first argument to be a TensorType or "
								+ "DistributedTensorType, but got TileType"),
				Arguments.of("load bounds", "pl.load(b, [32, 0], [64, 64])", add, "pl.load(b, [32, 0], [64, 64], clamp=True)",
						add, "tb = ", "pl operation 'load': tile.load reads past the end of dimension 0: offset 32 + extent "
								+ "64 exceeds the source extent 64. Pass clamp=True -- pl.load(x, offsets, shapes, clamp=True) "
								+ "-- to narrow the read to the source edge instead"));
	}

	private static final String MATMUL_ACC = "pl.matmul_acc(pl.tile.create([64, 64], dtype=%s, target_memory=pl.Mem.Acc), "
			+ "pl.move(pl.load(a, [0, 0], [64, 64], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left), "
			+ "pl.move(tb, target_memory=pl.Mem.Right))";

	private static final String MATMUL_BIAS = "pl.tile.matmul_bias(pl.move(pl.load(a, [0, 0], [64, 64], "
			+ "target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left), pl.move(tb, target_memory=pl.Mem.Right), "
			+ "pl.tile.create(%s, dtype=pl.FP32, target_memory=pl.Mem.Bias))";

	private static final String MATMUL = "pl.matmul(pl.move(pl.load(a, [0, 0], [64, 64], target_memory=pl.Mem.Mat), "
			+ "target_memory=pl.Mem.Left), pl.move(tb, target_memory=pl.Mem.Right))";

	@ParameterizedTest(name = "{0}")
	@MethodSource("rejected")
	void pyptosMessageAtTheCall(String family, String bLoad, String stmt, String acceptedLoad, String acceptedStmt,
			String at, String message) {
		assertRejectedAt(kernel(bLoad, stmt), at, message);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("rejected")
	void theNeighbourOneTokenAwayCompiles(String family, String bLoad, String stmt, String acceptedLoad,
			String acceptedStmt, String at, String message) {
		assertCompiles(kernel(acceptedLoad, acceptedStmt));
	}

	@Test
	void aStorePastTheTargetsEndIsRejectedAtTheStore() {
		String b64 = "pl.load(b, [0, 0], [64, 64])";
		assertRejectedAt(kernel(b64, "pl.load(a, [0, 0], [64, 64])", "[16, 0]"), "out = ", "pl operation 'store': "
				+ "tile.store writes past the end of dimension 0: offset 16 + extent 64 exceeds the target extent 64. "
				+ STORE_REMEDY);
		assertCompiles(kernel(b64, "pl.load(a, [0, 0], [48, 64])", "[16, 0]"));
	}

	@Test
	void anAtomicAddStoreNeedsAHardwareAtomicDtype() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.UINT8],
				               c: pl.Out[pl.Tensor[[64, 64], pl.UINT8]]) -> pl.Tensor[[64, 64], pl.UINT8]:
				        ta = pl.load(a, [0, 0], [64, 64])
				        out = pl.store(ta, [0, 0], c, atomic=pl.AtomicType.Add)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[64, 64], pl.UINT8],
				             c: pl.Out[pl.Tensor[[64, 64], pl.UINT8]]) -> pl.Tensor[[64, 64], pl.UINT8]:
				        c = self.kernel(a, c)
				        return c
				""";
		assertRejectedAt(src, "out = ", "pl operation 'store': The operator tile.store with atomic=AtomicType.Add requires an "
				+ "fp32/bf16/fp16/int32/int16/int8 tile (hardware atomic-add dtypes), but got uint8");
		assertCompiles(src.replace("pl.UINT8", "pl.INT8"));
	}

	@Test
	void aStoreOfATensorIsRejectedAtTheStore() {
		String b64 = "pl.load(b, [0, 0], [64, 64])";
		assertRejectedAt(kernel(b64, "pl.add(ta, tb)").replace("pl.store(tc, [0, 0], c)", "pl.store(a, [0, 0], c)"),
				"out = ", "pl operation 'store': The operator tile.store requires first argument to be a TileType, but "
						+ "got TensorType");
	}

	@Test
	void anAnnotationThatDisagreesWithTheValueIsRejectedAtTheStatement() {
		String b64 = "pl.load(b, [0, 0], [64, 64])";
		String plain = kernel(b64, "pl.add(ta, tb)");
		for (String[] c : new String[][] {
				{ "tb: pl.Tile[[64, 32], pl.FP32] = ", "Type annotation for 'tb' has shape dimension 1 = 32 but expression "
						+ "has shape dimension 1 = 64" },
				{ "tb: pl.Tile[[64, 64], pl.FP16] = ", "Type annotation for 'tb' has dtype fp16 but expression has dtype fp32" },
				{ "tb: pl.Tile[[64], pl.FP32] = ", "Type annotation for 'tb' has rank 1 but expression has rank 2" },
				{ "tb: pl.Tensor[[64, 64], pl.FP32] = ", "Type annotation for 'tb' is Tensor but expression has type Tile" } }) {
			String src = plain.replace("        tb = ", "        " + c[0]);
			Generation g = Sources.generate(src, Sources.PLAIN);
			List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
			assertEquals(1, errors.size(), g.problems().toString());
			assertEquals("PTO500: " + c[1], errors.get(0).message());
			assertEquals(lineOf(src, "        tb"), errors.get(0).line());
			assertEquals(9, errors.get(0).column());
		}
		assertCompiles(plain.replace("        tb = ", "        tb: pl.Tile[[64, 64], pl.FP32] = "));
	}

	private static final String STORE_REMEDY = "A store performs no layout conversion (RFC #1300 P7): the offsets and "
			+ "the tile extent must already be in the destination's coordinate system. If the tile was read through a "
			+ "view whose layout differs from the destination's -- a DN view transposes it -- take the matching view of "
			+ "the destination, pl.view(out, layout=...), and store into that";

	private static void assertRejectedAt(String src, String at, String message) {
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		Problem p = errors.get(0);
		assertEquals("PTO500: " + message, p.message());
		int line = lineOf(src, "        " + at);
		assertEquals(line, p.line(), p.toString());
		assertEquals(8 + at.length() + 1, p.column(), "at the call, after '" + at + "': " + p);
		assertEquals(List.of(), g.files(), "no file for a program pypto rejects");
	}

	private static void assertCompiles(String src) {
		Generation g = Sources.generate(src, Sources.PLAIN);
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertTrue(!g.files().isEmpty());
	}

	private static int lineOf(String src, String prefix) {
		List<String> lines = src.lines().toList();
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).startsWith(prefix)) {
				return i + 1;
			}
		}
		throw new AssertionError(prefix);
	}
}
