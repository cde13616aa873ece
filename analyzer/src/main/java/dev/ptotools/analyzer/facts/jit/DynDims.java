package dev.ptotools.analyzer.facts.jit;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;

/**
 * The dimensions a jit function declares dynamic itself (pypto's {@code _build_dyndim_map_for_func}):
 * {@code p.bind_dynamic(k, M)} statements in its body, and {@code pl.dynamic} symbols in its parameter
 * annotations; the {@code pl.dynamic("...")} string of each symbol comes from a body assignment
 * {@code M = pl.dynamic("LIT")} when there is one.
 */
public final class DynDims {

	/** Folds an annotation's shape element (a module constant, a {@code pl.dynamic} symbol...). */
	public interface Evaluator {
		Object eval(Expr e);
	}

	private DynDims() {
	}

	/** Parameter name to dim index to its dynamic dim (bound 0: the extent comes with each call). */
	public static Map<String, Map<Integer, DynDim>> declared(Function f, Evaluator eval) {
		List<String> params = JitGraph.paramNames(f);
		Map<List<Object>, String> bound = bindDynamic(f, params);
		Map<String, String> literals = dynvarLiterals(f.body());
		Map<String, Map<Integer, DynDim>> out = new LinkedHashMap<>();
		for (Map.Entry<List<Object>, String> e : bound.entrySet()) {
			String dv = e.getValue();
			out.computeIfAbsent((String) e.getKey().get(0), k -> new LinkedHashMap<>()).put((Integer) e.getKey().get(1),
					new DynDim(dv, literals.getOrDefault(dv, dv), 0));
		}
		for (Param p : f.params()) {
			if (!params.contains(p.name()) || !(p.type() instanceof TypeSpec.Tensor t) || t.shape() == null) {
				continue;
			}
			for (int i = 0; i < t.shape().size(); i++) {
				if (eval.eval(t.shape().get(i)) instanceof Values.DynVar dv) {
					Map<Integer, DynDim> per = out.computeIfAbsent(p.name(), k -> new LinkedHashMap<>());
					if (!per.containsKey(i)) {
						per.put(i, new DynDim(dv.name(), literals.getOrDefault(dv.name(), dv.name()), 0));
					}
				}
			}
		}
		return out;
	}

	/** {@code p.bind_dynamic(<int>, <Name>)} statements: (param, dim) to the symbol's Python name. */
	private static Map<List<Object>, String> bindDynamic(Function f, List<String> params) {
		Map<List<Object>, String> out = new LinkedHashMap<>();
		for (Stmt s : JitGraph.statements(f.body())) {
			if (s instanceof Stmt.ExprStmt es && es.value() instanceof Expr.Call c
					&& c.func() instanceof Expr.Attribute a && a.attr().equals("bind_dynamic")
					&& a.value() instanceof Expr.Name p && params.contains(p.id()) && c.args().size() >= 2
					&& c.args().get(0) instanceof Expr.Literal l && l.value() instanceof Long dim
					&& c.args().get(1) instanceof Expr.Name dv) {
				out.put(List.of(p.id(), dim.intValue()), dv.id());
			}
		}
		return out;
	}

	/** Whether a call is {@code pl.dynamic(...)} or {@code dynamic(...)}, spelled as pypto's JIT looks for it. */
	public static boolean isDynamicCall(Expr e) {
		if (!(e instanceof Expr.Call c)) {
			return false;
		}
		return c.func() instanceof Expr.Attribute a && a.attr().equals("dynamic") && a.value() instanceof Expr.Name n
				&& n.id().equals("pl") || c.func() instanceof Expr.Name n2 && n2.id().equals("dynamic");
	}

	/** {@code M = pl.dynamic("LIT")} in a body: Python name to its literal (the name itself without one). */
	public static Map<String, String> dynvarLiterals(List<Stmt> body) {
		Map<String, String> out = new HashMap<>();
		for (Stmt s : JitGraph.statements(body)) {
			if (s instanceof Stmt.Assign a && a.annotation() == null && isDynamicCall(a.value())) {
				Expr.Call c = (Expr.Call) a.value();
				String lit = !c.args().isEmpty() && c.args().get(0) instanceof Expr.Literal l
						&& l.value() instanceof String str ? str : null;
				for (Expr t : a.targets()) {
					if (t instanceof Expr.Name n) {
						out.put(n.id(), lit != null ? lit : n.id());
					}
				}
			}
		}
		return out;
	}
}
