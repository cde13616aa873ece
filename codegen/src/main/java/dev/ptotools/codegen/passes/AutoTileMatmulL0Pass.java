package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DeepClone;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's AutoTileMatmulL0 (src/ir/transforms/auto_tile_matmul_l0_pass.cpp) splits each static matmul
 * into L0-sized K loops and, for an oversized accumulator, M/N sub-tiles; those stay inside the kernel
 * and are not reproduced. One of its rewrites reaches the orchestration: an FP32-to-BF16/FP16
 * {@code tile.cast(mode="rint")} of a matmul result that feeds only matmul operands is folded into the
 * cube's Acc-to-Mat writeback ({@code <acc>_mat = tile.create(..., target_memory=Mat)},
 * {@code <acc>_mat_t0 = tile.assemble(<acc>_mat, <acc>, [0, 0])}), so the value never crosses to the
 * vector core and the kernel becomes cube-only (one AIC task instead of a mixed one). This pass makes
 * that fold, in pypto's full-window form (pypto assembles an oversized accumulator from M/N sub-tiles
 * instead; the kernel's core split, which is what the orchestration sees, is the same).
 *
 * <p>Needs: tile ops in kernels, SSA form. Produces: the folded casts.
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
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			Function g = f.type() == FunctionType.InCore || f.type() == FunctionType.AIC || f.type() == FunctionType.AIV
					? fold(f) : f;
			changed |= g != f;
			out.add(g);
		}
		return changed ? program.withFunctions(out) : program;
	}

	/** tile.cast's round mode RINT (pypto's modes: None=0, RINT=1, ...; the DSL spells it "rint"). */
	private static boolean rint(Object mode) {
		return mode instanceof Number n ? n.intValue() == 1 : "rint".equals(String.valueOf(mode));
	}

	private static Function fold(Function f) {
		Set<Var> accumulators = new HashSet<>();
		Map<Var, Stmt.Assign> rintCasts = new LinkedHashMap<>();
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
						rintCasts.put(a.var(), a);
					}
				}
				super.assign(a);
				if (rintCasts.get(a.var()) == a) {
					onlyMatmulUses.remove(a.var()); // the walk visits the definition like a use
				}
			}

			@Override
			protected void call(Expr.Call c) {
				boolean matmul = MATMULS.stream().anyMatch(c::isOp);
				for (int i = 0; i < c.args().size(); i++) {
					if (c.args().get(i) instanceof Var v && rintCasts.containsKey(v)) {
						onlyMatmulUses.merge(v, matmul && i < 2, Boolean::logicalAnd);
					}
				}
				super.call(c);
			}

			@Override
			protected void varUse(Var v) {
				if (rintCasts.containsKey(v)) {
					onlyMatmulUses.putIfAbsent(v, false); // a use outside a call (a yield, a return) keeps the cast
				}
				super.varUse(v);
			}
		}.stmt(f.body());
		Map<Stmt.Assign, List<Stmt>> replacements = new IdentityHashMap<>();
		Map<Var, Expr> renames = new HashMap<>();
		for (Map.Entry<Var, Stmt.Assign> e : rintCasts.entrySet()) {
			if (!Boolean.TRUE.equals(onlyMatmulUses.get(e.getKey()))) {
				continue;
			}
			Stmt.Assign cast = e.getValue();
			Var acc = (Var) ((Expr.Call) cast.value()).args().get(0);
			Type.Tile accType = (Type.Tile) acc.type();
			DType to = ((Type.Tile) cast.var().type()).dtype();
			Type.Tile matType = new Type.Tile(accType.shape(), to, MemorySpace.Mat, null);
			Map<String, Object> kw = new LinkedHashMap<>();
			kw.put("dtype", to);
			kw.put("target_memory", MemorySpace.Mat);
			Var scratch = new Var(acc.name() + "_mat", matType, cast.span());
			Var folded = new Var(acc.name() + "_mat_t0", matType, cast.span());
			List<Expr> zeros = new ArrayList<>();
			accType.shape().forEach(d -> zeros.add(Expr.index(0)));
			replacements.put(cast, List.of(
					new Stmt.Assign(scratch, Expr.Call.op("tile.create", List.of(new Expr.MakeTuple(accType.shape(), cast.span())),
							kw, matType, cast.span()), cast.span()),
					new Stmt.Assign(folded, Expr.Call.op("tile.assemble", List.of(scratch, acc, new Expr.MakeTuple(zeros,
							cast.span())), Map.of(), matType, cast.span()), cast.span())));
			renames.put(e.getKey(), folded);
		}
		if (replacements.isEmpty()) {
			return f;
		}
		Stmt body = new IrMutator() {
			@Override
			public Stmt seq(Stmt.Seq q) {
				List<Stmt> out = new ArrayList<>();
				for (Stmt s : q.stmts()) {
					List<Stmt> r = s instanceof Stmt.Assign a ? replacements.get(a) : null;
					if (r != null) {
						out.addAll(r);
					} else {
						out.add(stmt(s));
					}
				}
				return new Stmt.Seq(out, q.span());
			}
		}.stmt(f.body());
		return f.withBody(DeepClone.substitute(body, renames));
	}
}
