package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
import dev.ptotools.codegen.passes.util.ReturnedParams;

/**
 * The analyses pypto's orchestration codegen runs before it emits (orchestration_analysis.cpp and the
 * use collector of orchestration_codegen.cpp): which Vars hold call tuples and which Vars are their
 * elements, which body Vars are another name for a parameter, and which Vars are used at all.
 */
final class OrchAnalysis {

	/** One {@code x = tuple[index]} of a call tuple. */
	record TupleElement(int index, Var var) {
	}

	private OrchAnalysis() {
	}

	/** pypto's OrchestrationInfoCollector: tuple-valued call results and MakeTuples get keys "_tc_N". */
	static final class TupleInfo {
		final Map<Var, String> keys = new HashMap<>();
		final Map<String, List<TupleElement>> elements = new HashMap<>();

		static TupleInfo of(Stmt body) {
			TupleInfo info = new TupleInfo();
			int[] counter = { 0 };
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.Assign a) {
						CallView call = CallView.of(a.value());
						if (call != null) {
							if (!call.isBuiltin() && call.type() instanceof Type.Tuple) {
								info.keys.put(a.var(), "_tc_" + counter[0]++);
							}
						} else if (a.value() instanceof Expr.MakeTuple) {
							info.keys.put(a.var(), "_tc_" + counter[0]++);
						} else if (a.value() instanceof Expr.TupleGetItem g && g.tuple() instanceof Var t) {
							String key = info.keys.get(t);
							if (key != null) {
								info.elements.computeIfAbsent(key, k -> new ArrayList<>()).add(new TupleElement(g.index(), a.var()));
							}
						}
					}
					super.stmt(s);
				}
			}.stmt(body);
			for (List<TupleElement> l : info.elements.values()) {
				l.sort((x, y) -> Integer.compare(x.index(), y.index()));
			}
			return info;
		}
	}

	/**
	 * pypto's VarLineageCollector: body Vars that are another name for a parameter's buffer (copies,
	 * results of kernels writing into it, loop carries seeded by it), so they print as the parameter.
	 */
	static Map<Var, Var> lineage(Program program, Function f) {
		Map<Var, Var> toParam = new LinkedHashMap<>();
		for (Var p : f.params()) {
			toParam.put(p, p);
		}
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.For loop) {
					carries(loop.iterArgs(), loop.returnVars());
				} else if (s instanceof Stmt.While w) {
					carries(w.iterArgs(), w.returnVars());
				} else if (s instanceof Stmt.Assign a) {
					assign(a);
				}
				super.stmt(s);
			}

			private void carries(List<IterArg> iterArgs, List<Var> returnVars) {
				for (int i = 0; i < iterArgs.size(); i++) {
					Var param = iterArgs.get(i).init() instanceof Var v ? toParam.get(v) : null;
					if (param == null) {
						continue;
					}
					toParam.put(iterArgs.get(i), param);
					// A scalar carry is recomputed each iteration: it is not the parameter's buffer.
					if (i < returnVars.size() && returnVars.get(i).type() instanceof Type.Tensor) {
						toParam.put(returnVars.get(i), param);
					}
				}
			}

			private void assign(Stmt.Assign a) {
				if (a.value() instanceof Var src) {
					Var param = toParam.get(src);
					if (param != null) {
						toParam.put(a.var(), param);
					}
					return;
				}
				CallView call = CallView.of(a.value());
				if (call == null || call.isBuiltin()) {
					return;
				}
				Function callee = program.function(call.name());
				if (callee == null) {
					return;
				}
				Integer returned = ReturnedParams.firstIndex(callee);
				List<Direction> dirs = callee.directions();
				for (int i = 0; i < dirs.size() && i < call.args().size(); i++) {
					if (dirs.get(i) != Direction.Out && dirs.get(i) != Direction.InOut) {
						continue;
					}
					if (returned != null && i != returned) {
						continue;
					}
					if (call.args().get(i) instanceof Var arg && toParam.get(arg) != null) {
						toParam.put(a.var(), toParam.get(arg));
						break;
					}
				}
			}
		}.stmt(f.body());
		return toParam;
	}

	/** The Vars a body defines and the Vars it uses (pypto's VarDefUseCollector, return values ignored). */
	static final class DefUse {
		final Set<Var> defs = new HashSet<>();
		final Set<Var> uses = new HashSet<>();

		static DefUse of(Stmt body) {
			DefUse du = new DefUse();
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.Return) {
						return; // returned values are not uses the C++ needs
					}
					if (s instanceof Stmt.Assign a) {
						du.defs.add(a.var());
						expr(a.value());
						return;
					}
					if (s instanceof Stmt.For f) {
						du.defs.add(f.loopVar());
						du.defs.addAll(f.returnVars());
						for (IterArg a : f.iterArgs()) {
							du.defs.add(a);
							expr(a.init());
						}
						expr(f.start());
						expr(f.stop());
						expr(f.step());
						stmt(f.body());
						return;
					}
					if (s instanceof Stmt.While w) {
						du.defs.addAll(w.returnVars());
						for (IterArg a : w.iterArgs()) {
							du.defs.add(a);
							expr(a.init());
						}
						expr(w.condition());
						stmt(w.body());
						return;
					}
					if (s instanceof Stmt.If i) {
						du.defs.addAll(i.returnVars());
						expr(i.condition());
						stmt(i.then());
						stmt(i.orelse());
						return;
					}
					super.stmt(s);
				}

				@Override
				public void use(Var v) {
					du.uses.add(v);
				}

				@Override
				public void call(Expr.Call c) {
					super.call(c);
					attrs(c.attrs());
				}

				@Override
				public void submit(Expr.Submit s) {
					super.submit(s);
					attrs(s.attrs());
				}

				/** Vars named by attrs (deps, dump vars, a core count, a predicate) are uses too. */
				private void attrs(Map<String, Object> attrs) {
					for (Object v : attrs.values()) {
						if (v instanceof Expr e) {
							expr(e);
						} else if (v instanceof List<?> l) {
							for (Object o : l) {
								if (o instanceof Var var) {
									expr(var);
								}
							}
						}
					}
				}
			}.stmt(body);
			return du;
		}
	}
}
