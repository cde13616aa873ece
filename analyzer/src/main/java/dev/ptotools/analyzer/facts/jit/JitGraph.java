package dev.ptotools.analyzer.facts.jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The functions one {@code @pl.jit} entry compiles with (pypto's {@code JITFunction._get_dep_graph}): its
 * dependencies found by bare-name calls, transitively, in leaf-first order; the callers of each; the first
 * call site of each dependency in each caller; and the dynamic dimensions every function declares, with
 * those of a dependency cascaded to the caller's arguments.
 */
public final class JitGraph {

	/** Resolves a bare name in a function's body to a jit function, as its module globals would. */
	public interface Names {
		Function lookup(Function from, String name);

		JitKind kind(Function f);
	}

	/** The caller-side reference of a call argument: a name, a per-rank subscript {@code x[r]}, or null. */
	public sealed interface ArgRef {
	}

	public record NameRef(String name) implements ArgRef {
	}

	/** {@code base[i]} / {@code base[i, j]}: drops as many leading dims as there are non-slice indices. */
	public record SlicedRef(String base, int drop) implements ArgRef {
	}

	/** One argument of a call site: keyword is null for a positional argument; ref may be null. */
	public record CallArg(String keyword, ArgRef ref, Expr value) {
	}

	private final Function entry;
	private final Names names;
	private final List<Function> depsTopo = new ArrayList<>();
	private final IdentityHashMap<Function, List<Function>> callers = new IdentityHashMap<>();
	private final IdentityHashMap<Function, List<Function>> callees = new IdentityHashMap<>();
	private final Map<Function, Map<String, List<CallArg>>> callArgs = new IdentityHashMap<>();

	private JitGraph(Function entry, Names names) {
		this.entry = entry;
		this.names = names;
	}

	public static JitGraph of(Function entry, Names names) {
		JitGraph g = new JitGraph(entry, names);
		Set<Function> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		g.visit(entry, names.kind(entry), seen);
		return g;
	}

	private void visit(Function f, JitKind kind, Set<Function> seen) {
		List<Function> direct = discoverDeps(f, kind);
		callees.put(f, direct);
		for (Function dep : direct) {
			List<Function> cs = callers.computeIfAbsent(dep, k -> new ArrayList<>());
			if (!cs.contains(f)) {
				cs.add(f);
			}
			callArgs.computeIfAbsent(f, k -> new HashMap<>()).computeIfAbsent(dep.name(), n -> firstCallArgs(f, n));
			if (!seen.add(dep)) {
				continue;
			}
			visit(dep, names.kind(dep), seen);
			depsTopo.add(dep);
		}
	}

	/** pypto's {@code _discover_deps}: bare-name calls naming admissible jit functions, in walk order. */
	private List<Function> discoverDeps(Function f, JitKind callerKind) {
		List<Function> out = new ArrayList<>();
		Set<String> seenNames = new java.util.HashSet<>();
		for (Expr.Call c : PyWalk.calls(f.body())) {
			if (!(c.func() instanceof Expr.Name n) || !seenNames.add(n.id())) {
				continue;
			}
			Function target = names.lookup(f, n.id());
			JitKind k = target == null ? null : names.kind(target);
			if (k == null || k == JitKind.HOST || (k == JitKind.ORCHESTRATION && callerKind != JitKind.HOST)) {
				continue;
			}
			if (!out.contains(target)) {
				out.add(target);
			}
		}
		return out;
	}

	/** The arguments of the first call (in source position) of a dependency in a caller, or null. */
	private static List<CallArg> firstCallArgs(Function caller, String dep) {
		Expr.Call first = null;
		for (Expr.Call c : PyWalk.calls(caller.body())) {
			if (c.func() instanceof Expr.Name n && n.id().equals(dep)
					&& (first == null || c.span().start() < first.span().start())) {
				first = c;
			}
		}
		if (first == null) {
			return null;
		}
		List<CallArg> out = new ArrayList<>();
		for (Expr a : first.args()) {
			out.add(new CallArg(null, ref(a), a));
		}
		for (Expr.Keyword k : first.keywords()) {
			if (k.name() != null) {
				out.add(new CallArg(k.name(), ref(k.value()), k.value()));
			}
		}
		return out;
	}

	private static ArgRef ref(Expr a) {
		if (a instanceof Expr.Name n) {
			return new NameRef(n.id());
		}
		if (a instanceof Expr.Subscript s && s.value() instanceof Expr.Name base) {
			int drop = 0;
			for (Expr i : s.indices()) {
				if (!(i instanceof Expr.SliceExpr)) {
					drop++;
				}
			}
			if (drop > 0) {
				return new SlicedRef(base.id(), drop);
			}
		}
		return null;
	}

	public Function entry() {
		return entry;
	}

	/** Every reachable dependency, leaf first (the entry excluded). */
	public List<Function> depsTopo() {
		return List.copyOf(depsTopo);
	}

	/** The functions calling a dependency, in discovery order; the first one gives its metadata. */
	public List<Function> callers(Function dep) {
		return callers.getOrDefault(dep, List.of());
	}

	/** The dependencies a function calls directly. */
	public List<Function> callees(Function f) {
		return callees.getOrDefault(f, List.of());
	}

	/** The first call site of a dependency in a caller, or null when there is none. */
	public List<CallArg> callArgs(Function caller, String dep) {
		Map<String, List<CallArg>> m = callArgs.get(caller);
		return m == null ? null : m.get(dep);
	}

	/** pypto's {@code _build_param_mapping}: dep parameter to the caller's reference. */
	public static Map<String, CallArg> paramMapping(List<String> depParams, List<CallArg> args) {
		Map<String, CallArg> out = new LinkedHashMap<>();
		int pos = 0;
		for (CallArg a : args) {
			if (a.keyword() == null) {
				if (pos < depParams.size()) {
					out.put(depParams.get(pos), a);
				}
				pos++;
			} else {
				out.put(a.keyword(), a);
			}
		}
		return out;
	}

	/** The parameter names of a function as Python's signature lists them, without self. */
	public static List<String> paramNames(Function f) {
		List<String> out = new ArrayList<>();
		for (dev.ptotools.analyzer.ir.Param p : f.params()) {
			if (!p.name().equals("self")) {
				out.add(p.name());
			}
		}
		return out;
	}

	/**
	 * The dynamic dims of every function of the graph: its own declarations ({@code bind_dynamic}, a
	 * {@code pl.dynamic} symbol in a parameter annotation), then, leaf first, the dims each dependency
	 * declares cascaded to the caller argument bound to that parameter (the caller's own win).
	 */
	public Map<Function, Map<String, Map<Integer, DynDim>>> dynamicDims(DynDims.Evaluator eval) {
		Map<Function, Map<String, Map<Integer, DynDim>>> out = new IdentityHashMap<>();
		out.put(entry, DynDims.declared(entry, eval));
		for (Function dep : depsTopo) {
			out.put(dep, DynDims.declared(dep, eval));
		}
		for (Function dep : depsTopo) {
			Map<String, Map<Integer, DynDim>> depMap = out.get(dep);
			if (depMap.isEmpty()) {
				continue;
			}
			for (Function caller : callers(dep)) {
				List<CallArg> args = callArgs(caller, dep.name());
				Map<String, Map<Integer, DynDim>> callerMap = out.get(caller);
				if (args == null || callerMap == null) {
					continue;
				}
				Map<String, CallArg> mapping = paramMapping(paramNames(dep), args);
				for (Map.Entry<String, Map<Integer, DynDim>> e : depMap.entrySet()) {
					CallArg a = mapping.get(e.getKey());
					if (a == null || !(a.ref() instanceof NameRef n)) {
						continue;
					}
					Map<Integer, DynDim> target = callerMap.computeIfAbsent(n.name(), k -> new LinkedHashMap<>());
					for (Map.Entry<Integer, DynDim> d : e.getValue().entrySet()) {
						target.putIfAbsent(d.getKey(), d.getValue());
					}
				}
			}
		}
		return out;
	}

	/** Statements of a body in walk order (for scans that do not care about expression nodes). */
	static List<Stmt> statements(List<Stmt> body) {
		List<Stmt> out = new ArrayList<>();
		for (Object o : PyWalk.walk(body)) {
			if (o instanceof Stmt s) {
				out.add(s);
			}
		}
		return out;
	}
}
