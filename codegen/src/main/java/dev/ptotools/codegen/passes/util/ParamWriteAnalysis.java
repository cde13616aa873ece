package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's UpgradeWrittenTensorParamDirections (convert_tensor_to_tile_ops_pass.cpp): follows which
 * parameter each tensor value is a view or an alias of (through assignments, slices, writes, loop
 * carries and branch results) and turns an {@code In} tensor parameter that the kernel writes
 * ({@code tile.store}, {@code tensor.write}, {@code tensor.assemble}, remote writes) into {@code Out},
 * or {@code InOut} when the kernel also reads it.
 */
public final class ParamWriteAnalysis {

	private final boolean[] read;
	private final boolean[] write;
	private final Span[] dmaStore;
	private final Span[] scalarStore;

	private ParamWriteAnalysis(int n) {
		read = new boolean[n];
		write = new boolean[n];
		dmaStore = new Span[n];
		scalarStore = new Span[n];
	}

	private record YieldInfo(boolean hasYield, List<Set<Integer>> origins) {
		static final YieldInfo NONE = new YieldInfo(false, List.of());
	}

	/** Directions after upgrading written {@code In} tensor params. */
	public static List<Direction> upgrade(List<Stmt> stmts, List<Var> params, List<Direction> dirs) {
		ParamWriteAnalysis a = new ParamWriteAnalysis(params.size());
		Map<Var, Set<Integer>> origins = new IdentityHashMap<>();
		for (int i = 0; i < params.size(); i++) {
			if (params.get(i).type() instanceof Type.Tensor) {
				Set<Integer> s = new LinkedHashSet<>();
				s.add(i);
				origins.put(params.get(i), s);
			}
		}
		a.sequence(stmts, origins);
		List<Direction> out = new ArrayList<>(dirs);
		for (int i = 0; i < params.size() && i < out.size(); i++) {
			if (a.dmaStore[i] != null && a.scalarStore[i] != null) {
				throw new CodegenException("GM tensor '" + params.get(i).name() + "' mixes MTE3 and scalar stores in one "
						+ "InCore function. tile.store/tensor.assemble uses the MTE3 path while tensor.write uses the scalar "
						+ "D-cache path; PyPTO cannot guarantee ordering or cache-line coherence between them. Rewrite the "
						+ "updates through one UB tile (use tile.write, then one tile.store), or use tensor.write for every GM "
						+ "element written to this tensor.", a.scalarStore[i]);
			}
			if (out.get(i) != Direction.In || !a.write[i]) {
				continue;
			}
			out.set(i, a.read[i] ? Direction.InOut : Direction.Out);
		}
		return out;
	}

	private static Set<Integer> lookup(Expr e, Map<Var, Set<Integer>> map) {
		Set<Integer> s = e instanceof Var v ? map.get(v) : null;
		return s == null ? new LinkedHashSet<>() : new LinkedHashSet<>(s);
	}

	/** The write destination of a call, as pypto's GetWriteTargetExpr. */
	private static Expr writeTarget(Expr.Call c) {
		List<Expr> a = c.args();
		switch (c.name()) {
		case "tensor.write", "tensor.assemble", "pld.tile.put", "pld.tile.get", "pld.system.notify":
			return a.isEmpty() ? null : a.get(0);
		case "tile.store":
			return a.size() >= 3 ? a.get(2) : null;
		case "pld.tile.remote_store":
			return a.size() >= 2 ? a.get(1) : null;
		default:
			return null;
		}
	}

	private static Set<Integer> aliasOrigins(Expr e, Map<Var, Set<Integer>> map) {
		if (e == null) {
			return new LinkedHashSet<>();
		}
		if (e instanceof Var) {
			return lookup(e, map);
		}
		if (e instanceof Expr.TupleGetItem g) {
			if (g.tuple() instanceof Expr.MakeTuple t && g.index() >= 0 && g.index() < t.elements().size()) {
				return aliasOrigins(t.elements().get(g.index()), map);
			}
			return new LinkedHashSet<>();
		}
		if (!(e instanceof Expr.Call c) || !c.isOp()) {
			return new LinkedHashSet<>();
		}
		Expr target = writeTarget(c);
		if (target != null) {
			return aliasOrigins(target, map);
		}
		if ((c.isOp("tensor.slice") || c.isOp("tensor.view")) && !c.args().isEmpty()) {
			return aliasOrigins(c.args().get(0), map);
		}
		return new LinkedHashSet<>();
	}

	private static Set<Integer> referenced(Expr e, Map<Var, Set<Integer>> map) {
		if (e == null) {
			return new LinkedHashSet<>();
		}
		if (e instanceof Var) {
			return lookup(e, map);
		}
		Set<Integer> out = new LinkedHashSet<>();
		if (e instanceof Expr.MakeTuple t) {
			t.elements().forEach(x -> out.addAll(referenced(x, map)));
			return out;
		}
		if (e instanceof Expr.TupleGetItem g) {
			if (g.tuple() instanceof Expr.MakeTuple t && g.index() >= 0 && g.index() < t.elements().size()) {
				return referenced(t.elements().get(g.index()), map);
			}
			return referenced(g.tuple(), map);
		}
		if (e instanceof Expr.Call c) {
			c.args().forEach(x -> out.addAll(referenced(x, map)));
		}
		return out;
	}

