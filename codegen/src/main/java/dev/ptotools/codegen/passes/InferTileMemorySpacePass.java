package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.OpFacts;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.RemapMutator;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's InferTileMemorySpace (src/ir/transforms/infer_tile_memory_space_pass.cpp), for InCore
 * functions: every tile Var gets the memory space its producing op declares (a fixed space, the
 * {@code target_memory} kwarg, or its first tile input's), loop carries and branch results the space of
 * what flows into them; an operand in a space its consumer does not accept gets a
 * {@code <name>_<Space> = tile.move(x, target_memory=Space)} right before the consumer (one per Var and
 * space per statement list). These spaces decide kernel classification in ExpandMixedKernel.
 *
 * <p>Not ported (kernel-internal only): backend tile layouts on the moves and the hoisting of
 * loop-invariant cube loads.
 */
public final class InferTileMemorySpacePass implements Pass {

	@Override
	public String name() {
		return "InferTileMemorySpace";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.SplitIncoreOrch,
				IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.TileMemoryInferred, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			if (f.type() == FunctionType.InCore) {
				Function nf = transform(f);
				changed |= nf != f;
				out.add(nf);
			} else {
				out.add(f);
			}
		}
		return changed ? program.withFunctions(out) : program;
	}

	private static List<MemorySpace> constraint(Expr.Call c, int i) {
		OpFacts.Entry e = c.isOp() ? OpFacts.get(c.name()) : null;
		if (e == null) {
			return List.of();
		}
		List<MemorySpace> allowed = e.inputs().get(i);
		return allowed == null ? List.of() : allowed;
	}

	private static int constraintCount(Expr.Call c) {
		OpFacts.Entry e = c.isOp() ? OpFacts.get(c.name()) : null;
		if (e == null || e.inputs().isEmpty()) {
			return 0;
		}
		return e.inputs().keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
	}

	static Function transform(Function f) {
		Map<Var, MemorySpace> demands = demands(f.body());
		Map<Var, MemorySpace> memory = new Analyzer(demands).run(f.body());
		if (memory.isEmpty()) {
			return f;
		}
		Map<Var, List<MemorySpace>> needed = new IdentityHashMap<>();
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				int n = Math.min(constraintCount(c), c.args().size());
				for (int i = 0; i < n; i++) {
					List<MemorySpace> allowed = constraint(c, i);
					if (allowed.isEmpty() || !(VarCollectors.plainVar(c.args().get(i)) instanceof Var v)) {
						continue;
					}
					MemorySpace m = memory.get(v);
					if (m != null && !allowed.contains(m)) {
						List<MemorySpace> l = needed.computeIfAbsent(v, k -> new ArrayList<>());
						if (!l.contains(allowed.get(0))) {
							l.add(allowed.get(0));
						}
					}
				}
				super.call(c);
			}
		}.stmt(f.body());
		Stmt body = new Rewriter(memory, needed).stmt(f.body());
		return f.withBody(body);
	}

	// ---- phase 0: backward demand of retargetable producers --------------------------------------

	private static Map<Var, MemorySpace> demands(Stmt body) {
		Map<Var, MemorySpace> demands = new IdentityHashMap<>();
		List<Var[]> edges = new ArrayList<>();
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				int n = Math.min(constraintCount(c), c.args().size());
				for (int i = 0; i < n; i++) {
					List<MemorySpace> allowed = constraint(c, i);
					if (!allowed.isEmpty() && VarCollectors.plainVar(c.args().get(i)) instanceof Var v) {
						MemorySpace prev = demands.get(v);
						if (prev == null || prev == MemorySpace.Vec && allowed.get(0) != MemorySpace.Vec) {
							demands.put(v, allowed.get(0));
						}
					}
				}
				super.call(c);
			}

			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && c.isOp() && OpFacts.get(c.name()) != null
						&& OpFacts.get(c.name()).output() == OpFacts.OutputKind.INHERIT) {
					for (Expr arg : c.args()) {
						if (VarCollectors.plainVar(arg) instanceof Var v
								&& (v.type() instanceof Type.Tile || v.type() instanceof Type.Tensor)) {
							edges.add(new Var[] { a.var(), v });
							break;
						}
					}
				}
				super.assign(a);
			}
		}.stmt(body);
		for (int i = edges.size() - 1; i >= 0; i--) {
			MemorySpace d = demands.get(edges.get(i)[0]);
			if (d == null) {
				continue;
			}
			MemorySpace prev = demands.get(edges.get(i)[1]);
			if (prev == null || prev == MemorySpace.Vec && d != MemorySpace.Vec) {
				demands.put(edges.get(i)[1], d);
			}
		}
		return demands;
	}

	// ---- phase 1: memory space per tile Var -----------------------------------------------------

	private static final class Analyzer extends PyptoVisitor {
		private final Map<Var, MemorySpace> demands;
		private final Map<Var, MemorySpace> memory = new IdentityHashMap<>();

		Analyzer(Map<Var, MemorySpace> demands) {
			this.demands = demands;
		}

		Map<Var, MemorySpace> run(Stmt body) {
			stmt(body);
			return memory;
		}

		@Override
		protected void assign(Stmt.Assign a) {
			if (a.var().type() instanceof Type.Tile) {
				if (a.value() instanceof Expr.Call c) {
					memory.put(a.var(), c.isOp() && c.name().startsWith("tile.") ? fromOp(c, a.var()) : MemorySpace.Vec);
				} else if (a.value() instanceof Var src && memory.containsKey(src)) {
					memory.put(a.var(), memory.get(src));
				}
			}
			super.assign(a);
		}

		private MemorySpace fromOp(Expr.Call c, Var out) {
			OpFacts.Entry e = OpFacts.get(c.name());
			if (e == null) {
				return MemorySpace.Vec;
			}
			switch (e.output()) {
			case FIXED:
				return e.fixed();
			case KWARG: {
				Object k = c.kwarg(e.kwarg());
				if (k instanceof MemorySpace m) {
					return m;
				}
				if (e.kwargDefault() != null) {
					return e.kwargDefault();
				}
				MemorySpace d = demands.get(out);
				if (d == MemorySpace.Vec || d == MemorySpace.Mat) {
					return d;
				}
				return inherit(c);
			}
			case INHERIT:
				return inherit(c);
			default:
				if (c.type() instanceof Type.Tile t && t.memory() != null && t.memory() != MemorySpace.DDR) {
					return t.memory();
				}
				return MemorySpace.Vec;
			}
		}

		private MemorySpace inherit(Expr.Call c) {
			for (Expr a : c.args()) {
				if (a instanceof Var v && memory.containsKey(v)) {
					return memory.get(v);
				}
			}
			return MemorySpace.Vec;
		}

		private MemorySpace spaceOf(Expr e) {
			if (!(e instanceof Var v)) {
				return null;
			}
			if (memory.containsKey(v)) {
				return memory.get(v);
			}
			return v.type() instanceof Type.Tile t ? t.memory() : null;
		}

		@Override
		protected void forStmt(Stmt.For f) {
			for (IterArg ia : f.iterArgs()) {
				if (ia.type() instanceof Type.Tile && spaceOf(ia.init()) != null) {
					memory.put(ia, spaceOf(ia.init()));
				}
			}
			super.forStmt(f);
			Stmt.Yield y = lastYield(f.body());
			if (y == null) {
				return;
			}
			for (int i = 0; i < f.returnVars().size() && i < y.values().size(); i++) {
				if (!(f.returnVars().get(i).type() instanceof Type.Tile)
						|| !(VarCollectors.plainVar(y.values().get(i)) instanceof Var)) {
					continue;
				}
				MemorySpace m = spaceOf(y.values().get(i));
				if (m == null) {
					continue;
				}
				memory.put(f.returnVars().get(i), m);
				if (i < f.iterArgs().size()) {
					memory.put(f.iterArgs().get(i), m);
					if (VarCollectors.plainVar(f.iterArgs().get(i).init()) instanceof Var init && init.type() instanceof Type.Tile) {
						memory.put(init, m);
					}
				}
			}
		}

		@Override
		protected void ifStmt(Stmt.If i) {
			super.ifStmt(i);
			Stmt.Yield ty = lastYield(i.then());
			Stmt.Yield ey = i.orelse() == null ? null : lastYield(i.orelse());
			if (ty == null && ey == null) {
				return;
			}
			for (int k = 0; k < i.returnVars().size(); k++) {
				Var rv = i.returnVars().get(k);
				if (!(rv.type() instanceof Type.Tile rt)) {
					continue;
				}
				MemorySpace a = ty != null && k < ty.values().size() ? spaceOf(ty.values().get(k)) : null;
				MemorySpace b = ey != null && k < ey.values().size() ? spaceOf(ey.values().get(k)) : null;
				if (a != null && b != null && a != b) {
					continue;
				}
				MemorySpace m = a != null ? a : b != null ? b : rt.memory();
				if (m != null) {
					memory.put(rv, m);
				}
			}
		}
	}

	private static Stmt.Yield lastYield(Stmt body) {
		Stmt.Yield last = null;
		for (Stmt s : ScopeOutliner.flatten(Stmt.flatten(body))) {
			if (s instanceof Stmt.Yield y) {
				last = y;
			}
		}
		return last;
	}

	// ---- phase 3: types and moves -----------------------------------------------------------------

	private static final class Rewriter extends RemapMutator {
		private final Map<Var, MemorySpace> memory;
		private final Map<Var, List<MemorySpace>> needed;
		private final Map<Var, Map<MemorySpace, Var>> created = new IdentityHashMap<>();

		Rewriter(Map<Var, MemorySpace> memory, Map<Var, List<MemorySpace>> needed) {
			this.memory = memory;
			this.needed = needed;
		}

		@Override
		protected Var mapVar(Var v) {
			Var r = remap.get(v);
			if (r != null) {
				return r;
			}
			MemorySpace m = memory.get(v);
			if (m != null && v.type() instanceof Type.Tile t && t.memory() != m) {
				Var n = v instanceof IterArg ia ? new IterArg(ia.name(), t.withMemory(m), ia.init(), ia.span())
						: v.retyped(t.withMemory(m));
				remap.put(v, n);
				return n;
			}
			return v;
		}

		@Override
		public List<IterArg> iterArgs(List<IterArg> iters) {
			iters.forEach(this::mapVar);
			return super.iterArgs(iters);
		}

		@Override
		public Expr call(Expr.Call c) {
			List<Expr> args = new ArrayList<>();
			boolean changed = false;
			for (int i = 0; i < c.args().size(); i++) {
				Expr a = c.args().get(i);
				List<MemorySpace> allowed = constraint(c, i);
				Var moved = null;
				if (!allowed.isEmpty() && VarCollectors.plainVar(a) instanceof Var v && created.containsKey(v)) {
					moved = created.get(v).get(allowed.get(0));
				}
				Expr n = moved != null ? moved : expr(a);
				changed |= n != a;
				args.add(n);
			}
			return changed ? c.withArgs(args) : c;
		}

		@Override
		public Stmt assign(Stmt.Assign a) {
			Expr v = expr(a.value());
			Var var = defVar(a.var());
			if (v instanceof Expr.Call c && c.isOp() && var.type() instanceof Type.Tile vt && c.type() instanceof Type.Tile ct
					&& ct.memory() != vt.memory()) {
				v = c.withType(ct.withMemory(vt.memory()));
			}
			return v == a.value() && var == a.var() ? a : new Stmt.Assign(var, v, a.span());
		}

		@Override
		public Stmt seq(Stmt.Seq q) {
			List<Stmt> out = new ArrayList<>();
			List<Object[]> inserted = new ArrayList<>();
			boolean changed = false;
			for (Stmt s : q.stmts()) {
				Expr.Call c = s instanceof Stmt.Assign a && a.value() instanceof Expr.Call ac ? ac
						: s instanceof Stmt.Eval e && e.expr() instanceof Expr.Call ec ? ec : null;
				if (c != null) {
					int n = Math.min(constraintCount(c), c.args().size());
					for (int i = 0; i < n; i++) {
						List<MemorySpace> allowed = constraint(c, i);
						if (allowed.isEmpty() || !(VarCollectors.plainVar(c.args().get(i)) instanceof Var v)) {
							continue;
						}
						MemorySpace target = allowed.get(0);
						if (!needed.getOrDefault(v, List.of()).contains(target)
								|| created.getOrDefault(v, Map.of()).containsKey(target)) {
							continue;
						}
						Var src = mapVar(v);
						Type t = src.type() instanceof Type.Tile st ? st.withMemory(target) : src.type();
						Map<String, Object> kw = new LinkedHashMap<>();
						kw.put("target_memory", target);
						Var mv = new Var(v.name() + "_" + target.name(), t, s.span());
						out.add(new Stmt.Assign(mv, Expr.Call.op("tile.move", List.of(src), kw, t, s.span()), s.span()));
						created.computeIfAbsent(v, k -> new java.util.EnumMap<>(MemorySpace.class)).put(target, mv);
						inserted.add(new Object[] { v, target });
						changed = true;
					}
				}
				Stmt n = stmt(s);
				changed |= n != s;
				out.add(n);
			}
			for (Object[] k : inserted) {
				created.get((Var) k[0]).remove((MemorySpace) k[1]);
			}
			return changed ? new Stmt.Seq(ScopeOutliner.flatten(out), q.span()) : q;
		}
	}
}
