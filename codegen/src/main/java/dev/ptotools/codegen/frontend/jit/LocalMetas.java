package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.facts.jit.JitParams;
import dev.ptotools.analyzer.facts.jit.PyWalk;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The tensor metadata of a caller's locals at the first call of a dependency (pypto's
 * {@code _extract_local_tensor_metas}): the body is walked in source order up to the statement that calls
 * the dependency, following {@code pl.create_tensor}, {@code pl.slice}, subscript slices,
 * {@code pl.reshape}, {@code pld.window}, the outputs of other dependency calls, and
 * {@code pl.tensor.dim} aliases; any other rebinding of a name drops what was known of it.
 */
final class LocalMetas {

	private final Map<String, TensorMeta> local;
	private final Map<String, Object> globals;
	private final Map<String, Object> scalars;
	private final Map<String, List<Object>> dimAliases = new HashMap<>();
	private final Map<String, List<Object>> dynvarAnchors = new HashMap<>();
	/** Dependency name to (parameter names, Out/InOut parameter names in order). */
	private final Map<String, List<List<String>>> depIo = new HashMap<>();

	private LocalMetas(Map<String, TensorMeta> seed, Map<String, Object> scalars, Map<String, Object> globals) {
		this.local = new LinkedHashMap<>(seed);
		this.scalars = scalars;
		this.globals = globals;
		for (Map.Entry<String, TensorMeta> e : seed.entrySet()) {
			List<Object> shape = e.getValue().shape();
			for (int i = 0; i < shape.size(); i++) {
				if (shape.get(i) instanceof DynDim d) {
					dynvarAnchors.putIfAbsent(d.name(), List.of(e.getKey(), i));
				}
			}
		}
	}

	/**
	 * The metas visible at the first call of {@code stopAtDep} in {@code caller} (the whole body when
	 * stopAtDep is null), starting from the caller's parameter metas.
	 */
	static Map<String, TensorMeta> extract(Function caller, JitKind callerKind, Map<String, TensorMeta> seed,
			Map<String, Object> seedScalars, Map<String, Object> globals, JitGraph.Names names, String stopAtDep) {
		LocalMetas m = new LocalMetas(seed, seedScalars, globals);
		for (Function dep : discoverDeps(caller, callerKind, names)) {
			List<String> params = JitGraph.paramNames(dep);
			List<String> outs = new ArrayList<>();
			for (JitParams.ParamClass c : JitParams.of(dep)) {
				if (c.out() || c.inout()) {
					outs.add(c.name());
				}
			}
			m.depIo.put(dep.name(), List.of(params, outs));
		}
		m.walk(caller.body(), stopAtDep);
		return m.local;
	}

	/** pypto's {@code _discover_deps} for one caller. */
	static List<Function> discoverDeps(Function f, JitKind callerKind, JitGraph.Names names) {
		List<Function> out = new ArrayList<>();
		java.util.Set<String> seen = new java.util.HashSet<>();
		for (Expr.Call c : PyWalk.calls(f.body())) {
			if (c.func() instanceof Expr.Name n && seen.add(n.id())) {
				Function t = names.lookup(f, n.id());
				JitKind k = t == null ? null : names.kind(t);
				if (k != null && k != JitKind.HOST && (k != JitKind.ORCHESTRATION || callerKind == JitKind.HOST)
						&& !out.contains(t)) {
					out.add(t);
				}
			}
		}
		return out;
	}

	private boolean walk(List<Stmt> body, String stop) {
		for (Stmt s : body) {
			if (callsDep(s, stop)) {
				return true;
			}
			update(s);
			for (List<Stmt> nested : nested(s)) {
				if (walk(nested, stop)) {
					return true;
				}
			}
		}
		return false;
	}

	/** The bodies pypto's walk descends into: body, orelse, finalbody. */
	private static List<List<Stmt>> nested(Stmt s) {
		if (s instanceof Stmt.For f) {
			return List.of(f.body(), f.orelse());
		}
		if (s instanceof Stmt.While w) {
			return List.of(w.body(), w.orelse());
		}
		if (s instanceof Stmt.If i) {
			return List.of(i.body(), i.orelse());
		}
		if (s instanceof Stmt.With w) {
			return List.of(w.body());
		}
		return List.of();
	}

	/** Whether a statement's own expressions (not its nested bodies) call the dependency. */
	private static boolean callsDep(Stmt s, String dep) {
		if (dep == null) {
			return false;
		}
		List<Expr> own = new ArrayList<>(dev.ptotools.analyzer.ir.Walk.ownExpressions(s));
		for (Expr e : own) {
			for (Expr.Call c : dev.ptotools.analyzer.ir.Walk.calls(e)) {
				if (c.func() instanceof Expr.Name n && n.id().equals(dep)) {
					return true;
				}
			}
		}
		return false;
	}

