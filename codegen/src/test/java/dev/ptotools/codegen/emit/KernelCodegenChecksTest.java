package dev.ptotools.codegen.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * The checks pypto's kernel code generator makes before it writes a kernel: a loop a device function
 * keeps must count upward by a constant (pto_control_flow_codegen.cpp), which orchestration loops need
 * not; the error is at the loop.
 */
class KernelCodegenChecksTest {

	private static String program(String kernelLoop, String orchLoop) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32],
				               c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        %s
				            t = pl.load(a, [i * 16, 0], [16, 64])
				            c = pl.store(t, [i * 16, 0], c)
				        return c

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[64, 64], pl.FP32],
				             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        %s
				            c = self.kernel(a, c)
				        return c
				""".formatted(kernelLoop, orchLoop);
	}

	@Test
	void aDescendingKernelLoopIsRejectedAtTheLoop() {
		String src = program("for i in pl.range(3, -1, -1):", "for j in pl.range(2):");
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		assertTrue(errors.get(0).message().startsWith("PTO500: Failed to compile function 'kernel': loops in device "
				+ "functions must have a positive step, but this loop steps by -1. Device code lowers to MLIR 'scf.for'"),
				errors.get(0).message());
		List<String> lines = src.lines().toList();
		int loop = 0;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains("pl.range(3, -1, -1)")) {
				loop = i + 1;
			}
		}
		assertEquals(loop, errors.get(0).line());
		assertEquals(List.of(), g.files());
	}

	private static String tile(int rows) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[256, 256], pl.FP32],
				               c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
				        t = pl.load(a, [0, 0], [%d, 256])
				        c = pl.store(t, [0, 0], c)
				        return c

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[256, 256], pl.FP32],
				             c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
				        c = self.kernel(a, c)
				        return c
				""".formatted(rows);
	}

	/** A tile larger than its memory space is rejected at its definition, whatever the planner would do. */
	@Test
	void aTileLargerThanUnifiedBufferIsRejected() {
		String src = tile(256);
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		assertEquals("PTO500: Failed to compile function 'kernel': Vec buffer usage (at least 262144 bytes: tile 't' alone) "
				+ "exceeds platform limit (188416 bytes)", errors.get(0).message());
		assertEquals(src.lines().toList().indexOf("        t = pl.load(a, [0, 0], [256, 256])") + 1, errors.get(0).line());
		Generation half = Sources.generate(tile(128), Sources.PLAIN);
		assertEquals(List.of(), half.problems().stream().filter(Problem::isError).toList());
		// Ascend950's unified buffer holds 240 KB: 256 KB is still too much there, 192 KB is not
		Generation a5 = Sources.generate(tile(192), Sources.PLAIN.withBackend(dev.ptotools.codegen.Backend.ASCEND_950));
		assertEquals(List.of(), a5.problems().stream().filter(Problem::isError).toList());
	}

	@Test
	void anAscendingKernelLoopAndADescendingOrchestrationLoopCompile() {
		Generation g = Sources.generate(program("for i in pl.range(0, 4):", "for j in pl.range(1, -1, -1):"),
				Sources.PLAIN);
		assertEquals(List.of(), g.problems().stream().filter(Problem::isError).toList());
		assertFalse(g.files().isEmpty());
	}

	private static String cube(String leftShape) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16],
				               c: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
				        ta = pl.load(a, [0, 0], %s, target_memory=pl.Mem.Mat)
				        tb = pl.load(b, [0, 0], [%s, 64], target_memory=pl.Mem.Mat)
				        la = pl.move(ta, target_memory=pl.Mem.Left)
				        lb = pl.move(tb, target_memory=pl.Mem.Right)
				        tc = pl.matmul(la, lb)
				        c = pl.store(tc, [0, 0], c)
				        return c

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16],
				             c: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
				        c = self.kernel(a, b, c)
				        return c
				""".formatted(leftShape, leftShape.replaceAll("\\[\\d+, (\\d+)\\]", "$1"));
	}

	/** An operand the user moved to Left itself is not retiled by pypto: larger than L0A alone, it is rejected. */
	@Test
	void anExplicitLeftOperandLargerThanL0AIsRejectedAtItsDefinition() {
		String src = cube("[128, 512]");
		Generation g = Sources.generate(src, Sources.PLAIN);
		List<Problem> errors = g.problems().stream().filter(Problem::isError).toList();
		assertEquals(1, errors.size(), g.problems().toString());
		assertEquals("PTO500: tile.matmul left operand 'la' is already resident in Left (L0A) with physical shape [128, 512]"
				+ " and dtype fp16, requiring 131072 bytes, but the active backend provides 65536 bytes. AutoTileMatmulL0 does"
				+ " not retile operands already placed in Left or Right. Keep this operand in Mat and pass it directly to"
				+ " tile.matmul so AutoTileMatmulL0 can choose legal L0 tiles, or manually extract a smaller Left tile.",
				errors.get(0).message());
		assertEquals(src.lines().toList().indexOf("        la = pl.move(ta, target_memory=pl.Mem.Left)") + 1, errors.get(0).line());
		// a quarter of it, 32 KB, fits
		assertEquals(List.of(), Sources.generate(cube("[128, 128]"), Sources.PLAIN).problems().stream()
				.filter(Problem::isError).toList());
	}
}
