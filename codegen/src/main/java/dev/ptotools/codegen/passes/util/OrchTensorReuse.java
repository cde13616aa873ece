package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * The analysis of pypto's IterArgReuseOptimizer (OptimizeOrchTensors Pattern 1): for each InCore
 * kernel, the (Out param index, In param index) pairs whose buffers can be merged.
 */
public final class OrchTensorReuse {

	private OrchTensorReuse() {
	}

	/** An Out param written by the kernel and the return position that hands it back. */
	record OutMapping(int paramIndex, int returnIndex, Var param) {
	}

	/**
	 * pypto's BuildOutParamReturnMappings: return positions whose value is a top-level
	 * {@code v = tile.store(.., .., P)} or a loop result started from P, for an Out param P.
	 */
	static List<OutMapping> outMappings(Function f) {
		Map<Var, Integer> outIdx = new IdentityHashMap<>();
		for (int i = 0; i < f.params().size(); i++) {
			if (f.directions().get(i) == Direction.Out) {
				outIdx.put(f.params().get(i), i);
			}
		}
		if (outIdx.isEmpty()) {
			return List.of();
		}
		List<Stmt> stmts = ScopeOutliner.flatten(Stmt.flatten(f.body()));
		Map<Var, Stmt.Assign> defs = new IdentityHashMap<>();
		Map<Var, Expr> loopInit = new IdentityHashMap<>();
		Stmt.Return ret = null;
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a) {
				defs.put(a.var(), a);
			} else if (s instanceof Stmt.For l) {
				carries(l.returnVars(), l.iterArgs(), loopInit);
			} else if (s instanceof Stmt.While w) {
				carries(w.returnVars(), w.iterArgs(), loopInit);
			} else if (s instanceof Stmt.Return r && ret == null) {
				ret = r;
			}
		}
		if (ret == null) {
			return List.of();
		}
		List<OutMapping> out = new ArrayList<>();
		for (int r = 0; r < ret.values().size(); r++) {
			if (!(VarCollectors.plainVar(ret.values().get(r)) instanceof Var rv)) {
				continue;
			}
			Stmt.Assign def = defs.get(rv);
			if (def == null) {
				Expr init = loopInit.get(rv);
				if (init instanceof Var iv && outIdx.containsKey(iv)) {
					int p = outIdx.get(iv);
					out.add(new OutMapping(p, r, f.params().get(p)));
				}
				continue;
			}
			if (def.value() instanceof Expr.Call c && c.isOp("tile.store") && c.args().size() >= 3
					&& VarCollectors.plainVar(c.args().get(2)) instanceof Var t && outIdx.containsKey(t)) {
				int p = outIdx.get(t);
				out.add(new OutMapping(p, r, f.params().get(p)));
			}
		}
		return out;
	}

	private static void carries(List<Var> rvs, List<IterArg> iters, Map<Var, Expr> into) {
		for (int i = 0; i < rvs.size() && i < iters.size(); i++) {
			into.put(rvs.get(i), iters.get(i).init());
		}
	}

	/** (Out param index, In param index) merges per kernel; the first call site that yields some wins. */
	public static Map<String, List<int[]>> analyze(Program program, Set<String> incore) {
		Map<String, List<OutMapping>> mappings = new HashMap<>();
		Map<String, List<int[]>> pairings = new HashMap<>();
		for (Function f : program.sortedByName()) {
			if (incore.contains(f.name())) {
				mappings.put(f.name(), outMappings(f));
				pairings.put(f.name(), inOutPairings(f));
			}
		}
		Map<String, List<int[]>> results = new LinkedHashMap<>();
		for (Function f : program.sortedByName()) {
			if (!incore.contains(f.name())) {
				loops(f.body(), program, incore, mappings, results);
			}
		}
		Map<String, List<Object[]>> standalone = new LinkedHashMap<>();
		for (Function f : program.sortedByName()) {
			if (!incore.contains(f.name())) {
				standaloneSites(f.body(), incore, standalone);
			}
		}
		for (Map.Entry<String, List<Object[]>> e : standalone.entrySet()) {
			String fname = e.getKey();
			if (results.containsKey(fname) || pairings.getOrDefault(fname, List.of()).isEmpty()) {
				continue;
			}
			List<int[]> merges = new ArrayList<>();
			Set<Integer> seenOut = new HashSet<>();
			Set<Integer> seenIn = new HashSet<>();
			for (int[] pair : pairings.get(fname)) {
				int in = pair[0];
				int outP = pair[1];
				boolean safe = true;
				for (Object[] site : e.getValue()) {
					safe &= pairingSafe(site, in, outP);
				}
				if (safe && seenOut.add(outP) && seenIn.add(in)) {
					merges.add(new int[] { outP, in });
				}
			}
			if (!merges.isEmpty()) {
				results.put(fname, merges);
			}
		}
		return results;
	}

	// ---- loop case ------------------------------------------------------------------------------

	private static void loops(Stmt body, Program program, Set<String> incore, Map<String, List<OutMapping>> mappings,
			Map<String, List<int[]>> results) {
		new PyptoVisitor() {
			@Override
			protected void forStmt(Stmt.For f) {
				super.forStmt(f);
				if (!f.iterArgs().isEmpty()) {
					analyzeLoop(f.iterArgs(), f.body(), program, incore, mappings, results);
				}
			}

			@Override
			protected void whileStmt(Stmt.While w) {
				super.whileStmt(w);
				if (!w.iterArgs().isEmpty()) {
					analyzeLoop(w.iterArgs(), w.body(), program, incore, mappings, results);
				}
			}
		}.stmt(body);
	}

	private static Stmt.Yield findYield(Stmt body) {
		for (Stmt s : ScopeOutliner.flatten(Stmt.flatten(body))) {
			if (s instanceof Stmt.Yield y) {
				return y;
			}
		}
		return null;
	}

	private static void analyzeLoop(List<IterArg> iters, Stmt body, Program program, Set<String> incore,
			Map<String, List<OutMapping>> mappings, Map<String, List<int[]>> results) {
		List<Stmt> stmts = ScopeOutliner.flatten(Stmt.flatten(body));
		Set<Var> creates = VarCollectors.identitySet();
		List<Stmt.Assign> calls = new ArrayList<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c) {
				if (c.isOp("tensor.create")) {
					creates.add(a.var());
				} else if (c.functionName() != null && incore.contains(c.functionName())) {
					calls.add(a);
				}
			}
		}
		Stmt.Yield yield = findYield(body);
		if (yield == null) {
			return;
		}
		Map<Var, Map<Integer, Var>> extracts = new IdentityHashMap<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a && a.value() instanceof Expr.TupleGetItem g
					&& VarCollectors.plainVar(g.tuple()) instanceof Var src) {
				extracts.computeIfAbsent(src, k -> new HashMap<>()).put(g.index(), a.var());
			}
		}
		for (Stmt.Assign ca : calls) {
			Expr.Call call = (Expr.Call) ca.value();
			String fname = call.functionName();
			List<OutMapping> outs = mappings.get(fname);
			Function kernel = program.function(fname);
			if (outs == null || kernel == null) {
				continue;
			}
			List<int[]> merges = new ArrayList<>();
			for (OutMapping m : outs) {
				if (m.paramIndex() >= call.args().size()
						|| !(VarCollectors.plainVar(call.args().get(m.paramIndex())) instanceof Var outArg)
						|| !creates.contains(outArg)) {
					continue;
				}
				int yi = -1;
				if (outs.size() == 1 && kernel.returnTypes().size() == 1) {
					yi = indexOfYield(yield, ca.var());
				} else {
					Map<Integer, Var> ex = extracts.get(ca.var());
					Var w = ex == null ? null : ex.get(m.returnIndex());
					if (w != null) {
						yi = indexOfYield(yield, w);
					}
				}
				if (yi < 0 || yi >= iters.size()) {
					continue;
				}
				IterArg carried = iters.get(yi);
				for (int a = 0; a < call.args().size(); a++) {
					if (call.args().get(a) != carried) {
						continue;
					}
					if (a < kernel.directions().size() && kernel.directions().get(a) == Direction.In) {
						merges.add(new int[] { m.paramIndex(), a });
					}
					break;
				}
			}
			if (!merges.isEmpty()) {
				results.putIfAbsent(fname, merges);
			}
		}
	}

	private static int indexOfYield(Stmt.Yield y, Var v) {
		for (int i = 0; i < y.values().size(); i++) {
			if (VarCollectors.plainVar(y.values().get(i)) == v) {
				return i;
			}
		}
		return -1;
	}

	// ---- standalone case ------------------------------------------------------------------------

	/**
	 * pypto's BuildInOutParamPairings: (In param, Out param) when the Out param's returned store writes a
	 * loop result (one or more loop hops) that started as a full {@code tile.load} of an In param of the
	 * same constant shape and dtype.
	 */
	static List<int[]> inOutPairings(Function f) {
		List<int[]> out = new ArrayList<>();
		Map<Var, Integer> inIdx = new IdentityHashMap<>();
		for (int i = 0; i < f.params().size(); i++) {
			if (f.directions().get(i) == Direction.In && f.params().get(i).type() instanceof Type.Tensor) {
				inIdx.put(f.params().get(i), i);
			}
		}
		List<OutMapping> mappings = outMappings(f);
		if (inIdx.isEmpty() || mappings.isEmpty()) {
			return out;
		}
		Map<Var, Stmt.Assign> defs = new IdentityHashMap<>();
		Map<Var, Expr> rvInit = new IdentityHashMap<>();
		Stmt.Return[] ret = { null };
		new PyptoVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Return r && ret[0] == null) {
					ret[0] = r;
				}
				super.stmt(s);
			}

			@Override
			protected void assign(Stmt.Assign a) {
				defs.put(a.var(), a);
				super.assign(a);
			}

			@Override
			protected void forStmt(Stmt.For l) {
				carries(l.returnVars(), l.iterArgs(), rvInit);
				super.forStmt(l);
			}

			@Override
			protected void whileStmt(Stmt.While w) {
				carries(w.returnVars(), w.iterArgs(), rvInit);
				super.whileStmt(w);
			}
		}.stmt(f.body());
		if (ret[0] == null) {
			return out;
		}
		Set<Integer> usedIn = new HashSet<>();
		for (OutMapping m : mappings) {
			if (m.returnIndex() >= ret[0].values().size()
					|| !(VarCollectors.plainVar(ret[0].values().get(m.returnIndex())) instanceof Var rv)) {
				continue;
			}
			Stmt.Assign def = defs.get(rv);
			if (def == null || !(def.value() instanceof Expr.Call store) || !store.isOp("tile.store") || store.args().isEmpty()) {
				continue;
			}
			Var current = VarCollectors.plainVar(store.args().get(0)) instanceof Var v ? v : null;
			int hops = 0;
			for (int h = 0; h < 16 && current != null; h++) {
				if (!rvInit.containsKey(current)) {
					break;
				}
				Expr init = rvInit.get(current);
				current = VarCollectors.plainVar(init) instanceof Var iv ? iv : null;
				if (current != null) {
					hops++;
				}
			}
			if (current == null || hops == 0) {
				continue;
			}
			Stmt.Assign loadDef = defs.get(current);
			if (loadDef == null || !(loadDef.value() instanceof Expr.Call load) || !load.isOp("tile.load")
					|| !(VarCollectors.plainVar(load.args().get(0)) instanceof Var src) || !inIdx.containsKey(src)) {
				continue;
			}
			int in = inIdx.get(src);
			Type.Tensor tt = (Type.Tensor) f.params().get(in).type();
			if (!typesMatch(tt, m.param().type()) || !fullLoad(load, tt) || !usedIn.add(in)) {
				continue;
			}
			out.add(new int[] { in, m.paramIndex() });
		}
		return out;
	}

	private static Long constant(Expr e) {
		return e instanceof Expr.ConstInt c ? c.value() : null;
	}

	private static boolean typesMatch(Type a, Type b) {
		if (!(a instanceof Type.Tensor ta) || !(b instanceof Type.Tensor tb) || ta.dtype() != tb.dtype()
				|| ta.rank() != tb.rank()) {
			return false;
		}
		for (int i = 0; i < ta.rank(); i++) {
			Long x = constant(ta.shape().get(i));
			Long y = constant(tb.shape().get(i));
			if (x == null || !x.equals(y)) {
				return false;
			}
		}
		return true;
	}

	private static boolean fullLoad(Expr.Call load, Type.Tensor t) {
		if (load.args().size() < 4 || !(load.args().get(1) instanceof Expr.MakeTuple offs)
				|| !(load.args().get(2) instanceof Expr.MakeTuple shape) || !(load.args().get(3) instanceof Expr.MakeTuple valid)) {
			return false;
		}
		int n = t.rank();
		if (offs.elements().size() != n || shape.elements().size() != n || valid.elements().size() != n) {
			return false;
		}
		for (int i = 0; i < n; i++) {
			Long want = constant(t.shape().get(i));
			if (want == null || !want.equals(constant(shape.elements().get(i))) || !want.equals(constant(valid.elements().get(i)))
					|| !Long.valueOf(0).equals(constant(offs.elements().get(i)))) {
				return false;
			}
		}
		return true;
	}

	/** Each call of a kernel outside any carrying loop: {use counts, local creates, the assignment}. */
	private static void standaloneSites(Stmt body, Set<String> incore, Map<String, List<Object[]>> out) {
		Map<Var, Integer> useCount = new IdentityHashMap<>();
		Set<Var> localCreates = VarCollectors.identitySet();
		new PyptoVisitor() {
			@Override
			protected void varUse(Var v) {
				useCount.merge(v, 1, Integer::sum);
			}

			@Override
			protected void iterArgUse(IterArg a) {
				useCount.merge(a, 1, Integer::sum);
			}

			@Override
			protected void assign(Stmt.Assign a) {
				expr(a.value());
				if (a.value() instanceof Expr.Call c && c.isOp("tensor.create")) {
					localCreates.add(a.var());
				}
			}

			@Override
			protected void forStmt(Stmt.For f) {
				expr(f.start());
				expr(f.stop());
				expr(f.step());
				f.iterArgs().forEach(ia -> expr(ia.init()));
				stmt(f.body());
			}

			@Override
			protected void whileStmt(Stmt.While w) {
				expr(w.condition());
				w.iterArgs().forEach(ia -> expr(ia.init()));
				stmt(w.body());
			}
		}.stmt(body);
		boolean[] inLoop = { false };
		new PyptoVisitor() {
			@Override
			protected void forStmt(Stmt.For f) {
				boolean prev = inLoop[0];
				inLoop[0] |= !f.iterArgs().isEmpty();
				super.forStmt(f);
				inLoop[0] = prev;
			}

			@Override
			protected void whileStmt(Stmt.While w) {
				boolean prev = inLoop[0];
				inLoop[0] |= !w.iterArgs().isEmpty();
				super.whileStmt(w);
				inLoop[0] = prev;
			}

			@Override
			protected void assign(Stmt.Assign a) {
				if (!inLoop[0] && a.value() instanceof Expr.Call c && c.functionName() != null
						&& incore.contains(c.functionName())) {
					out.computeIfAbsent(c.functionName(), k -> new ArrayList<>())
							.add(new Object[] { useCount, localCreates, a });
				}
				super.assign(a);
			}
		}.stmt(body);
	}

	@SuppressWarnings("unchecked")
	private static boolean pairingSafe(Object[] site, int in, int outP) {
		Map<Var, Integer> useCount = (Map<Var, Integer>) site[0];
		Set<Var> creates = (Set<Var>) site[1];
		Stmt.Assign a = (Stmt.Assign) site[2];
		Expr.Call call = (Expr.Call) a.value();
		if (outP >= call.args().size() || in >= call.args().size()
				|| !(VarCollectors.plainVar(call.args().get(outP)) instanceof Var outVar)
				|| !(VarCollectors.plainVar(call.args().get(in)) instanceof Var inVar) || !creates.contains(outVar)) {
			return false;
		}
		int total = useCount.getOrDefault(inVar, 0);
		int[] self = { 0 };
		new PyptoVisitor() {
			@Override
			protected void varUse(Var v) {
				if (v == inVar) {
					self[0]++;
				}
			}

			@Override
			protected void iterArgUse(IterArg ia) {
				if (ia == inVar) {
					self[0]++;
				}
			}
		}.expr(call);
		return total == self[0];
	}
}
