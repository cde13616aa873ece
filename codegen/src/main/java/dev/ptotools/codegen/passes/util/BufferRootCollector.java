package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * The buffer each tensor Var refers to (pypto's buffer_root::BufferRootCollector): parameters, creates
 * and slices own a buffer; assembles, copies, kernel results (through the Out/InOut argument they
 * write) and loop or if results refer to the buffers of what flows into them. A Var that may refer to
 * more than one buffer is "ambiguous"; the policy says whether it still gets a root (the first
 * candidate, for dependency analysis) or none (for fusion, which must never alias wrongly).
 */
public final class BufferRootCollector extends IrVisitor {

	public enum AmbiguousPolicy {
		/** Record no root for an ambiguous Var. */
		SKIP,
		/** Record the first candidate root for an ambiguous Var. */
		FIRST_OUTPUT
	}

	private record RootInfo(List<Var> roots, boolean ambiguous) {
	}

	private record OutputRoot(RootInfo info, Type type) {
	}

	private final Program program;
	private final AmbiguousPolicy policy;
	/** Var -> the buffer-root Var it refers to. */
	public final Map<Var, Var> bufferRoots = new HashMap<>();
	/** Vars whose value may refer to more than one buffer. */
	public final Set<Var> ambiguousVars = new HashSet<>();
	private final Map<Var, List<Var>> rootCandidates = new HashMap<>();
	private final Map<Var, List<RootInfo>> tupleOutputRoots = new HashMap<>();

	public BufferRootCollector(Program program, AmbiguousPolicy policy) {
		this.program = program;
		this.policy = policy;
	}

	/** Runs the analysis over a function: its params are their own roots. */
	public static BufferRootCollector of(Program program, Function f, AmbiguousPolicy policy) {
		BufferRootCollector c = new BufferRootCollector(program, policy);
		c.initialize(f.params());
		c.stmt(f.body());
		return c;
	}

	public void initialize(List<Var> params) {
		for (Var p : params) {
			record(p, List.of(p), false);
		}
	}

	/** The root of a Var-valued expression, or null. */
	public Var root(Expr e) {
		return e instanceof Var v ? bufferRoots.get(v) : null;
	}

	@Override
	public void stmt(Stmt s) {
		if (s instanceof Stmt.For f) {
			List<List<Var>> init = initLoopCarryRoots(f.iterArgs());
			super.stmt(f);
			Long trips = ControlFlowUtils.constTripCount(f);
			recordLoopReturnRoots(f.body(), f.returnVars(), init, trips != null && trips > 0);
		} else if (s instanceof Stmt.While w) {
			List<List<Var>> init = initLoopCarryRoots(w.iterArgs());
			super.stmt(w);
			recordLoopReturnRoots(w.body(), w.returnVars(), init, false);
		} else if (s instanceof Stmt.If i) {
			super.stmt(i);
			ifReturnRoots(i);
		} else if (s instanceof Stmt.Assign a) {
			assign(a);
			super.stmt(a);
		} else {
			super.stmt(s);
		}
	}

	private void ifReturnRoots(Stmt.If i) {
		if (i.returnVars().isEmpty() || i.orelse() == null) {
			return;
		}
		Stmt.Yield ty = ControlFlowUtils.lastYield(i.then());
		Stmt.Yield ey = ControlFlowUtils.lastYield(i.orelse());
		if (ty == null || ey == null) {
			return;
		}
		for (int k = 0; k < i.returnVars().size() && k < ty.values().size() && k < ey.values().size(); k++) {
			List<Var> roots = new ArrayList<>(candidates(ty.values().get(k)));
			List<Var> elseRoots = candidates(ey.values().get(k));
			for (Var r : elseRoots) {
				if (!roots.contains(r)) {
					roots.add(r);
				}
			}
			boolean unresolved = roots.isEmpty() || isAmbiguous(ty.values().get(k)) || isAmbiguous(ey.values().get(k))
					|| candidates(ty.values().get(k)).isEmpty() || elseRoots.isEmpty();
			record(i.returnVars().get(k), roots, unresolved);
		}
	}

	private List<List<Var>> initLoopCarryRoots(List<IterArg> iterArgs) {
		List<List<Var>> init = new ArrayList<>();
		for (IterArg a : iterArgs) {
			List<Var> roots = candidates(a.init());
			init.add(roots);
			record(a, roots, isAmbiguous(a.init()));
		}
		return init;
	}

	private void recordLoopReturnRoots(Stmt body, List<Var> returnVars, List<List<Var>> initRoots,
			boolean guaranteedToRun) {
		Stmt.Yield y = ControlFlowUtils.lastYield(body);
		if (y == null) {
			return;
		}
		for (int i = 0; i < returnVars.size() && i < y.values().size(); i++) {
			List<Var> roots = new ArrayList<>(candidates(y.values().get(i)));
			boolean unresolved = roots.isEmpty() || isAmbiguous(y.values().get(i));
			if (!guaranteedToRun && i < initRoots.size()) {
				if (initRoots.get(i).isEmpty()) {
					unresolved = true;
				}
				for (Var r : initRoots.get(i)) {
					if (!roots.contains(r)) {
						roots.add(r);
					}
				}
			}
			record(returnVars.get(i), roots, unresolved);
		}
	}

	private void assign(Stmt.Assign a) {
		CallLike call = CallLike.of(a.value());
		if (call != null) {
			if (call.isOp("tensor.create") || call.isOp("tensor.slice")) {
				record(a.var(), List.of(a.var()), false);
			} else if (call.isOp("tensor.assemble")) {
				if (call.args().size() == 3) {
					record(a.var(), candidates(call.args().get(0)), isAmbiguous(call.args().get(0)));
				}
			} else if (!call.isBuiltin()) {
				List<OutputRoot> outs = callOutputRoots(call);
				if (call.type() instanceof Type.Tuple) {
					List<RootInfo> roots = new ArrayList<>();
					for (OutputRoot o : outs) {
						roots.add(o.info());
					}
					tupleOutputRoots.put(a.var(), roots);
				} else {
					RootInfo info = selectReturnRoot(outs, call.type());
					if (!info.roots().isEmpty()) {
						record(a.var(), info.roots(), info.ambiguous());
					}
				}
			}
		} else if (a.value() instanceof Expr.TupleGetItem g) {
			if (g.tuple() instanceof Var t) {
				List<RootInfo> roots = tupleOutputRoots.get(t);
				if (roots != null && g.index() < roots.size() && !roots.get(g.index()).roots().isEmpty()) {
					RootInfo info = roots.get(g.index());
					record(a.var(), info.roots(), info.ambiguous());
				}
			}
		} else if (a.value() instanceof Var) {
			record(a.var(), candidates(a.value()), isAmbiguous(a.value()));
		}
	}

	private List<Var> candidates(Expr e) {
		if (!(e instanceof Var v)) {
			return List.of();
		}
		List<Var> r = rootCandidates.get(v);
		return r == null ? List.of() : r;
	}

	private boolean isAmbiguous(Expr e) {
		return e instanceof Var v && ambiguousVars.contains(v);
	}

	private void record(Var var, List<Var> roots, boolean unresolved) {
		List<Var> unique = new ArrayList<>();
		for (Var r : roots) {
			if (r != null && !unique.contains(r)) {
				unique.add(r);
			}
		}
		if (unique.isEmpty()) {
			return;
		}
		rootCandidates.put(var, unique);
		if (unresolved || unique.size() > 1) {
			ambiguousVars.add(var);
			if (policy == AmbiguousPolicy.FIRST_OUTPUT) {
				bufferRoots.put(var, unique.get(0));
			} else {
				bufferRoots.remove(var);
			}
		} else {
			ambiguousVars.remove(var);
			bufferRoots.put(var, unique.get(0));
		}
	}

	private List<OutputRoot> callOutputRoots(CallLike call) {
		Function callee = program.function(call.name());
		if (callee == null) {
			return List.of();
		}
		List<OutputRoot> roots = new ArrayList<>();
		for (int i = 0; i < callee.directions().size() && i < call.args().size(); i++) {
			Direction d = callee.directions().get(i);
			if (d != Direction.Out && d != Direction.InOut) {
				continue;
			}
			Expr arg = call.args().get(i);
			roots.add(new OutputRoot(new RootInfo(candidates(arg), isAmbiguous(arg)), arg.type()));
		}
		return roots;
	}

	/** The root of a single-result call: the one Out/InOut, or the unique one matching the result type. */
	private RootInfo selectReturnRoot(List<OutputRoot> outs, Type returnType) {
		if (outs.isEmpty()) {
			return new RootInfo(List.of(), false);
		}
		if (outs.size() == 1) {
			return outs.get(0).info();
		}
		OutputRoot match = null;
		boolean ambiguous = false;
		for (OutputRoot c : outs) {
			if (!c.info().roots().isEmpty() && shapeDtypeMatch(c.type(), returnType)) {
				if (match == null) {
					match = c;
				} else if (!match.info().roots().equals(c.info().roots())
						|| match.info().ambiguous() != c.info().ambiguous()) {
					ambiguous = true;
				}
			}
		}
		if (match != null && !ambiguous) {
			return match.info();
		}
		return policy == AmbiguousPolicy.FIRST_OUTPUT ? outs.get(0).info() : new RootInfo(List.of(), false);
	}

	private static boolean shapeDtypeMatch(Type a, Type b) {
		if (!(a instanceof Type.Tensor ta) || !(b instanceof Type.Tensor tb)) {
			return false;
		}
		return ta.dtype() == tb.dtype() && StructuralExprEquality.equal(ta.shape(), tb.shape());
	}
}
