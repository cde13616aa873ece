package dev.ptotools.codegen.passes;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's AutoTileMatmulL0 (src/ir/transforms/auto_tile_matmul_l0_pass.cpp) splits each static matmul
 * into L0-sized K loops and, for an oversized accumulator, M/N sub-tiles; those stay inside the kernel
 * and are not reproduced. One of its rewrites reaches the orchestration: an FP32-to-BF16/FP16
 * {@code tile.cast(mode="rint")} of a matmul result that feeds only matmul operands is folded into the
 * cube's Acc-to-Mat writeback, so the value never crosses to the vector core and the kernel becomes
 * cube-only (one AIC task instead of a mixed one). This pass keeps the program as it is and refuses
 * exactly that case, at the cast, so no orchestration that differs from pypto's is written.
 *
 * <p>Needs: tile ops in kernels, SSA form. Produces: nothing new (the program is unchanged).
 */
public final class AutoTileMatmulL0Pass implements Pass {

	private static final Set<String> MATMULS = Set.of("tile.matmul", "tile.matmul_acc", "tile.matmul_bias");

	@Override
	public String name() {
		return "AutoTileMatmulL0";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.IncoreTileOps, IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		for (Function f : program.functions()) {
			if (f.type() == FunctionType.InCore || f.type() == FunctionType.AIC || f.type() == FunctionType.AIV) {
				check(f);
			}
		}
		return program;
	}

	/** tile.cast's round mode RINT (pypto's modes: None=0, RINT=1, ...; the DSL spells it "rint"). */
	private static boolean rint(Object mode) {
		return mode instanceof Number n ? n.intValue() == 1 : "rint".equals(String.valueOf(mode));
	}

	private static void check(Function f) {
		Set<Var> accumulators = new HashSet<>();
		Map<Var, Expr.Call> rintCasts = new LinkedHashMap<>();
		Map<Var, Boolean> onlyMatmulUses = new HashMap<>();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c) {
					if (MATMULS.stream().anyMatch(c::isOp)) {
						accumulators.add(a.var());
					} else if (c.isOp("tile.cast") && !c.args().isEmpty() && c.args().get(0) instanceof Var src
							&& accumulators.contains(src) && rint(c.kwarg("mode"))
							&& src.type() instanceof Type.Tile from && from.dtype() == DType.FP32
							&& a.var().type() instanceof Type.Tile to && (to.dtype() == DType.BF16 || to.dtype() == DType.FP16)) {
						rintCasts.put(a.var(), c);
					}
				}
				super.assign(a);
			}

			@Override
			protected void call(Expr.Call c) {
				boolean matmul = MATMULS.stream().anyMatch(c::isOp);
				for (int i = 0; i < c.args().size(); i++) {
					if (c.args().get(i) instanceof Var v && rintCasts.containsKey(v)) {
						boolean operand = matmul && i < 2;
						onlyMatmulUses.merge(v, operand, Boolean::logicalAnd);
					}
				}
				super.call(c);
			}
		}.stmt(f.body());
		for (Map.Entry<Var, Expr.Call> e : rintCasts.entrySet()) {
			if (Boolean.TRUE.equals(onlyMatmulUses.get(e.getKey()))) {
				throw CodegenException.unsupported("this rint cast of a matmul result feeds only matmul operands: pypto's "
						+ "AutoTileMatmulL0 folds it into the cube's Acc-to-Mat writeback, which makes the kernel cube-only "
						+ "(one AIC task instead of a mixed one); this compiler does not reproduce that fold yet",
						e.getValue().span());
			}
		}
	}
}
