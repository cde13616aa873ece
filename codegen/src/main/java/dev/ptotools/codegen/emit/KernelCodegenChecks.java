package dev.ptotools.codegen.emit;

import java.util.List;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * What pypto's kernel code generator (src/codegen/pto/pto_codegen.cpp) checks of each kernel's signature
 * before it writes the kernel's PTO-ISA. This compiler does not write kernel bodies, but a program pypto
 * fails to compile must not get files here either, so the checks whose failure depends only on the IR
 * the passes produce are repeated, with pypto's message: the signature's (pto_codegen.cpp), and the
 * 2-D valid shape of every stored tile (MakeTileStoreCodegenPTO, src/backend/common/pto_ops_memory.cpp:
 * a 1-D tensor computed in a kernel stays a 1-D tile, which pypto cannot store; a tile of rank 3 or
 * more is flattened to 2-D first, and only needs static dims for that), and the positive constant step
 * of every loop a kernel keeps (pto_control_flow_codegen.cpp).
 */
public final class KernelCodegenChecks {

	private KernelCodegenChecks() {
	}

	/** A function pypto writes a kernel for: InCore, AIC or AIV (a Group or Spmd wrapper has none). */
	static boolean writesAKernel(Function f) {
		return f.type() == FunctionType.InCore || f.type() == FunctionType.AIC || f.type() == FunctionType.AIV;
	}

	public static void check(Program program) {
		for (Function f : program.functions()) {
			if (!writesAKernel(f)) {
				continue;
			}
			int distributed = 0;
			int contexts = 0;
			for (Var p : f.params()) {
				if (p.type() instanceof Type.Tensor t && t.distributed()) {
					distributed++;
				} else if (p.type() instanceof Type.CommCtx) {
					contexts++;
				}
			}
			storesOf2dTiles(f);
			ascendingLoops(f);
			// each DistributedTensor parameter is paired with its own CommCtx parameter, in order
			if (distributed != contexts) {
				throw new CodegenException("Failed to compile function '" + f.name() + "': PTOCodegen: function '" + f.name()
						+ "' has " + distributed + " DistributedTensor params but " + contexts + " CommCtxType params",
						f.span());
			}
		}
	}

	private static void storesOf2dTiles(Function f) {
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				if (c.isOp("tile.store") && !c.args().isEmpty() && c.args().get(0).type() instanceof Type.Tile t) {
					List<Expr> valid = t.validShape() != null && !t.validShape().isEmpty() ? t.validShape() : t.shape();
					if (t.shape().size() > 2) {
						staticToFlatten(t, c, f);
					} else if (valid.size() != 2) {
						throw new CodegenException("Failed to compile function '" + f.name()
								+ "': tile.store tile valid_shape must be 2D", c.span() != null ? c.span() : f.span());
					}
				}
				super.call(c);
			}
		}.stmt(f.body());
	}

	/**
	 * Device code lowers to MLIR's scf.for, which only counts upward: a constant step must be positive
	 * (pto_control_flow_codegen.cpp; a step known only at run time is not checked there either).
	 */
	private static void ascendingLoops(Function f) {
		new IrVisitor() {
			@Override
			public void stmt(dev.ptotools.codegen.ir.Stmt s) {
				if (s instanceof dev.ptotools.codegen.ir.Stmt.For loop && loop.step() instanceof Expr.ConstInt step
						&& step.value() <= 0) {
					throw new CodegenException("Failed to compile function '" + f.name() + "': loops in device functions "
							+ "must have a positive step, but this loop steps by " + step.value() + ". Device code lowers to "
							+ "MLIR 'scf.for', which only counts upward. Rewrite the loop in ascending form and invert the "
							+ "index in the body \u2014 replace 'for i in pl.range(64, 0, -1)' with 'for t in pl.range(0, 64)' "
							+ "plus 'i = 64 - t'. Orchestration functions support descending loops directly.",
							loop.span() != null ? loop.span() : f.span());
				}
				super.stmt(s);
			}
		}.stmt(f.body());
	}

	/**
	 * A tile of rank 3 or more is made 2-D by pypto's FlattenTileNdTo2D before its kernel is written
	 * (the leading dims merge into the rows), which needs every dim to be a constant (its analysis.cpp).
	 */
	private static void staticToFlatten(Type.Tile t, Expr.Call c, Function f) {
		for (int i = 0; i < t.shape().size(); i++) {
			if (!(t.shape().get(i) instanceof Expr.ConstInt)) {
				throw new CodegenException("Failed to compile function '" + f.name() + "': FlattenTileNdTo2D: tile op "
						+ "'tile.store' has a dynamic (non-constant) dimension " + i + " in its >2D tile shape, which "
						+ "cannot be flattened to 2D. Hardware tiles map to fixed-size on-chip buffers, so every tile "
						+ "dimension must be a compile-time constant; a pl.dynamic dimension has no static bound and "
						+ "cannot back a tile dimension directly. Fix by either: (1) iterating/tiling the dynamic dimension "
						+ "with pl.range/pl.parallel so each per-iteration tile slice is static, or (2) reshaping the "
						+ "tensor to 2D before the InCore (pl.at) scope so the dynamic extent lands on the pl.parallel "
						+ "loop bound instead of inside the tile shape.", c.span() != null ? c.span() : f.span());
			}
		}
	}
}