	private void mark(Set<Integer> origins, boolean[] flags) {
		for (int i : origins) {
			if (i < flags.length) {
				flags[i] = true;
			}
		}
	}

	private void firstStore(Set<Integer> origins, Span[] spans, Span span) {
		for (int i : origins) {
			if (i < spans.length && spans[i] == null) {
				spans[i] = span;
			}
		}
	}

	private void readArgs(Expr.Call c, int from, int to, Map<Var, Set<Integer>> map) {
		for (int i = from; i < to && i < c.args().size(); i++) {
			mark(referenced(c.args().get(i), map), read);
		}
	}

	private void callAccess(Expr.Call c, Map<Var, Set<Integer>> map) {
		if (!c.isOp()) {
			readArgs(c, 0, c.args().size(), map);
			return;
		}
		int n = c.args().size();
		switch (c.name()) {
		case "tile.load", "tensor.read":
			if (n > 0) {
				mark(aliasOrigins(c.args().get(0), map), read);
			}
			readArgs(c, 1, n, map);
			return;
		case "tile.store": {
			readArgs(c, 0, 1, map);
			readArgs(c, 1, n - 1, map);
			Expr t = writeTarget(c);
			if (t != null) {
				Set<Integer> o = aliasOrigins(t, map);
				mark(o, write);
				firstStore(o, dmaStore, c.span());
			}
			return;
		}
		case "tensor.write": {
			readArgs(c, 1, n, map);
			Set<Integer> o = aliasOrigins(writeTarget(c), map);
			mark(o, write);
			firstStore(o, scalarStore, c.span());
			return;
		}
		case "tensor.assemble": {
			readArgs(c, 1, n, map);
			if (n > 0) {
				Set<Integer> o = aliasOrigins(c.args().get(0), map);
				mark(o, write);
				firstStore(o, dmaStore, c.span());
			}
			return;
		}
		case "pld.tile.remote_store", "pld.tile.put", "pld.tile.get", "pld.system.notify": {
			Expr t = writeTarget(c);
			for (Expr a : c.args()) {
				if (a != t) {
					mark(referenced(a, map), read);
				}
			}
			Set<Integer> o = aliasOrigins(t, map);
			if (c.isOp("pld.system.notify") && atomicAdd(c.kwargs().get("op"))) {
				// an atomic add reads the slot it updates; a set only writes it
				mark(o, read);
			}
			mark(o, write);
			return;
		}
		case "pld.tensor.allreduce", "pld.tensor.reduce_scatter", "pld.tensor.broadcast":
			// target and signal are read and written across the collective's phases
			readWrite(c, 0, 2, map);
			return;
		case "pld.tensor.barrier":
			readWrite(c, 0, 1, map);
			return;
		case "pld.tensor.allgather":
			readArgs(c, 0, 1, map);
			readWrite(c, 1, n, map);
			return;
		case "pld.tensor.all_to_all", "pld.tensor.all_to_all_v":
			for (int i = 0; i < n; i++) {
				Set<Integer> o = referenced(c.args().get(i), map);
				mark(o, read);
				if (i == 1 || i == 2 || (c.isOp("pld.tensor.all_to_all_v") && i == 4)) {
					mark(o, write);
				}
			}
			return;
		case "system.syncall":
			if ("soft".equals(String.valueOf(c.kwargs().get("mode"))) && n > 0) {
				// the soft form's cores write and poll their arrival counters in the workspace
				Set<Integer> o = aliasOrigins(c.args().get(0), map);
				mark(o, read);
				mark(o, write);
				readArgs(c, 1, n, map);
				return;
			}
			readArgs(c, 0, n, map);
			return;
		case "tensor.slice", "tensor.create", "tensor.full":
			readArgs(c, 1, n, map);
			return;
		default:
			readArgs(c, 0, n, map);
		}
	}

	private void readWrite(Expr.Call c, int from, int to, Map<Var, Set<Integer>> map) {
		for (int i = from; i < to && i < c.args().size(); i++) {
			Set<Integer> o = referenced(c.args().get(i), map);
			mark(o, read);
			mark(o, write);
		}
	}

	/** pypto's NotifyOp: AtomicAdd (0, the default) or Set (1). */
	private static boolean atomicAdd(Object op) {
		if (op == null) {
			return true;
		}
		if (op instanceof Number n) {
			return n.intValue() == 0;
		}
		if (op instanceof dev.ptotools.analyzer.facts.Values.EnumValue e) {
			return e.member().equals("AtomicAdd");
		}
		return !String.valueOf(op).endsWith("Set");
	}

	private YieldInfo sequence(List<Stmt> stmts, Map<Var, Set<Integer>> map) {
		YieldInfo last = YieldInfo.NONE;
		for (Stmt s : stmts) {
			YieldInfo y = stmt(s, map);
			if (y.hasYield()) {
				last = y;
			}
		}
		return last;
	}

