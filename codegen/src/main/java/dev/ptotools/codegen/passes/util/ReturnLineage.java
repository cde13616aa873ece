package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's return lineage (src/ir/transforms/utils/return_lineage_utils.cpp): which parameter a
 * function's returned value is the buffer of. A value traces back through loop carries (iter arg or
 * tensor return var to its init), {@code x = y} aliases, results of calls of program functions (through
 * the callee's own returned-parameter map) and the builtin ops whose result is one of their inputs'
 * buffers ({@code tile.store} target, {@code tensor.assemble} destination, accumulating matmuls...). Any
 * other op ends the walk: the value is then a kernel-allocated output.
 */
public final class ReturnLineage {

	/** Builtin ops whose result reuses an input buffer (pypto's set_output_reuses_input), by arg index. */
	private static final Map<String, Integer> WRITEBACK = Map.ofEntries(Map.entry("tensor.set_validshape", 0),
			Map.entry("tensor.assemble", 0), Map.entry("tile.fillpad_inplace", 0), Map.entry("tile.scatter_update", 0),
			Map.entry("tile.batch_matmul_acc", 0), Map.entry("tile.gather_row", 0), Map.entry("tile.scatter", 0),
			Map.entry("tile.scatter_mask", 0), Map.entry("tile.matmul_mx_acc", 0), Map.entry("tile.tget_scale_addr", 0),
			Map.entry("tile.store", 2), Map.entry("tile.mscatter", 2), Map.entry("tile.matmul_acc", 0),
			Map.entry("tile.gemv_acc", 0));

	private final Program program;
	private final List<Function> stack = new ArrayList<>();

	private ReturnLineage(Program program) {
		this.program = program;
	}

	/** The arg index an op's result aliases, or null. */
	public static Integer writebackArg(Expr.Call c) {
		if (!c.isOp()) {
			return null;
		}
		Integer i = WRITEBACK.get(c.name());
		return i != null && i < c.args().size() ? i : null;
	}

	/** pypto's IsBuiltinOp: op names in the tile/tensor/system/array namespaces. */
	public static boolean isBuiltin(String name) {
		return name.startsWith("tile.") || name.startsWith("tensor.") || name.startsWith("system.")
				|| name.startsWith("array.") || name.equals("pld.system.get_comm_ctx");
	}

	/** What a body defines: each assignment, and each loop carry's source. */
	static final class BodyIndex extends PyptoVisitor {
		Stmt.Return firstReturn;
		final Map<Var, Stmt.Assign> defs = new IdentityHashMap<>();
		final Map<Var, Var> carrySrc = new IdentityHashMap<>();

		static BodyIndex of(Stmt body) {
			BodyIndex b = new BodyIndex();
			b.stmt(body);
			return b;
		}

		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.Return r) {
				if (firstReturn == null) {
					firstReturn = r;
				}
				return;
			}
			super.stmt(s);
		}

		@Override
		protected void assign(Stmt.Assign a) {
			defs.putIfAbsent(a.var(), a);
			super.assign(a);
		}

		@Override
		protected void forStmt(Stmt.For f) {
			carries(f.iterArgs(), f.returnVars());
			super.forStmt(f);
		}

		@Override
		protected void whileStmt(Stmt.While w) {
			carries(w.iterArgs(), w.returnVars());
			super.whileStmt(w);
		}

		private void carries(List<IterArg> iters, List<Var> rvs) {
			for (int i = 0; i < iters.size(); i++) {
				if (!(iters.get(i).init() instanceof Var init)) {
					continue;
				}
				carrySrc.put(iters.get(i), init);
				if (i < rvs.size() && rvs.get(i).type() instanceof Type.Tensor) {
					carrySrc.put(rvs.get(i), init);
				}
			}
		}
	}

	/** A Call or a Submit as (callee name, is-op, args). */
	private record CallView(String name, boolean op, List<Expr> args) {
		static CallView of(Expr e) {
			if (e instanceof Expr.Call c) {
				return new CallView(c.name(), c.isOp(), c.args());
			}
			if (e instanceof Expr.Submit s) {
				return new CallView(s.callee().name(), s.callee() instanceof Expr.Callee.Op, s.args());
			}
			return null;
		}

		boolean builtin() {
			return isBuiltin(name);
		}
	}

	private Var traceVar(Var var, BodyIndex index, Set<Var> params) {
		Set<Var> visited = VarCollectors.identitySet();
		while (var != null) {
			if (!visited.add(var)) {
				return null;
			}
			if (params.contains(var)) {
				return var;
			}
			Var carried = index.carrySrc.get(var);
			if (carried != null) {
				var = carried;
				continue;
			}
			Stmt.Assign def = index.defs.get(var);
			if (def == null) {
				return null;
			}
			Expr value = def.value();
			if (value instanceof Var rhs) {
				var = rhs;
				continue;
			}
			if (value instanceof Expr.TupleGetItem g) {
				if (!(g.tuple() instanceof Var tv)) {
					return null;
				}
				Stmt.Assign tdef = index.defs.get(tv);
				CallView call = tdef == null ? null : CallView.of(tdef.value());
				if (call == null || call.builtin()) {
					return null;
				}
				Function callee = program == null ? null : program.function(call.name());
				if (callee == null) {
					return null;
				}
				List<Integer> map = returnedParamIndices(callee);
				int pos = g.index();
				if (pos < 0 || pos >= map.size() || map.get(pos) == null) {
					return null;
				}
				int mapped = map.get(pos);
				if (mapped >= call.args().size() || !(call.args().get(mapped) instanceof Var av)) {
					return null;
				}
				var = av;
				continue;
			}
			CallView call = CallView.of(value);
			if (call != null) {
				if (value instanceof Expr.Call c && writebackArg(c) != null) {
					if (!(c.args().get(writebackArg(c)) instanceof Var av)) {
						return null;
					}
					var = av;
					continue;
				}
				if (!call.builtin()) {
					Function callee = program == null ? null : program.function(call.name());
					if (callee == null) {
						return null;
					}
					List<Integer> map = returnedParamIndices(callee);
					if (map.size() != 1 || map.get(0) == null) {
						return null;
					}
					int mapped = map.get(0);
					if (mapped >= call.args().size() || !(call.args().get(mapped) instanceof Var av)) {
						return null;
					}
					var = av;
					continue;
				}
				return null;
			}
			return null;
		}
		return null;
	}

	private List<Integer> traceExprs(List<Expr> exprs, BodyIndex index, List<Var> params) {
		Set<Var> paramSet = VarCollectors.identitySet();
		paramSet.addAll(params);
		List<Integer> out = new ArrayList<>();
		for (Expr e : exprs) {
			Integer idx = null;
			if (e instanceof Var v) {
				Var root = traceVar(v, index, paramSet);
				if (root != null) {
					idx = indexOf(params, root);
				}
			}
			out.add(idx);
		}
		return out;
	}

	private static Integer indexOf(List<Var> params, Var v) {
		for (int i = 0; i < params.size(); i++) {
			if (params.get(i) == v) {
				return i;
			}
		}
		return null;
	}

	private List<Integer> expandForwardedTuple(Var tupleVar, BodyIndex index, List<Var> params) {
		Set<Var> paramSet = VarCollectors.identitySet();
		paramSet.addAll(params);
		Var var = tupleVar;
		Set<Var> seen = VarCollectors.identitySet();
		CallView call = null;
		while (var != null) {
			if (!seen.add(var)) {
				return List.of();
			}
			Stmt.Assign def = index.defs.get(var);
			if (def == null) {
				return List.of();
			}
			if (def.value() instanceof Var rhs) {
				var = rhs;
				continue;
			}
			if (def.value() instanceof Expr.MakeTuple mt) {
				return traceExprs(mt.elements(), index, params);
			}
			call = CallView.of(def.value());
			break;
		}
		if (call == null || call.builtin()) {
			return List.of();
		}
		Function callee = program == null ? null : program.function(call.name());
		if (callee == null) {
			return List.of();
		}
		List<Integer> inner = returnedParamIndices(callee);
		if (inner.isEmpty()) {
			return List.of();
		}
		List<Integer> out = new ArrayList<>();
		for (int pos = 0; pos < inner.size(); pos++) {
			Integer r = null;
			Integer mapped = inner.get(pos);
			if (mapped != null && mapped < call.args().size() && call.args().get(mapped) instanceof Var av) {
				Var root = traceVar(av, index, paramSet);
				if (root != null) {
					r = indexOf(params, root);
				}
			}
			out.add(r);
		}
		return out;
	}

	private List<Integer> mapWrapperReturn(Function wrapper) {
		if (program == null || wrapper.returnTypes().isEmpty()) {
			return List.of();
		}
		List<Expr.Call> calls = new ArrayList<>();
		List<Function> callees = new ArrayList<>();
		innerCalls(wrapper, program, calls, callees);
		Expr.Call returning = null;
		Function returningCallee = null;
		for (int i = 0; i < calls.size(); i++) {
			if (callees.get(i).returnTypes().size() != wrapper.returnTypes().size()) {
				continue;
			}
			if (returning != null) {
				return List.of();
			}
			returning = calls.get(i);
			returningCallee = callees.get(i);
		}
		if (returning == null) {
			return List.of();
		}
		List<Integer> inner = returnedParamIndices(returningCallee);
		if (inner.size() != wrapper.returnTypes().size()) {
			return List.of();
		}
		List<Integer> out = new ArrayList<>();
		for (Integer mapped : inner) {
			Integer r = null;
			if (mapped != null && mapped < returning.args().size() && returning.args().get(mapped) instanceof Var av) {
				r = indexOf(wrapper.params(), av);
			}
			out.add(r);
		}
		return out;
	}

	/**
	 * pypto's CollectInnerCalls: the calls (Submits seen as calls) of program functions other than
	 * Orchestration/Opaque ones in a wrapper body, in walk order.
	 */
	public static void innerCalls(Function wrapper, Program program, List<Expr.Call> calls, List<Function> callees) {
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				Function f = c.functionName() == null ? null : program.function(c.functionName());
				if (f != null && f.type() != FunctionType.Orchestration && f.type() != FunctionType.Opaque) {
					calls.add(c);
					callees.add(f);
				}
				super.call(c);
			}

			@Override
			protected void submit(Expr.Submit s) {
				call(new Expr.Call(s.callee(), s.args(), Map.of(), s.attrs(), s.type(), s.span()));
			}
		}.stmt(wrapper.body());
	}

	private final Map<Function, List<Integer>> memo = new HashMap<>();

	private List<Integer> returnedParamIndices(Function f) {
		if (f == null || f.body() == null) {
			return List.of();
		}
		for (Function s : stack) {
			if (s == f) {
				return List.of();
			}
		}
		List<Integer> cached = memo.get(f);
		if (cached != null) {
			return cached;
		}
		stack.add(f);
		try {
			List<Integer> r = compute(f);
			memo.put(f, r);
			return r;
		} finally {
			stack.remove(stack.size() - 1);
		}
	}

	private List<Integer> compute(Function f) {
		BodyIndex index = BodyIndex.of(f.body());
		if (index.firstReturn == null || index.firstReturn.values().isEmpty()) {
			if (f.type() == FunctionType.Group || f.type() == FunctionType.Spmd) {
				return mapWrapperReturn(f);
			}
			return List.of();
		}
		List<Expr> rets = index.firstReturn.values();
		int arity = f.returnTypes().size();
		if (rets.size() == 1 && arity > 1 && rets.get(0) instanceof Var tv && tv.type() instanceof Type.Tuple tt
				&& tt.elements().size() == arity) {
			List<Integer> expanded = expandForwardedTuple(tv, index, f.params());
			if (expanded.size() == arity) {
				return expanded;
			}
		}
		return traceExprs(rets, index, f.params());
	}

	/**
	 * For each return value of f, the index of the parameter it is the buffer of, or null (pypto's
	 * ReturnedParamIndices); empty when f returns nothing traceable at all.
	 */
	public static List<Integer> returnedParamIndices(Function f, Program program) {
		return new ReturnLineage(program).returnedParamIndices(f);
	}

	/** The parameter var is the buffer of, or null (pypto's TraceToParam). */
	public static Var traceToParam(Var var, Stmt body, List<Var> params, Program program) {
		if (var == null || body == null) {
			return null;
		}
		BodyIndex index = BodyIndex.of(body);
		Set<Var> paramSet = VarCollectors.identitySet();
		paramSet.addAll(params);
		Var root = new ReturnLineage(program).traceVar(var, index, paramSet);
		return root;
	}

	/** The first return statement of a body (pypto's FindFirstReturn), or null. */
	public static Stmt.Return firstReturn(Stmt body) {
		if (body instanceof Stmt.Seq q && !q.stmts().isEmpty() && q.stmts().get(q.stmts().size() - 1) instanceof Stmt.Return r) {
			return r;
		}
		return BodyIndex.of(body).firstReturn;
	}

	/** For each return value, the index of the parameter it is (by identity), or null (ExplicitReturnedParamIndices). */
	public static List<Integer> explicitReturnedParamIndices(Function f) {
		Stmt.Return r = f.body() == null ? null : firstReturn(f.body());
		if (r == null) {
			return List.of();
		}
		List<Integer> out = new ArrayList<>();
		for (Expr v : r.values()) {
			out.add(v instanceof Var var ? indexOf(f.params(), var) : null);
		}
		return out;
	}
}