	private void update(Stmt s) {
		if (!(s instanceof Stmt.Assign a)) {
			return;
		}
		List<Expr> targets = a.targets();
		Expr value = a.value();
		boolean named = targets.stream().anyMatch(t -> t instanceof Expr.Name);
		TensorMeta meta = null;
		boolean preserve = false;
		List<Map<String, TensorMeta>> depTargets = new ArrayList<>();
		for (int i = 0; i < targets.size(); i++) {
			depTargets.add(Map.of());
		}
		if (value instanceof Expr.Subscript sub && named) {
			meta = subscriptMeta(sub);
		} else if (value instanceof Expr.Name n && named) {
			meta = local.get(n.id());
		} else if (value instanceof Expr.Call c) {
			if (c.func() instanceof Expr.Attribute fa && fa.value() instanceof Expr.Name && named) {
				switch (fa.attr()) {
				case "create_tensor" -> meta = createTensor(c);
				case "slice" -> meta = slice(c);
				case "window" -> meta = window(c);
				case "reshape" -> meta = reshape(c);
				default -> preserve = true;
				}
			} else if (c.func() instanceof Expr.Name fn && depIo.containsKey(fn.id())) {
				depTargets.clear();
				for (Expr t : targets) {
					depTargets.add(depOutMetas(c, fn.id(), t));
				}
				preserve = true;
			}
		}
		List<Object> alias = dimAlias(value);
		for (int i = 0; i < targets.size(); i++) {
			local.putAll(depTargets.get(i));
			if (!(targets.get(i) instanceof Expr.Name n)) {
				continue;
			}
			if (meta != null) {
				local.put(n.id(), meta);
			} else if (value != null && !preserve) {
				local.remove(n.id());
			}
			if (value != null) {
				if (alias == null) {
					dimAliases.remove(n.id());
				} else {
					dimAliases.put(n.id(), alias);
				}
			}
		}
	}

	/** {@code pl.tensor.dim(P, k)} written with the name pl: (P, k). */
	private static List<Object> dimAlias(Expr value) {
		if (value instanceof Expr.Call c && c.func() instanceof Expr.Attribute fa && fa.attr().equals("dim")
				&& fa.value() instanceof Expr.Attribute t && t.attr().equals("tensor") && t.value() instanceof Expr.Name pl
				&& pl.id().equals("pl") && c.args().size() >= 2 && c.args().get(0) instanceof Expr.Name src
				&& c.args().get(1) instanceof Expr.Literal l && l.value() instanceof Long k) {
			return List.of(src.id(), k.intValue());
		}
		return null;
	}

