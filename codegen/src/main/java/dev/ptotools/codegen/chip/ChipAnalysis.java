package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.ReturnLineage;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Function;

/**
 * What pypto computes over an orchestration body before emitting it: tuple-call keys and their
 * unpacked elements (OrchestrationInfoCollector), the parameter each body Var aliases
 * (VarLineageCollector), the Vars used anywhere but in the return (CodegenEffectiveUseCollector) and
 * the Vars the body defines.
 */
final class ChipAnalysis {

	record TupleElement(int index, OVar var) {
	}

	final Map<OVar, String> tupleKeys = new IdentityHashMap<>();
	final Map<String, List<TupleElement>> tupleElements = new HashMap<>();
	final Map<OVar, OVar> lineage = new IdentityHashMap<>();
	final Set<OVar> uses = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
	final List<OVar> defs = new ArrayList<>();
	private final CallResolution calls;
	private int tupleCounter;

	ChipAnalysis(List<OVar> params, OStmt body, CallResolution calls) {
		this.calls = calls;
		for (OVar p : params) {
			lineage.put(p, p);
		}
		visit(body);
	}

	private void visit(OStmt s) {
		if (s instanceof OStmt.Seq seq) {
			seq.stmts().forEach(this::visit);
		} else if (s instanceof OStmt.Scope sc) {
			visit(sc.body());
		} else if (s instanceof OStmt.Assign a) {
			assign(a);
			use(a.value());
			defs.add(a.var());
		} else if (s instanceof OStmt.Eval e) {
			use(e.value());
		} else if (s instanceof OStmt.For f) {
			for (int i = 0; i < f.iterArgs().size(); i++) {
				OVar it = f.iterArgs().get(i);
				OVar param = resolve(it.init);
				if (param != null) {
					lineage.put(it, param);
					if (i < f.returnVars().size() && f.returnVars().get(i).type instanceof OType.Tensor) {
						lineage.put(f.returnVars().get(i), param);
					}
				}
				use(it.init);
				defs.add(it);
			}
			defs.add(f.loopVar());
			use(f.start());
			use(f.stop());
			use(f.step());
			visit(f.body());
			defs.addAll(f.returnVars());
		} else if (s instanceof OStmt.If i) {
			use(i.condition());
			visit(i.then());
			if (i.orelse() != null) {
				visit(i.orelse());
			}
			defs.addAll(i.returnVars());
		} else if (s instanceof OStmt.Yield y) {
			y.values().forEach(this::use);
		}
		// Return: not an effective use (pypto skips ReturnStmt).
	}

	private void assign(OStmt.Assign a) {
		OExpr v = a.value();
		if (v instanceof OExpr.Call c && c.callee() != null && c.type() instanceof OType.Tuple) {
			tupleKeys.put(a.var(), "_tc_" + tupleCounter++);
		} else if (v instanceof OExpr.MakeTuple) {
			tupleKeys.put(a.var(), "_tc_" + tupleCounter++);
		} else if (v instanceof OExpr.TupleGet g) {
			String key = tupleKeys.get(g.tuple());
			if (key != null) {
				tupleElements.computeIfAbsent(key, k -> new ArrayList<>()).add(new TupleElement(g.index(), a.var()));
			}
		}
		if (v instanceof OExpr.Ref r) {
			OVar param = lineage.get(r.var());
			if (param != null) {
				lineage.put(a.var(), param);
			}
		} else if (v instanceof OExpr.Call c && c.callee() != null) {
			Function callee = c.callee();
			int returned = ReturnLineage.returnedParam(callee, calls);
			for (int i = 0; i < callee.params().size() && i < c.args().size(); i++) {
				Direction d = callee.params().get(i).direction();
				if (d == Direction.In || (returned >= 0 && i != returned)) {
					continue;
				}
				OVar param = resolve(c.args().get(i));
				if (param != null) {
					lineage.put(a.var(), param);
					break;
				}
			}
		}
	}

	private OVar resolve(OExpr e) {
		return e instanceof OExpr.Ref r ? lineage.get(r.var()) : null;
	}

	private void use(OExpr e) {
		if (e == null) {
			return;
		}
		if (e instanceof OExpr.Ref r) {
			uses.add(r.var());
		} else if (e instanceof OExpr.Binary b) {
			use(b.left());
			use(b.right());
		} else if (e instanceof OExpr.Unary u) {
			use(u.operand());
		} else if (e instanceof OExpr.Cast c) {
			use(c.operand());
		} else if (e instanceof OExpr.TupleGet t) {
			uses.add(t.tuple());
		} else if (e instanceof OExpr.MakeTuple m) {
			m.elements().forEach(this::use);
		} else if (e instanceof OExpr.Call c) {
			c.args().forEach(this::use);
		}
	}

	/** Lineage-mapped body Vars in a stable order (params first, then body order). */
	Map<OVar, OVar> orderedLineage() {
		return new LinkedHashMap<>(lineage);
	}
}
