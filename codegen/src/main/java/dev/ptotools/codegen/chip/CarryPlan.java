package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CallDirections.Arg;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.ReturnLineage;

/**
 * pypto's ClassifyIterArgCarry: a loop carry is trivial when the value the body yields is another
 * name for the iter arg's buffer (a kernel wrote it in place), and a rebind otherwise, which needs a
 * mutable C++ variable assigned at the yield.
 */
final class CarryPlan {

	private CarryPlan() {
	}

	/** Per iter arg of the loop, whether its carry is a rebind. */
	static List<Boolean> rebind(OStmt.For f, CallResolution calls) {
		Map<OVar, OVar> source = new IdentityHashMap<>();
		Map<OVar, OExpr> defs = new IdentityHashMap<>();
		List<OVar> roots = f.iterArgs();
		collect(f.body(), source, defs, roots, calls);
		OStmt.Yield y = lastYield(f.body());
		List<Boolean> out = new ArrayList<>();
		for (int i = 0; i < f.iterArgs().size(); i++) {
			OVar yielded = y != null && i < y.values().size() && y.values().get(i) instanceof OExpr.Ref r ? r.var() : null;
			out.add(yielded == null || root(yielded, source) != f.iterArgs().get(i));
		}
		return out;
	}

	private static OVar root(OVar v, Map<OVar, OVar> source) {
		OVar cur = v;
		for (int hops = 0; hops < 1000; hops++) {
			OVar next = source.get(cur);
			if (next == null) {
				return cur;
			}
			cur = next;
		}
		return cur;
	}

	private static void edge(OVar produced, OVar src, Map<OVar, OVar> source, List<OVar> roots) {
		if (produced == null || src == null || produced == src || roots.contains(produced)) {
			return;
		}
		source.putIfAbsent(produced, src);
	}

	private static void collect(OStmt s, Map<OVar, OVar> source, Map<OVar, OExpr> defs, List<OVar> roots,
			CallResolution calls) {
		if (s instanceof OStmt.Seq seq) {
			seq.stmts().forEach(x -> collect(x, source, defs, roots, calls));
		} else if (s instanceof OStmt.Scope sc) {
			collect(sc.body(), source, defs, roots, calls);
		} else if (s instanceof OStmt.If i) {
			collect(i.then(), source, defs, roots, calls);
			if (i.orelse() != null) {
				collect(i.orelse(), source, defs, roots, calls);
			}
		} else if (s instanceof OStmt.For f) {
			collect(f.body(), source, defs, roots, calls);
			for (int k = 0; k < f.iterArgs().size() && k < f.returnVars().size(); k++) {
				if (f.iterArgs().get(k).init instanceof OExpr.Ref r) {
					edge(f.returnVars().get(k), r.var(), source, roots);
				}
			}
		} else if (s instanceof OStmt.Assign a) {
			defs.put(a.var(), a.value());
			edge(a.var(), aliasSource(a.value(), defs, calls), source, roots);
		}
	}

	private static OVar aliasSource(OExpr value, Map<OVar, OExpr> defs, CallResolution calls) {
		if (value instanceof OExpr.TupleGet g) {
			if (!(defs.get(g.tuple()) instanceof OExpr.Call c) || c.callee() == null) {
				return null;
			}
			int seen = 0;
			for (int a = 0; a < c.directions().size() && a < c.args().size(); a++) {
				Arg d = c.directions().get(a);
				if (d != Arg.OUTPUT_EXISTING && d != Arg.IN_OUT && d != Arg.OUTPUT) {
					continue;
				}
				if (seen == g.index()) {
					return c.args().get(a) instanceof OExpr.Ref r ? r.var() : null;
				}
				seen++;
			}
			return null;
		}
		if (!(value instanceof OExpr.Call c)) {
			return null;
		}
		if (c.isOp("tensor.assemble") && !c.args().isEmpty()) {
			return c.args().get(0) instanceof OExpr.Ref r ? r.var() : null;
		}
		if (c.callee() == null) {
			return null;
		}
		int returned = ReturnLineage.returnedParam(c.callee(), calls);
		for (int a = 0; a < c.directions().size() && a < c.args().size(); a++) {
			Arg d = c.directions().get(a);
			if (d != Arg.OUTPUT_EXISTING && d != Arg.IN_OUT) {
				continue;
			}
			if (returned >= 0 && a != returned) {
				continue;
			}
			return c.args().get(a) instanceof OExpr.Ref r ? r.var() : null;
		}
		return null;
	}

	private static OStmt.Yield lastYield(OStmt body) {
		OStmt inner = body instanceof OStmt.Scope s ? s.body() : body;
		if (inner instanceof OStmt.Seq seq) {
			for (int k = seq.stmts().size() - 1; k >= 0; k--) {
				if (seq.stmts().get(k) instanceof OStmt.Yield y) {
					return y;
				}
			}
		}
		return inner instanceof OStmt.Yield y ? y : null;
	}
}
