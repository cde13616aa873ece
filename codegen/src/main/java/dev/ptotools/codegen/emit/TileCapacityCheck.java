package dev.ptotools.codegen.emit;

import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The part of pypto's on-chip capacity check (AllocateMemoryAddr, src/ir/transforms/allocate_memory_addr_pass.cpp)
 * that holds whatever its memory planner does: a buffer's high-water mark is at least the size of any one
 * tile in it, so a kernel tile larger than its memory space on the backend (src/backend/common/soc.cpp:
 * the unified buffer, Vec, 184 KB on Ascend910B and 240 KB on Ascend950; L1, Mat, 512 KB) is rejected. pypto reports the kernel's whole high-water mark, which depends on its reuse of buffers; this
 * says the one tile that is enough, at the statement that defines it, or else the tiles that must be in
 * memory together ({@link TileLiveBytes}), after the statement where they are most.
 *
 * <p>Needs: the program after the passes (memory spaces inferred, AIV split halves applied). Tiles with a
 * dimension that is not a constant are not judged, nor are the kernels of explicit {@code pl.split_aiv}
 * regions (LowerAutoVectorSplit halves their vector tiles per lane, which this compiler does not port, so
 * their tiles here are twice the size pypto checks).
 */
public final class TileCapacityCheck {

	private TileCapacityCheck() {
	}

	// L0 (Left, Right, Acc) is left out: pypto's AutoTileMatmulL0 cuts a matmul's operands to fit it, a pass
	// this compiler ports only in part, so a large L0 tile here may be several small ones there.
	private static final Map<MemorySpace, Long> ASCEND_910B = Map.of(MemorySpace.Vec, 184L * 1024, MemorySpace.Mat,
			512L * 1024);

	private static final Map<MemorySpace, Long> ASCEND_950 = Map.of(MemorySpace.Vec, 240L * 1024, MemorySpace.Mat,
			512L * 1024);

	public static void check(Program program, Backend backend) {
		Map<MemorySpace, Long> limits = backend == Backend.ASCEND_950 ? ASCEND_950 : ASCEND_910B;
		for (Function f : program.functions()) {
			if (!KernelCodegenChecks.writesAKernel(f) || f.attr("split_aiv_region_validated") != null) {
				continue;
			}
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.Assign a && a.var().type() instanceof Type.Tile t && t.memory() != null
							&& limits.containsKey(t.memory())) {
						long bytes = bytes(t);
						long limit = limits.get(t.memory());
						if (bytes > limit) {
							throw new CodegenException("Failed to compile function '" + f.name() + "': " + t.memory()
									+ " buffer usage (at least " + bytes + " bytes: tile '" + sourceName(a.var().name()) + "' alone) "
									+ "exceeds platform limit (" + limit + " bytes)", a.span() != null ? a.span() : f.span());
						}
					}
					super.stmt(s);
				}
			}.stmt(f.body());
			// no one tile too large: the tiles that must be in memory together
			for (TileLiveBytes.Peak p : TileLiveBytes.of(f.body(), limits.keySet()).values()) {
				long limit = limits.get(p.memory());
				if (p.bytes() > limit) {
					List<String> names = p.tiles().stream().map(v -> "'" + sourceName(v.name()) + "'").toList();
					throw new CodegenException("Failed to compile function '" + f.name() + "': " + p.memory()
							+ " buffer usage (at least " + p.bytes() + " bytes: tiles " + String.join(", ", names)
							+ " live together) exceeds platform limit (" + limit + " bytes)", p.at() != null ? p.at() : f.span());
				}
			}
		}
	}

	/** L0A and L0B hold 64 KB on both backends (src/backend/common/soc.cpp). */
	private static final long L0_AB_BYTES = 64L * 1024;

	/**
	 * pypto's AutoTileMatmulL0 CheckExplicitL0OperandCapacity: a matmul operand the user already moved to
	 * Left or Right is not retiled, so one larger than L0A/L0B by itself is rejected (a ValueError), at the
	 * operand's definition. Run on the program as the front end built it (AutoTileMatmulL0 comes before
	 * InferTileMemorySpace: only the user's own moves to Left or Right are there, not the passes').
	 */
	public static void explicitL0Operands(Program input) {
		for (Function f : input.functions()) {
			if (f.body() != null) {
				explicitL0Operands(f); // kernels, and the InCore scopes not outlined yet
			}
		}
	}

	private static void explicitL0Operands(Function f) {
		java.util.Map<dev.ptotools.codegen.ir.Var, dev.ptotools.analyzer.ir.Span> defs = new java.util.HashMap<>();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a) {
					defs.put(a.var(), a.span());
				}
				super.stmt(s);
			}

			@Override
			public void call(Expr.Call c) {
				super.call(c);
				int lhs = c.isOp("tile.matmul") || c.isOp("tile.matmul_bias") ? 0 : c.isOp("tile.matmul_acc") ? 1 : -1;
				if (lhs < 0 || c.args().size() < lhs + 2) {
					return;
				}
				operand(c, c.args().get(lhs), MemorySpace.Left, "left", "L0A");
				operand(c, c.args().get(lhs + 1), MemorySpace.Right, "right", "L0B");
			}

			private void operand(Expr.Call c, Expr e, MemorySpace space, String role, String hardware) {
				if (!(e instanceof dev.ptotools.codegen.ir.Var v) || !(v.type() instanceof Type.Tile t) || t.memory() != space) {
					return;
				}
				long bytes = bytes(t);
				if (bytes <= L0_AB_BYTES) {
					return;
				}
				dev.ptotools.analyzer.ir.Span at = defs.get(v);
				throw new CodegenException(c.name() + " " + role + " operand '" + sourceName(v.name()) + "' is already resident in "
						+ space + " (" + hardware + ") with physical shape " + dev.ptotools.codegen.ir.IrPrinter.shape(t.shape())
						+ " and dtype " + t.dtype().text() + ", requiring " + bytes + " bytes, but the active backend provides "
						+ L0_AB_BYTES + " bytes. AutoTileMatmulL0 does not retile operands already placed in Left or Right. Keep"
						+ " this operand in Mat and pass it directly to " + c.name() + " so AutoTileMatmulL0 can choose legal L0"
						+ " tiles, or manually extract a smaller " + space + " tile.",
						at != null ? at : c.span() != null ? c.span() : f.span());
			}
		}.stmt(f.body());
	}

	/** The name as the user wrote it: SSA versions ({@code t__ssa_v0}) are the passes' own. */
	private static String sourceName(String name) {
		return name.replaceAll("__ssa_v\\d+$", "");
	}

	/** The tile's bytes, -1 when a dimension is not a constant. */
	static long bytes(Type.Tile t) {
		long n = 1;
		for (Expr d : t.shape()) {
			if (!(d instanceof Expr.ConstInt c) || c.value() <= 0) {
				return -1;
			}
			n *= c.value();
			if (n > Long.MAX_VALUE / 64) {
				return -1;
			}
		}
		return n * Math.max(1, t.dtype().bits()) / 8;
	}
}
