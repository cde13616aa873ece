package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * The two halves of a mixed kernel (a simplified ExpandMixedFunction body split): the cube half keeps the
 * cube and shared statements, the vector half the vector and shared ones; a cube→vector boundary move
 * becomes {@code tile.tpush_to_aiv} on the cube side and {@code tile.tpop_from_aic} on the vector side
 * (symmetrically for vector→cube), and each half starts by initializing its pipe
 * ({@code system.aic_initialize_pipe} / {@code system.aiv_initialize_pipe}). Compound statements that
 * mix both sides are kept on both, pruned.
 *
 * <p>pypto additionally reserves and imports slot buffers, frees popped tiles, repairs loop state and
 * removes dead code; those are kernel-internal and not reproduced. The cube half has no return.
 */
public final class MixedKernelSplit {

	private final boolean cube;
	private final Set<Var> tpopDefs;

	private MixedKernelSplit(boolean cube, Set<Var> tpopDefs) {
		this.cube = cube;
		this.tpopDefs = tpopDefs;
	}

	/** The body of the cube (AIC) or vector (AIV) half. */
	public static Stmt half(Stmt body, boolean cube, Object slotNumOverride, Span span) {
		List<Stmt> stmts = CoreAffinity.flat(body);
		MixedKernelSplit s = new MixedKernelSplit(cube, CoreAffinity.tpopDefs(stmts));
		int mask = s.directions(stmts);
		List<Stmt> out = new ArrayList<>();
		Long slotSize = slotSizeBytes(stmts);
		if (slotSize != null) {
			// pypto's BuildAutomaticPipeSetup: no setup at all when a crossing tile's size is not static
			Map<String, Object> kw = new LinkedHashMap<>();
			kw.put("dir_mask", (long) mask);
			kw.put("slot_size", slotSize);
			kw.put("slot_num", slotNumOverride instanceof Number n ? n.longValue() : DEFAULT_SLOT_NUM);
			out.add(new Stmt.Eval(Expr.Call.op(cube ? "system.aic_initialize_pipe" : "system.aiv_initialize_pipe", List.of(),
					kw, Type.UNKNOWN, span), span));
		}
		out.addAll(s.prune(stmts));
		return new Stmt.Seq(out, span);
	}

	/** pypto's kDefaultAutoPipeSlotNum: the ring depth without pl.split(..., slot_num=N). */
	private static final long DEFAULT_SLOT_NUM = 2;

	/**
	 * pypto's common slot size (cross_core_pipe.cpp): the byte size of the tiles that cross between the
	 * cores, the largest when they differ; null when one of them has a non-constant shape.
	 */
	private static Long slotSizeBytes(List<Stmt> stmts) {
		long[] max = { 0 };
		boolean[] unknown = { false };
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if (CoreAffinity.moveDirection(c) != 0 && !c.args().isEmpty()) {
					Long bytes = tileBytes(c.args().get(0).type());
					if (bytes == null) {
						unknown[0] = true;
					} else {
						max[0] = Math.max(max[0], bytes);
					}
				}
				super.call(c);
			}
		}.stmt(new Stmt.Seq(stmts));
		return unknown[0] || max[0] == 0 ? null : max[0];
	}

	private static Long tileBytes(Type t) {
		if (!(t instanceof Type.Tile tile)) {
			return null;
		}
		long elements = 1;
		for (Expr d : tile.shape()) {
			if (!(d instanceof Expr.ConstInt c) || c.value() < 0) {
				return null;
			}
			elements *= c.value();
		}
		return (elements * tile.dtype().bits() + 7) / 8;
	}

	/** 1 when data flows cube→vector, 2 vector→cube, 3 both. */
	private int directions(List<Stmt> stmts) {
		int[] mask = { 0 };
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				int d = CoreAffinity.moveDirection(c);
				mask[0] |= d > 0 ? 1 : d < 0 ? 2 : 0;
				super.call(c);
			}
		}.stmt(new Stmt.Seq(stmts));
		return mask[0] == 0 ? 1 : mask[0];
	}

	private boolean keep(CoreAffinity a) {
		return a == CoreAffinity.SHARED || a == CoreAffinity.MIXED || a == (cube ? CoreAffinity.CUBE : CoreAffinity.VECTOR);
	}

	private List<Stmt> prune(List<Stmt> stmts) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : stmts) {
			Stmt n = prune(s);
			if (n != null) {
				out.add(n);
			}
		}
		return out;
	}

	private Stmt prune(Stmt s) {
		if (s instanceof Stmt.Return r) {
			return cube ? null : r;
		}
		CoreAffinity a = CoreAffinity.stmt(s, tpopDefs);
		if (!keep(a)) {
			return null;
		}
		if (s instanceof Stmt.Assign as && as.value() instanceof Expr.Call c && a == CoreAffinity.MIXED) {
			return boundary(as.var(), c, s.span());
		}
		if (s instanceof Stmt.Eval e && e.expr() instanceof Expr.Call c && a == CoreAffinity.MIXED) {
			return new Stmt.Eval(c, s.span());
		}
		if (s instanceof Stmt.For f) {
			return f.withBody(new Stmt.Seq(prune(CoreAffinity.flat(f.body())), f.span()));
		}
		if (s instanceof Stmt.While w) {
			return new Stmt.While(w.condition(), w.iterArgs(), new Stmt.Seq(prune(CoreAffinity.flat(w.body())), w.span()),
					w.returnVars(), w.span());
		}
		if (s instanceof Stmt.If i) {
			return new Stmt.If(i.condition(), new Stmt.Seq(prune(CoreAffinity.flat(i.then())), i.span()),
					i.orelse() == null ? null : new Stmt.Seq(prune(CoreAffinity.flat(i.orelse())), i.span()), i.returnVars(),
					i.span());
		}
		return s;
	}

	/** A boundary move: the producing side pushes the tile, the consuming side pops it into the Var. */
	private Stmt boundary(Var dest, Expr.Call move, Span span) {
		int d = CoreAffinity.moveDirection(move);
		boolean producer = cube ? d > 0 : d < 0;
		if (producer) {
			String push = cube ? "tile.tpush_to_aiv" : "tile.tpush_to_aic";
			return new Stmt.Eval(Expr.Call.op(push, List.of(move.args().get(0)), Map.of(), Type.UNKNOWN, span), span);
		}
		String pop = cube ? "tile.tpop_from_aiv" : "tile.tpop_from_aic";
		Type t = dest.type();
		if (t instanceof Type.Tile tt && move.kwarg("target_memory") instanceof MemorySpace m) {
			t = tt.withMemory(m);
		}
		return new Stmt.Assign(dest, Expr.Call.op(pop, List.of(), Map.of(), t, span), span);
	}
}