	private static void bind(Var v, Set<Integer> origins, Map<Var, Set<Integer>> map) {
		if (v.type() instanceof Type.Tensor && !origins.isEmpty()) {
			map.put(v, origins);
		} else {
			map.remove(v);
		}
	}

	private YieldInfo stmt(Stmt s, Map<Var, Set<Integer>> map) {
		if (s instanceof Stmt.Assign a) {
			if (a.value() instanceof Expr.Call c) {
				callAccess(c, map);
			}
			if (a.var().type() instanceof Type.Tensor) {
				bind(a.var(), aliasOrigins(a.value(), map), map);
			}
			return YieldInfo.NONE;
		}
		if (s instanceof Stmt.Eval e) {
			if (e.expr() instanceof Expr.Call c) {
				callAccess(c, map);
			}
			return YieldInfo.NONE;
		}
		if (s instanceof Stmt.Seq q) {
			return sequence(q.stmts(), map);
		}
		if (s instanceof Stmt.Scope sc) {
			return stmt(sc.body(), map);
		}
		if (s instanceof Stmt.If i) {
			if (i.condition() instanceof Expr.Call c) {
				callAccess(c, map);
			}
			YieldInfo t = stmt(i.then(), new IdentityHashMap<>(map));
			YieldInfo e = i.orelse() == null ? YieldInfo.NONE : stmt(i.orelse(), new IdentityHashMap<>(map));
			YieldInfo merged = merge(t, e);
			for (int k = 0; k < i.returnVars().size(); k++) {
				Set<Integer> o = merged.hasYield() && k < merged.origins().size() ? merged.origins().get(k)
						: new LinkedHashSet<>();
				bind(i.returnVars().get(k), o, map);
			}
			return merged;
		}
		if (s instanceof Stmt.For f) {
			for (Expr b : List.of(f.start(), f.stop(), f.step())) {
				if (b instanceof Expr.Call c) {
					callAccess(c, map);
				}
			}
			loopReturns(f.returnVars(), loop(f.body(), f.iterArgs(), map), map);
			return YieldInfo.NONE;
		}
		if (s instanceof Stmt.While w) {
			if (w.condition() instanceof Expr.Call c) {
				callAccess(c, map);
			}
			loopReturns(w.returnVars(), loop(w.body(), w.iterArgs(), map), map);
			return YieldInfo.NONE;
		}
		if (s instanceof Stmt.Yield y) {
			List<Set<Integer>> o = new ArrayList<>();
			y.values().forEach(v -> o.add(aliasOrigins(v, map)));
			return new YieldInfo(true, o);
		}
		return YieldInfo.NONE;
	}

	private static void loopReturns(List<Var> rvs, List<Set<Integer>> carried, Map<Var, Set<Integer>> map) {
		for (int i = 0; i < rvs.size(); i++) {
			bind(rvs.get(i), i < carried.size() ? carried.get(i) : new LinkedHashSet<>(), map);
		}
	}

	private static YieldInfo merge(YieldInfo a, YieldInfo b) {
		if (!a.hasYield()) {
			return b;
		}
		if (!b.hasYield()) {
			return a;
		}
		List<Set<Integer>> out = new ArrayList<>();
		for (int i = 0; i < Math.max(a.origins().size(), b.origins().size()); i++) {
			Set<Integer> s = new LinkedHashSet<>();
			if (i < a.origins().size()) {
				s.addAll(a.origins().get(i));
			}
			if (i < b.origins().size()) {
				s.addAll(b.origins().get(i));
			}
			out.add(s);
		}
		return new YieldInfo(true, out);
	}

	private List<Set<Integer>> loop(Stmt body, List<IterArg> iters, Map<Var, Set<Integer>> map) {
		List<Set<Integer>> carried = new ArrayList<>();
		for (IterArg ia : iters) {
			carried.add(aliasOrigins(ia.init(), map));
		}
		Map<Var, Set<Integer>> bodyMap = new IdentityHashMap<>(map);
		bindLoop(iters, carried, bodyMap);
		YieldInfo y = stmt(body, bodyMap);
		boolean widened = false;
		if (y.hasYield()) {
			for (int i = 0; i < carried.size() && i < y.origins().size(); i++) {
				widened |= carried.get(i).addAll(y.origins().get(i));
			}
		}
		if (widened) {
			bodyMap = new IdentityHashMap<>(map);
			bindLoop(iters, carried, bodyMap);
			y = stmt(body, bodyMap);
			if (y.hasYield()) {
				for (int i = 0; i < carried.size() && i < y.origins().size(); i++) {
					carried.get(i).addAll(y.origins().get(i));
				}
			}
		}
		return carried;
	}

	private static void bindLoop(List<IterArg> iters, List<Set<Integer>> origins, Map<Var, Set<Integer>> map) {
		for (int i = 0; i < iters.size(); i++) {
			if (i < origins.size() && !origins.get(i).isEmpty()) {
				map.put(iters.get(i), new LinkedHashSet<>(origins.get(i)));
			} else {
				map.remove(iters.get(i));
			}
		}
	}
}