	private Map<String, TensorMeta> depOutMetas(Expr.Call call, String dep, Expr target) {
		List<String> params = depIo.get(dep).get(0);
		List<String> outs = depIo.get(dep).get(1);
		List<String> targetNames = new ArrayList<>();
		if (target instanceof Expr.Name n) {
			targetNames.add(n.id());
		} else if (target instanceof Expr.TupleExpr t && t.elts().stream().allMatch(e -> e instanceof Expr.Name)) {
			for (Expr e : t.elts()) {
				targetNames.add(((Expr.Name) e).id());
			}
		} else {
			return Map.of();
		}
		if (outs.isEmpty() || targetNames.size() != outs.size()) {
			return Map.of();
		}
		Map<String, String> mapping = new HashMap<>();
		for (int i = 0; i < call.args().size() && i < params.size(); i++) {
			mapping.put(params.get(i), call.args().get(i) instanceof Expr.Name n ? n.id() : null);
		}
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() != null) {
				mapping.put(k.name(), k.value() instanceof Expr.Name n ? n.id() : null);
			}
		}
		Map<String, TensorMeta> out = new LinkedHashMap<>();
		for (int i = 0; i < targetNames.size(); i++) {
			String arg = mapping.get(outs.get(i));
			if (arg != null && local.containsKey(arg)) {
				out.put(targetNames.get(i), local.get(arg));
			}
		}
		return out;
	}

	// ---- shapes ---------------------------------------------------------------------------------

	/** A shape element: a Long, a DynDim, or null when not static. */
	private Object shapeElt(Expr e) {
		if (e instanceof Expr.Literal l && (l.value() instanceof Long || l.value() instanceof Boolean)) {
			return l.value() instanceof Boolean b ? (Object) (b ? 1L : 0L) : l.value();
		}
		if (e instanceof Expr.Name n) {
			List<Object> alias = dimAliases.get(n.id());
			if (alias != null) {
				TensorMeta src = local.get((String) alias.get(0));
				int k = (Integer) alias.get(1);
				if (src != null && k < src.rank()) {
					return src.shape().get(k);
				}
			}
			List<Object> anchor = dynvarAnchors.get(n.id());
			if (anchor != null) {
				TensorMeta src = local.get((String) anchor.get(0));
				int k = (Integer) anchor.get(1);
				if (src != null && k < src.rank() && src.shape().get(k) instanceof DynDim d) {
					return d;
				}
			}
			Object v = globals.containsKey(n.id()) ? globals.get(n.id()) : scalars.get(n.id());
			return v instanceof Long ? v : null;
		}
		if (e instanceof Expr.BinOp b) {
			Object l = shapeElt(b.left());
			Object r = shapeElt(b.right());
			if (l instanceof Long x && r instanceof Long y) {
				return switch (b.op()) {
				case "+" -> x + y;
				case "-" -> x - y;
				case "*" -> x * y;
				case "//" -> y == 0 ? null : Math.floorDiv(x, y);
				case "%" -> y == 0 ? null : Math.floorMod(x, y);
				case "**" -> y >= 0 ? (Object) (long) Math.pow(x, y) : null;
				default -> null;
				};
			}
			return null;
		}
		if (e instanceof Expr.UnaryOp u) {
			Object v = shapeElt(u.operand());
			if (!(v instanceof Long x)) {
				return null;
			}
			return u.op().equals("-") ? (Object) (-x) : u.op().equals("+") ? x : null;
		}
		return null;
	}

	private Long intElt(Expr e) {
		return shapeElt(e) instanceof Long l ? l : null;
	}

	private List<Object> shape(Expr node) {
		if (!(node instanceof Expr.ListExpr l)) {
			return null;
		}
		List<Object> dims = new ArrayList<>();
		for (Expr e : l.elts()) {
			Object v = shapeElt(e);
			if (v == null) {
				return null;
			}
			dims.add(v);
		}
		return dims;
	}

	private static String dtypeKeyword(Expr.Call c) {
		for (Expr.Keyword k : c.keywords()) {
			if ("dtype".equals(k.name()) && k.value() instanceof Expr.Attribute a && a.value() instanceof Expr.Name
					&& dev.ptotools.codegen.types.DType.named(a.attr()) != null) {
				return a.attr();
			}
		}
		return null;
	}

	private TensorMeta createTensor(Expr.Call c) {
		List<Object> s = c.args().isEmpty() ? null : shape(c.args().get(0));
		String dt = dtypeKeyword(c);
		return s == null || dt == null ? null : new TensorMeta(s, dt, null);
	}

	private TensorMeta window(Expr.Call c) {
		List<Object> s = c.args().size() >= 2 ? shape(c.args().get(1)) : null;
		String dt = dtypeKeyword(c);
		return s == null || dt == null ? null : new TensorMeta(s, dt, null);
	}

	private static Expr positionalOr(Expr.Call c, int i, String keyword) {
		if (c.args().size() > i) {
			return c.args().get(i);
		}
		Expr.Keyword k = c.keyword(keyword);
		return k == null ? null : k.value();
	}

	private TensorMeta reshape(Expr.Call c) {
		Expr src = c.args().isEmpty() ? (c.keyword("input") == null ? null : c.keyword("input").value()) : c.args().get(0);
		if (!(src instanceof Expr.Name n) || !local.containsKey(n.id())) {
			return null;
		}
		TensorMeta srcMeta = local.get(n.id());
		Expr shapeNode = positionalOr(c, 1, "shape");
		List<Object> s = shapeNode == null ? null : shape(shapeNode);
		if (s == null || srcMeta.layout() != null && !srcMeta.layout().equals("ND")) {
			return null;
		}
		return new TensorMeta(s, srcMeta.dtype(), null);
	}

	private TensorMeta slice(Expr.Call c) {
		Expr src = c.args().isEmpty() ? null : c.args().get(0);
		if (!(src instanceof Expr.Name n) || !local.containsKey(n.id())) {
			return null;
		}
		TensorMeta srcMeta = local.get(n.id());
		Expr shapeNode = positionalOr(c, 1, "shape");
		if (!(shapeNode instanceof Expr.ListExpr l) || l.elts().size() != srcMeta.rank()) {
			return null;
		}
		List<Object> dims = new ArrayList<>();
		for (int i = 0; i < l.elts().size(); i++) {
			Long v = intElt(l.elts().get(i));
			dims.add(v != null ? v : srcMeta.shape().get(i));
		}
		return new TensorMeta(dims, srcMeta.dtype(), srcMeta.layout());
	}

	/** {@code src[a:b, i, ...]}: stop - start per slice dim, a scalar index drops its dim. */
	private TensorMeta subscriptMeta(Expr.Subscript sub) {
		if (!(sub.value() instanceof Expr.Name n) || !local.containsKey(n.id())) {
			return null;
		}
		TensorMeta srcMeta = local.get(n.id());
		List<Expr> indices = sub.indices();
		if (indices.size() > srcMeta.rank()) {
			return null;
		}
		List<Object> dims = new ArrayList<>();
		for (int d = 0; d < indices.size(); d++) {
			if (!(indices.get(d) instanceof Expr.SliceExpr s)) {
				continue;
			}
			if (s.step() != null) {
				return null;
			}
			Long start = s.lower() == null ? Long.valueOf(0) : intElt(s.lower());
			Object parent = srcMeta.shape().get(d);
			Long extent = null;
			if (s.upper() == null) {
				extent = parent instanceof Long p && start != null ? p - start : null;
			} else {
				Long stop = intElt(s.upper());
				extent = start != null && stop != null ? stop - start : null;
			}
			dims.add(extent != null ? extent : parent);
		}
		dims.addAll(srcMeta.shape().subList(indices.size(), srcMeta.rank()));
		return new TensorMeta(dims, srcMeta.dtype(), srcMeta.layout());
	}
}
