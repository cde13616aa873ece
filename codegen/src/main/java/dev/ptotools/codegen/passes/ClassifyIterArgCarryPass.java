package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.CallLike;
import dev.ptotools.codegen.passes.util.ControlFlowUtils;
import dev.ptotools.codegen.passes.util.ReturnedParams;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's classify_iter_arg_carry (ClassifyIterArgCarry, src/ir/transforms/classify_iter_arg_carry_pass.cpp):
 * every loop of an orchestration function that carries values gets {@code iter_arg_rebind_<i>} per
 * carry, telling the codegen whether the carry needs a C++ variable of its own (rebind: the yielded
 * value is not the carried buffer written in place, or it is a TaskId) or is just the init value
 * (trivial). Inside a MANUAL scope, a TaskId carry of a parallel loop (or threaded through one) also
 * gets {@code iter_arg_array_size_<i>}, the size of the TaskId array that collects one id per iteration.
 */
public final class ClassifyIterArgCarryPass implements Pass {

	static final String REBIND = "iter_arg_rebind_";
	static final String ARRAY_SIZE = "iter_arg_array_size_";

	@Override
	public String name() {
		return "ClassifyIterArgCarry";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CallDirectionsResolved, IrProperty.RuntimeScopesMaterialized);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.IterArgCarryClassified, IrProperty.RuntimeScopesMaterialized);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			Function n = f;
			if (f.body() != null && f.isOrchestration()) {
				Stmt body = new Stamper(program).stmt(f.body());
				n = body == f.body() ? f : f.withBody(body);
			}
			changed |= n != f;
			out.add(n);
		}
		return changed ? program.withFunctions(out) : program;
	}

	/** Whether carry i of a loop is rebind (attribute absent: trivial). */
	public static boolean isRebind(Stmt.For f, int i) {
		return Boolean.TRUE.equals(f.attr(REBIND + i));
	}

	/** The TaskId array size of carry i, 0 when it has none. */
	public static int arraySize(Stmt.For f, int i) {
		return f.attr(ARRAY_SIZE + i) instanceof Number n ? n.intValue() : 0;
	}

	private record Plan(boolean rebind, long arraySize) {
	}

	/** Stamps every loop, counting the enclosing MANUAL scopes. */
	private static final class Stamper extends IrMutator {
		private final Program program;
		private int manualDepth;

		Stamper(Program program) {
			this.program = program;
		}

		@Override
		public Stmt scope(Stmt.Scope s) {
			boolean manual = s instanceof Stmt.RuntimeScope r && r.manual();
			manualDepth += manual ? 1 : 0;
			Stmt out = super.scope(s);
			manualDepth -= manual ? 1 : 0;
			return out;
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			// The plan reads the loop before its nested loops are stamped: they only gain attrs.
			List<Plan> plans = f.iterArgs().isEmpty() ? List.of() : analyze(f);
			Stmt base = super.forStmt(f);
			if (plans.isEmpty() || !(base instanceof Stmt.For nf)) {
				return base;
			}
			Map<String, Object> attrs = new LinkedHashMap<>();
			for (Map.Entry<String, Object> e : nf.attrs().entrySet()) {
				if (!e.getKey().startsWith(REBIND) && !e.getKey().startsWith(ARRAY_SIZE)) {
					attrs.put(e.getKey(), e.getValue());
				}
			}
			for (int i = 0; i < plans.size(); i++) {
				attrs.put(REBIND + i, plans.get(i).rebind());
				if (plans.get(i).arraySize() > 0) {
					attrs.put(ARRAY_SIZE + i, (int) plans.get(i).arraySize());
				}
			}
			return new Stmt.For(nf.loopVar(), nf.start(), nf.stop(), nf.step(), nf.iterArgs(), nf.body(), nf.returnVars(),
					nf.kind(), attrs, nf.span());
		}

		private List<Plan> analyze(Stmt.For f) {
			int n = f.iterArgs().size();
			boolean[] rebind = new boolean[n];
			long[] size = new long[n];
			Stmt.Yield y = ControlFlowUtils.lastYield(ControlFlowUtils.unwrapAutoScope(f.body()));
			if (y != null) {
				if (y.values().size() != n) {
					throw new CodegenException("Internal error: ForStmt yield/iter_args size mismatch", f.span());
				}
				AliasForest aliases = new AliasForest(f, program);
				for (int i = 0; i < n; i++) {
					Expr v = y.values().get(i);
					rebind[i] = !(v instanceof Var yv) || aliases.classRoot(yv) != f.iterArgs().get(i);
					// The runtime hands back a fresh TaskId per iteration: never a trivial alias.
					if (isTaskIdScalar(f.iterArgs().get(i))) {
						rebind[i] = true;
					}
				}
			}
			if (manualDepth > 0) {
				for (int i = 0; i < n; i++) {
					if (rebind[i]) {
						size[i] = arrayCarrySize(f, i);
					}
				}
				if (f.kind() == Stmt.ForKind.Parallel) {
					for (int i = 0; i < n; i++) {
						if (rebind[i] && isTaskIdScalar(f.iterArgs().get(i)) && size[i] <= 0) {
							throw new CodegenException("manual_scope: pl.parallel loops carrying a manual_scope dep "
									+ "(via ``deps=[...]``) must have a statically-known trip count. The runtime fence "
									+ "requires a PTO2TaskId[N] array of fixed N. Either make the parallel loop's trip count "
									+ "a Python int (e.g. ``pl.parallel(4)``) or restructure to put the parallel loop inside "
									+ "a const-bounded scope.", f.span());
						}
					}
				}
			}
			List<Plan> plans = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				plans.add(new Plan(rebind[i], size[i]));
			}
			return plans;
		}
	}

	public static boolean isTaskIdScalar(Var v) {
		return v.type() instanceof Type.Scalar s && s.dtype() == DType.TASK_ID;
	}

	/**
	 * The TaskId array size of carry i: the trip count of a parallel loop; for a sequential loop, the
	 * size of the inner loop whose result it yields.
	 */
	static long arrayCarrySize(Stmt.For f, int i) {
		if (i >= f.iterArgs().size() || !isTaskIdScalar(f.iterArgs().get(i))) {
			return 0;
		}
		if (f.kind() == Stmt.ForKind.Parallel) {
			Long t = ControlFlowUtils.constTripCount(f);
			return t == null ? 0 : t;
		}
		if (f.kind() != Stmt.ForKind.Sequential) {
			return 0;
		}
		Stmt.Yield y = ControlFlowUtils.lastYield(ControlFlowUtils.unwrapAutoScope(f.body()));
		if (y == null || i >= y.values().size() || !(y.values().get(i) instanceof Var yv)) {
			return 0;
		}
		Stmt.For inner = forByReturnVar(f.body(), yv);
		if (inner == null) {
			return 0;
		}
		for (int j = 0; j < inner.returnVars().size(); j++) {
			if (inner.returnVars().get(j) == yv) {
				return arrayCarrySize(inner, j);
			}
		}
		return 0;
	}

	private static Stmt.For forByReturnVar(Stmt body, Var target) {
		Stmt.For[] found = new Stmt.For[1];
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (found[0] != null) {
					return;
				}
				if (s instanceof Stmt.For f && f.returnVars().contains(target)) {
					found[0] = f;
					return;
				}
				super.stmt(s);
			}
		}.stmt(body);
		return found[0];
	}

	/**
	 * pypto's AliasForest over a loop body: each Var that is another name for an existing buffer points
	 * to the Var it names (assemble results to their target, kernel results to the written argument the
	 * callee returns, tuple elements to the matching written argument, nested loop results to their
	 * init); a carry is trivial when its yielded value's chain ends at the carry.
	 */
	private static final class AliasForest {
		private final Set<Var> roots = new HashSet<>();
		private final Map<Var, Var> sourceOf = new HashMap<>();
		private final Map<Var, Var> rootOf = new HashMap<>();

		AliasForest(Stmt.For f, Program program) {
			roots.addAll(f.iterArgs());
			List<Stmt.Assign> assigns = new ArrayList<>();
			List<Stmt.For> nested = new ArrayList<>();
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.Assign a) {
						assigns.add(a);
					} else if (s instanceof Stmt.For nf) {
						nested.add(nf);
					}
					super.stmt(s);
				}
			}.stmt(f.body());
			Map<Var, Stmt.Assign> byVar = new HashMap<>();
			for (Stmt.Assign a : assigns) {
				byVar.put(a.var(), a);
			}
			for (Stmt.Assign a : assigns) {
				addEdge(a.var(), source(a, byVar, program));
			}
			// An Array carry owns a fresh C array at each level: not an alias of the outer carry.
			for (Stmt.For nf : nested) {
				for (int k = 0; k < nf.iterArgs().size() && k < nf.returnVars().size(); k++) {
					IterArg ia = nf.iterArgs().get(k);
					if (!(ia.type() instanceof Type.Array) && ia.init() instanceof Var init) {
						addEdge(nf.returnVars().get(k), init);
					}
				}
			}
		}

		private void addEdge(Var produced, Var source) {
			if (produced == null || source == null || produced == source || roots.contains(produced)) {
				return;
			}
			sourceOf.putIfAbsent(produced, source);
		}

		Var classRoot(Var var) {
			Var memo = rootOf.get(var);
			if (memo != null) {
				return memo;
			}
			List<Var> chain = new ArrayList<>();
			Set<Var> onChain = new HashSet<>();
			Var cur = var;
			while (onChain.add(cur)) {
				if (rootOf.containsKey(cur)) {
					break;
				}
				Var next = sourceOf.get(cur);
				if (next == null) {
					break;
				}
				chain.add(cur);
				cur = next;
			}
			Var root = rootOf.getOrDefault(cur, cur);
			rootOf.putIfAbsent(cur, root);
			for (Var v : chain) {
				rootOf.put(v, root);
			}
			return root;
		}

		private static Var source(Stmt.Assign a, Map<Var, Stmt.Assign> byVar, Program program) {
			if (a.value() instanceof Expr.TupleGetItem g) {
				if (!(g.tuple() instanceof Var tv) || !byVar.containsKey(tv)) {
					return null;
				}
				CallLike t = CallLike.of(byVar.get(tv).value());
				if (t == null) {
					return null;
				}
				List<ArgDirection> dirs = t.argDirections();
				if (dirs.size() != t.args().size()) {
					return null;
				}
				int seen = 0;
				for (int k = 0; k < dirs.size(); k++) {
					ArgDirection d = dirs.get(k);
					if (d != ArgDirection.OutputExisting && d != ArgDirection.InOut && d != ArgDirection.Output) {
						continue;
					}
					if (seen == g.index()) {
						return t.args().get(k) instanceof Var v ? v : null;
					}
					seen++;
				}
				return null;
			}
			CallLike call = CallLike.of(a.value());
			if (call == null) {
				return null;
			}
			if (call.isOp("tensor.assemble") && !call.args().isEmpty()) {
				return call.args().get(0) instanceof Var v ? v : null;
			}
			List<ArgDirection> dirs = call.argDirections();
			if (dirs.size() != call.args().size()) {
				return null;
			}
			Function callee = call.functionName() == null ? null : program.function(call.functionName());
			Integer returned = callee == null ? null : ReturnedParams.firstIndex(callee);
			for (int k = 0; k < dirs.size(); k++) {
				if (dirs.get(k) != ArgDirection.OutputExisting && dirs.get(k) != ArgDirection.InOut) {
					continue;
				}
				if (returned != null && k != returned) {
					continue;
				}
				return call.args().get(k) instanceof Var v ? v : null;
			}
			return null;
		}
	}
}
