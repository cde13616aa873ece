package dev.ptotools.codegen.passes.util;

import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's core affinity analysis (src/ir/transforms/utils/core_affinity.cpp and the statement roll-up
 * of expand_mixed_kernel_pass.cpp): which core a call runs on — cube (AIC), vector (AIV), either
 * (shared) or both (mixed, a cube/vector boundary) — from the op registry and tile memory spaces.
 */
public enum CoreAffinity {
	SHARED, CUBE, VECTOR, MIXED;

	/** pypto's CombineAffinity: equal stays, shared yields to the other, anything else is mixed. */
	public CoreAffinity combine(CoreAffinity o) {
		if (this == o) {
			return this;
		}
		if (this == SHARED) {
			return o;
		}
		if (o == SHARED) {
			return this;
		}
		return MIXED;
	}

	/** Cube-side memory: everything but DDR and Vec. */
	public static boolean cubeMemory(MemorySpace m) {
		return m != MemorySpace.DDR && m != MemorySpace.Vec;
	}

	/** The memory of the first Var argument with a tile type (may be null when it has none yet). */
	static MemorySpace firstTileArgMemory(Expr.Call c) {
		for (Expr a : c.args()) {
			if (a instanceof Var v && v.type() instanceof Type.Tile t) {
				return t.memory();
			}
		}
		return null;
	}

	private static final Set<String> SYNC = Set.of("system.syncall", "system.sync_set", "system.sync_wait");

	/** Cube→vector (+1), vector→cube (-1) or no crossing (0) for a {@code tile.move}. */
	public static int moveDirection(Expr.Call c) {
		if (!c.isOp("tile.move")) {
			return 0;
		}
		MemorySpace src = firstTileArgMemory(c);
		Object tgt = c.kwarg("target_memory");
		if (src == null || !(tgt instanceof MemorySpace t)) {
			return 0;
		}
		boolean sc = cubeMemory(src);
		boolean tc = cubeMemory(t);
		return sc && !tc ? 1 : !sc && tc ? -1 : 0;
	}

	/** pypto's ClassifyIntrinsicCallAffinity. */
	static CoreAffinity intrinsic(Expr.Call c) {
		if (!c.isOp()) {
			return SHARED;
		}
		OpFacts.Entry e = OpFacts.get(c.name());
		if (e == null) {
			return SHARED;
		}
		if (e.affinity() != null) {
			return CoreAffinity.valueOf(e.affinity());
		}
		if (c.isOp("tile.move")) {
			if (moveDirection(c) != 0) {
				return MIXED;
			}
			MemorySpace m = firstTileArgMemory(c);
			return m != null && cubeMemory(m) ? CUBE : VECTOR;
		}
		if (c.isOp("system.syncall")) {
			String t = String.valueOf(c.kwarg("core_type"));
			return t.equals("aic_only") ? CUBE : t.equals("aiv_only") ? VECTOR : SHARED;
		}
		if (c.isOp("system.sync_set") || c.isOp("system.sync_wait")) {
			String t = String.valueOf(c.kwarg("core_type"));
			return t.equals("aic") ? CUBE : t.equals("aiv") ? VECTOR : SHARED;
		}
		if (List.of("tile.aiv_shard", "tile.aic_gather", "tensor.aiv_shard", "tensor.aic_gather").contains(c.name())) {
			return MIXED;
		}
		MemorySpace out = switch (e.output()) {
		case FIXED -> e.fixed();
		case KWARG -> c.kwarg(e.kwarg()) instanceof MemorySpace m ? m : e.kwargDefault();
		default -> null;
		};
		if (out != null) {
			return cubeMemory(out) ? CUBE : VECTOR;
		}
		MemorySpace in = firstTileArgMemory(c);
		if (in != null) {
			return cubeMemory(in) ? CUBE : VECTOR;
		}
		return SHARED;
	}

	/** pypto's ClassifyCallAffinity: a call placed in an AIV split region runs on the vector core. */
	public static CoreAffinity call(Expr.Call c) {
		CoreAffinity a = intrinsic(c);
		if (!"aiv".equals(c.attr("core_placement"))) {
			return a;
		}
		OpFacts.Entry e = c.isOp() ? OpFacts.get(c.name()) : null;
		boolean statedLane = e != null && (e.affinity() != null || SYNC.contains(c.name()));
		if (statedLane || a == MIXED || a == CUBE) {
			return a;
		}
		return VECTOR;
	}

	/** The affinity of a statement list (pypto's AnalyzeStmtsAffinity). */
	public static CoreAffinity stmts(List<Stmt> stmts, Set<Var> tpopDefs) {
		CoreAffinity r = SHARED;
		for (Stmt s : stmts) {
			r = r.combine(stmt(s, tpopDefs));
		}
		return r;
	}

	/** One statement's affinity; compound statements roll up their bodies, scopes count as shared. */
	public static CoreAffinity stmt(Stmt s, Set<Var> tpopDefs) {
		if (s instanceof Stmt.Assign a) {
			if (!(a.value() instanceof Expr.Call c)) {
				return SHARED;
			}
			CoreAffinity r = call(c);
			if (r == MIXED && !c.args().isEmpty() && c.args().get(0) instanceof Var src && tpopDefs.contains(src)
					&& c.kwarg("target_memory") instanceof MemorySpace t) {
				r = cubeMemory(t) ? CUBE : VECTOR;
			}
			return r;
		}
		if (s instanceof Stmt.Eval e) {
			return e.expr() instanceof Expr.Call c ? call(c) : SHARED;
		}
		if (s instanceof Stmt.For f) {
			return stmts(flat(f.body()), tpopDefs);
		}
		if (s instanceof Stmt.While w) {
			return stmts(flat(w.body()), tpopDefs);
		}
		if (s instanceof Stmt.If i) {
			CoreAffinity r = stmts(flat(i.then()), tpopDefs);
			return i.orelse() == null ? r : r.combine(stmts(flat(i.orelse()), tpopDefs));
		}
		if (s instanceof Stmt.Seq q) {
			return stmts(q.stmts(), tpopDefs);
		}
		return SHARED;
	}

	static List<Stmt> flat(Stmt s) {
		return ScopeOutliner.flatten(Stmt.flatten(s));
	}

	/** Vars bound to a {@code tile.tpop_*} result, anywhere in the statements. */
	public static Set<Var> tpopDefs(List<Stmt> stmts) {
		Set<Var> out = VarCollectors.identitySet();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && (c.isOp("tile.tpop_from_aic") || c.isOp("tile.tpop_from_aiv"))) {
					out.add(a.var());
				}
				super.assign(a);
			}
		}.stmt(new Stmt.Seq(stmts));
		return out;
	}
}
