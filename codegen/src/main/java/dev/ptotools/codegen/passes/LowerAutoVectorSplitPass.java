package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.passes.util.CoreAffinity;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.ScopeOutliner;

/**
 * pypto's LowerAutoVectorSplit (src/ir/transforms/lower_auto_vector_split_pass.cpp), as far as it
 * reaches signatures and attributes: an InCore kernel with explicit {@code pl.split_aiv} regions has the
 * regions dissolved into its body, every call inside them placed on the vector core
 * ({@code core_placement="aiv"}, read by ExpandMixedKernel) and gets {@code split_aiv} and
 * {@code split_aiv_region_validated}; a mixed cube/vector kernel with a function-level
 * {@code split} (UpDown/LeftRight) gets {@code split} then {@code split_aiv} (re-stamped last).
 *
 * <p>Not ported (kernel-internal): halving the vector sub-region's tiles per lane, the
 * {@code tile.aiv_shard}/{@code tile.aic_gather} boundary ops and the injected
 * {@code tile.get_subblock_idx()}.
 */
public final class LowerAutoVectorSplitPass implements Pass {

	@Override
	public String name() {
		return "LowerAutoVectorSplit";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch,
				IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch,
				IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
	}

	private static boolean hasSplitAivRegion(Stmt body) {
		boolean[] found = { false };
		new PyptoVisitor() {
			@Override
			protected void scope(Stmt.Scope s) {
				found[0] |= s instanceof Stmt.SplitAivScope;
				super.scope(s);
			}
		}.stmt(body);
		return found[0];
	}

	/** pypto's RollupAffinity: like ExpandMixedKernel's, but scope bodies count. */
	private static CoreAffinity rollup(List<Stmt> stmts) {
		CoreAffinity r = CoreAffinity.SHARED;
		for (Stmt s : stmts) {
			CoreAffinity a;
			if (s instanceof Stmt.Scope sc) {
				a = rollup(ScopeOutliner.flatten(Stmt.flatten(sc.body())));
			} else if (s instanceof Stmt.For f) {
				a = rollup(ScopeOutliner.flatten(Stmt.flatten(f.body())));
			} else if (s instanceof Stmt.While w) {
				a = rollup(ScopeOutliner.flatten(Stmt.flatten(w.body())));
			} else if (s instanceof Stmt.If i) {
				a = rollup(ScopeOutliner.flatten(Stmt.flatten(i.then())));
				if (i.orelse() != null) {
					a = a.combine(rollup(ScopeOutliner.flatten(Stmt.flatten(i.orelse()))));
				}
			} else {
				a = CoreAffinity.stmt(s, java.util.Set.of());
			}
			r = r.combine(a);
		}
		return r;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.sortedByName()) {
			boolean incore = f.type() == FunctionType.InCore;
			Object split = f.attr("split");
			if (incore && hasSplitAivRegion(f.body())) {
				Map<String, Object> attrs = new LinkedHashMap<>(f.attrs());
				attrs.remove("split_aiv");
				attrs.remove("split_aiv_region_validated");
				attrs.put("split_aiv", true);
				attrs.put("split_aiv_region_validated", true);
				out.add(new Function(f.name(), f.type(), f.params(), f.directions(), f.returnTypes(), dissolveRegions(f.body()),
						f.level(), f.role(), attrs, f.span()));
				changed = true;
			} else if (incore && split != null && !"None".equals(split) && !Boolean.TRUE.equals(f.attr("split_aiv"))
					&& rollup(ScopeOutliner.flatten(Stmt.flatten(f.body()))) == CoreAffinity.MIXED) {
				Map<String, Object> attrs = new LinkedHashMap<>(f.attrs());
				attrs.remove("split");
				attrs.remove("split_aiv");
				attrs.remove("dual_aiv_dispatch");
				attrs.put("split", split);
				attrs.put("split_aiv", true);
				out.add(new Function(f.name(), f.type(), f.params(), f.directions(), f.returnTypes(), f.body(), f.level(),
						f.role(), attrs, f.span()));
				changed = true;
			} else {
				out.add(f);
			}
		}
		return changed ? program.withFunctions(out) : program;
	}

	/** Replaces each split_aiv region by its body, stamping its calls with core_placement="aiv". */
	private static Stmt dissolveRegions(Stmt body) {
		return new IrMutator() {
			private int depth;

			@Override
			public Stmt scope(Stmt.Scope s) {
				if (s instanceof Stmt.SplitAivScope r) {
					depth++;
					Stmt b = stmt(r.body());
					depth--;
					return b;
				}
				return super.scope(s);
			}

			@Override
			public Expr call(Expr.Call c) {
				Expr v = super.call(c);
				return depth > 0 && v instanceof Expr.Call n ? n.withAttr("core_placement", "aiv") : v;
			}
		}.stmt(body);
	}
}
