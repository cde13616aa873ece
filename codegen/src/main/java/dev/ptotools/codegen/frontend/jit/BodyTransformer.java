package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.DynDims;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * A jit function body rewritten for the program (pypto's {@code _BodyTransformer}), statement by
 * statement: {@code bind_dynamic} and {@code pl.dynamic} statements deleted, {@code p.shape} / {@code p.dtype}
 * inlined (a dynamic dim read as {@code pl.tensor.dim(p, k)}), scalar parameters and module int/float/bool
 * constants substituted, dependency calls made {@code self.dep(...)} with their keywords positional, and
 * same-depth rebindings renamed {@code x_v1, x_v2...} with bridges before loops for carried names. Every
 * node keeps the span of the user's code it comes from.
 */
final class BodyTransformer {

	private final Map<String, TensorMeta> meta;
	private final Map<String, Object> scalars;
	private final Set<String> depNames;
	private final Map<String, Object> globals;
	private final Map<String, List<String>> depParams;
	private final Map<String, List<Object>> dynvarAnchors = new LinkedHashMap<>();
	private final Map<String, Long> shapeInlined = new HashMap<>();
	private final Map<String, Integer> assignCount = new HashMap<>();
	private final Map<String, String> renames = new HashMap<>();
	private final Map<String, String> aliasToOriginal = new LinkedHashMap<>();
	private final Map<String, Integer> assignDepth = new HashMap<>();
	private final Set<String> usedNames = new LinkedHashSet<>();
	private int depth;

	BodyTransformer(Map<String, TensorMeta> meta, Map<String, Object> scalars, Set<String> depNames,
			List<String> paramNames, Set<String> initialUsed, Map<String, Object> globals,
			Map<String, List<String>> depParams) {
		this.meta = meta;
		this.scalars = scalars;
		this.depNames = depNames;
		this.globals = globals;
		this.depParams = depParams;
		for (Map.Entry<String, TensorMeta> e : meta.entrySet()) {
			List<Object> shape = e.getValue().shape();
			for (int i = 0; i < shape.size(); i++) {
				if (shape.get(i) instanceof DynDim d) {
					dynvarAnchors.putIfAbsent(d.name(), List.of(e.getKey(), i));
				}
			}
		}
		for (String p : paramNames) {
			assignCount.put(p, 1);
			assignDepth.put(p, 0);
		}
		usedNames.addAll(initialUsed);
		usedNames.addAll(paramNames);
	}

	/** Alias to the user's name ({@code x_v1} to {@code x}), for error messages. */
	Map<String, String> renameMap() {
		return Map.copyOf(aliasToOriginal);
	}

	/** The function body: each top-level statement transformed (deleted ones dropped); pass when empty. */
	List<Stmt> body(List<Stmt> body, Span fnSpan) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : body) {
			out.addAll(stmt(s));
		}
		if (!out.isEmpty() && out.get(0) instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l
				&& l.value() instanceof String doc && doc.contains("\n") && !doc.contains("\\")
				&& !doc.contains("\"\"\"")) {
			// pypto writes the docstring verbatim in triple quotes and then indents every generated line
			// into the class body, the docstring's own lines included.
			out.set(0, new Stmt.ExprStmt(Synth.literal(doc.replace("\n", "\n    "), l.span()), e.span()));
		}
		return out.isEmpty() ? List.of(new Stmt.Pass(fnSpan)) : out;
	}

	// ---- bookkeeping ----------------------------------------------------------------------------

	private void recordFirstAssign(String name) {
		if (!assignCount.containsKey(name)) {
			assignCount.put(name, 1);
			assignDepth.put(name, depth);
		}
		usedNames.add(name);
	}

	private String rebind(String name) {
		int count = assignCount.get(name);
		String fresh = name + "_v" + count;
		while (usedNames.contains(fresh)) {
			count++;
			fresh = name + "_v" + count;
		}
		assignCount.put(name, count + 1);
		renames.put(name, fresh);
		aliasToOriginal.put(fresh, name);
		usedNames.add(fresh);
		return fresh;
	}

	private void forget(String name) {
		assignCount.remove(name);
		assignDepth.remove(name);
		renames.remove(name);
	}

	// ---- statements -----------------------------------------------------------------------------

	private List<Stmt> stmt(Stmt s) {
		if (s instanceof Stmt.ExprStmt e) {
			if (e.value() instanceof Expr.Call c && c.func() instanceof Expr.Attribute a && a.attr().equals("bind_dynamic")
					&& a.value() instanceof Expr.Name p && meta.containsKey(p.id())) {
				return List.of();
			}
			return List.of(new Stmt.ExprStmt(expr(e.value()), e.span()));
		}
		if (s instanceof Stmt.Assign a && a.annotation() != null) {
			return List.of(annAssign(a));
		}
		if (s instanceof Stmt.Assign a) {
			return assign(a);
		}
		if (s instanceof Stmt.AugAssign a) {
			return List.of(new Stmt.AugAssign(target(a.target()), a.op(), expr(a.value()), a.span()));
		}
		if (s instanceof Stmt.For f) {
			return forLoop(f);
		}
		if (s instanceof Stmt.While w) {
			return List.of(new Stmt.While(expr(w.test()), flat(w.body()), flat(w.orelse()), w.span(), w.headerSpan()));
		}
		if (s instanceof Stmt.If i) {
			return List.of(ifStmt(i));
		}
		if (s instanceof Stmt.With w) {
			List<Stmt.WithItem> items = new ArrayList<>();
			for (Stmt.WithItem item : w.items()) {
				items.add(new Stmt.WithItem(expr(item.context()), item.target() == null ? null : target(item.target())));
			}
			depth++;
			List<Stmt> body = scoped(w.body(), w.span());
			depth--;
			return List.of(new Stmt.With(items, body, w.span(), w.headerSpan()));
		}
		if (s instanceof Stmt.Return r) {
			return List.of(new Stmt.Return(r.value() == null ? null : expr(r.value()), r.span()));
		}
		return List.of(s);
	}

	/** A statement list visited in place (no new scope): what a while body gets. */
	private List<Stmt> flat(List<Stmt> body) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : body) {
			out.addAll(stmt(s));
		}
		return out;
	}

	/** A nested body: its statements visited, pass when nothing is left. */
	private List<Stmt> scoped(List<Stmt> body, Span span) {
		List<Stmt> out = flat(body);
		return out.isEmpty() ? List.of(new Stmt.Pass(span)) : out;
	}

	private List<Stmt> assign(Stmt.Assign a) {
		if (DynDims.isDynamicCall(a.value())) {
			return List.of();
		}
		if (a.targets().size() == 1 && a.targets().get(0) instanceof Expr.TupleExpr t
				&& a.value() instanceof Expr.Attribute at && at.attr().equals("shape") && at.value() instanceof Expr.Name p
				&& meta.containsKey(p.id()) && t.elts().size() == meta.get(p.id()).rank()) {
			TensorMeta m = meta.get(p.id());
			List<Stmt> out = new ArrayList<>();
			for (int i = 0; i < t.elts().size(); i++) {
				if (!(t.elts().get(i) instanceof Expr.Name target)) {
					continue;
				}
				if (m.shape().get(i) instanceof DynDim) {
					String lhs = target.id();
					if (assignCount.containsKey(lhs)) {
						lhs = rebind(lhs);
					} else {
						recordFirstAssign(lhs);
					}
					out.add(new Stmt.Assign(List.of(Synth.name(lhs, target.span())), Synth.tensorDim(p.id(), i, a.span()),
							null, a.span()));
				} else {
					recordFirstAssign(target.id());
					shapeInlined.put(target.id(), (Long) m.shape().get(i));
				}
			}
			return out;
		}
		if (a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name target
				&& a.value() instanceof Expr.Subscript sub && sub.value() instanceof Expr.Attribute at
				&& at.attr().equals("shape") && at.value() instanceof Expr.Name p && meta.containsKey(p.id())
				&& sub.indices().size() == 1 && sub.indices().get(0) instanceof Expr.Literal l && l.value() instanceof Long k) {
			Object dim = meta.get(p.id()).shape().get(k.intValue());
			if (!(dim instanceof DynDim)) {
				shapeInlined.put(target.id(), (Long) dim);
				recordFirstAssign(target.id());
				return List.of();
			}
		}
		if (a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name target) {
			return List.of(simpleAssign(a, target));
		}
		List<Expr> targets = new ArrayList<>();
		for (Expr t : a.targets()) {
			targets.add(target(t));
		}
		return List.of(new Stmt.Assign(targets, expr(a.value()), null, a.span()));
	}

	private Stmt simpleAssign(Stmt.Assign a, Expr.Name target) {
		String var = target.id();
		Expr value = expr(a.value());
		if (assignCount.containsKey(var)) {
			if (depth == assignDepth.get(var)) {
				String fresh = rebind(var);
				return new Stmt.Assign(List.of(Synth.name(fresh, target.span())), value, null, a.span());
			}
			Expr lhs = renames.containsKey(var) ? Synth.name(renames.get(var), target.span()) : target;
			return new Stmt.Assign(List.of(lhs), value, null, a.span());
		}
		recordFirstAssign(var);
		return new Stmt.Assign(List.of(target), value, null, a.span());
	}

	private Stmt annAssign(Stmt.Assign a) {
		if (a.value() == null || a.targets().size() != 1 || !(a.targets().get(0) instanceof Expr.Name target)) {
			List<Expr> targets = new ArrayList<>();
			for (Expr t : a.targets()) {
				targets.add(target(t));
			}
			return new Stmt.Assign(targets, a.value() == null ? null : expr(a.value()), expr(a.annotation()), a.span());
		}
		String var = target.id();
		Expr value = expr(a.value());
		Expr annotation = expr(a.annotation());
		if (assignCount.containsKey(var)) {
			if (depth == assignDepth.get(var)) {
				String fresh = rebind(var);
				return new Stmt.Assign(List.of(Synth.name(fresh, target.span())), value, annotation, a.span());
			}
		} else {
			recordFirstAssign(var);
		}
		return new Stmt.Assign(List.of(target), value, annotation, a.span());
	}

	private List<Stmt> forLoop(Stmt.For f) {
		Expr iter = expr(f.iter());
		depth++;
		List<List<String>> classified = LoopLocals.classify(f.body(), assignCount, assignDepth, depth);
		depth--;
		List<Stmt> out = new ArrayList<>();
		for (String var : classified.get(0)) {
			String current = renames.getOrDefault(var, var);
			String fresh = rebind(var);
			assignDepth.put(var, depth);
			out.add(new Stmt.Assign(List.of(Synth.name(fresh, f.span())), Synth.name(current, f.span()), null, f.span()));
		}
		for (String var : classified.get(1)) {
			forget(var);
		}
		depth++;
		List<Stmt> body = scoped(f.body(), f.span());
		depth--;
		out.add(new Stmt.For(f.target(), iter, body, f.orelse(), f.span(), f.headerSpan(), f.keywordSpan()));
		return out;
	}

	private Stmt ifStmt(Stmt.If i) {
		Expr test = expr(i.test());
		depth++;
		Set<String> before = new java.util.HashSet<>(assignCount.keySet());
		List<Stmt> body = scoped(i.body(), i.span());
		List<Stmt> orelse = i.orelse();
		if (!orelse.isEmpty()) {
			for (String name : new ArrayList<>(assignCount.keySet())) {
				if (!before.contains(name)) {
					forget(name);
				}
			}
			orelse = scoped(orelse, i.span());
		}
		depth--;
		boolean elif = i.elif();
		return new Stmt.If(test, body, orelse, elif, i.span(), i.headerSpan());
	}

	// ---- expressions ----------------------------------------------------------------------------

	/** A target: names stay (they are stores); the bases of subscripts and attributes are reads. */
	private Expr target(Expr t) {
		if (t instanceof Expr.Name) {
			return t;
		}
		if (t instanceof Expr.TupleExpr tu) {
			return new Expr.TupleExpr(tu.elts().stream().map(this::target).toList(), tu.span());
		}
		if (t instanceof Expr.ListExpr l) {
			return new Expr.ListExpr(l.elts().stream().map(this::target).toList(), l.span());
		}
		if (t instanceof Expr.Starred s) {
			return new Expr.Starred(target(s.value()), s.span());
		}
		if (t instanceof Expr.Subscript s) {
			return new Expr.Subscript(expr(s.value()), s.indices().stream().map(this::expr).toList(), s.span());
		}
		if (t instanceof Expr.Attribute a) {
			return new Expr.Attribute(expr(a.value()), a.attr(), a.span(), a.attrSpan());
		}
		return expr(t);
	}

	Expr expr(Expr e) {
		if (e == null) {
			return null;
		}
		if (e instanceof Expr.Name n) {
			return name(n);
		}
		if (e instanceof Expr.Attribute a) {
			if (a.value() instanceof Expr.Name p && meta.containsKey(p.id())) {
				if (a.attr().equals("shape")) {
					return shapeTuple(p.id(), a.span());
				}
				if (a.attr().equals("dtype")) {
					return Synth.dotted("pl." + meta.get(p.id()).dtype(), a.span());
				}
			}
			if (a.value() instanceof Expr.Name m && !usedNames.contains(m.id()) && !renames.containsKey(m.id())) {
				Object v = globals.get(m.id() + "." + a.attr()); // an imported module's constant (cfg.COLS)
				if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
					return Synth.constant(v, a.span());
				}
			}
			return new Expr.Attribute(expr(a.value()), a.attr(), a.span(), a.attrSpan());
		}
		if (e instanceof Expr.Subscript s) {
			if (s.value() instanceof Expr.Attribute a && a.attr().equals("shape") && a.value() instanceof Expr.Name p
					&& meta.containsKey(p.id()) && s.indices().size() == 1 && s.indices().get(0) instanceof Expr.Literal l
					&& l.value() instanceof Long k) {
				return shapeDim(p.id(), k.intValue(), s.span());
			}
			return new Expr.Subscript(expr(s.value()), s.indices().stream().map(this::expr).toList(), s.span());
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		if (e instanceof Expr.Literal) {
			return e;
		}
		if (e instanceof Expr.BinOp b) {
			return new Expr.BinOp(b.op(), expr(b.left()), expr(b.right()), b.span());
		}
		if (e instanceof Expr.UnaryOp u) {
			return new Expr.UnaryOp(u.op(), expr(u.operand()), u.span());
		}
		if (e instanceof Expr.Compare c) {
			return new Expr.Compare(expr(c.left()), c.ops(), c.comparators().stream().map(this::expr).toList(), c.span());
		}
		if (e instanceof Expr.BoolOp b) {
			return new Expr.BoolOp(b.op(), b.values().stream().map(this::expr).toList(), b.span());
		}
		if (e instanceof Expr.Conditional c) {
			return new Expr.Conditional(expr(c.test()), expr(c.body()), expr(c.orelse()), c.span());
		}
		if (e instanceof Expr.SliceExpr s) {
			return new Expr.SliceExpr(expr(s.lower()), expr(s.upper()), expr(s.step()), s.span());
		}
		if (e instanceof Expr.TupleExpr t) {
			return new Expr.TupleExpr(t.elts().stream().map(this::expr).toList(), t.span());
		}
		if (e instanceof Expr.ListExpr l) {
			return new Expr.ListExpr(l.elts().stream().map(this::expr).toList(), l.span());
		}
		if (e instanceof Expr.DictExpr d) {
			List<Expr> keys = new ArrayList<>();
			for (Expr k : d.keys()) {
				keys.add(expr(k));
			}
			return new Expr.DictExpr(keys, d.values().stream().map(this::expr).toList(), d.span());
		}
		if (e instanceof Expr.Starred s) {
			return new Expr.Starred(expr(s.value()), s.span());
		}
		if (e instanceof Expr.Opaque o) {
			return new Expr.Opaque(o.kind(), o.children().stream().map(this::expr).toList(), o.span());
		}
		return e;
	}

	private Expr name(Expr.Name n) {
		String id = n.id();
		if (renames.containsKey(id)) {
			return Synth.name(renames.get(id), n.span());
		}
		if (scalars.containsKey(id)) {
			return Synth.constant(scalars.get(id), n.span());
		}
		if (shapeInlined.containsKey(id)) {
			return Synth.constant(shapeInlined.get(id), n.span());
		}
		if (dynvarAnchors.containsKey(id) && !usedNames.contains(id)) {
			List<Object> anchor = dynvarAnchors.get(id);
			return Synth.tensorDim((String) anchor.get(0), (Integer) anchor.get(1), n.span());
		}
		if (!usedNames.contains(id)) {
			Object v = globals.get(id);
			if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
				return Synth.constant(v, n.span());
			}
		}
		return n;
	}

	private Expr shapeTuple(String param, Span span) {
		List<Expr> elts = new ArrayList<>();
		for (int i = 0; i < meta.get(param).rank(); i++) {
			elts.add(shapeDim(param, i, span));
		}
		return new Expr.TupleExpr(elts, span);
	}

	private Expr shapeDim(String param, int k, Span span) {
		Object d = meta.get(param).shape().get(k);
		return d instanceof DynDim ? Synth.tensorDim(param, k, span) : Synth.constant(d, span);
	}

	/** {@code dep(a, out=o)} to {@code self.dep(a, o)}; every other call visited as it is. */
	private Expr call(Expr.Call c) {
		Expr.Call node = c;
		if (c.func() instanceof Expr.Name n && depNames.contains(n.id())) {
			Expr func = Synth.attr(Synth.name("self", n.span()), n.id(), n.span());
			List<String> order = depParams.get(n.id());
			List<Expr> args = new ArrayList<>(c.args());
			List<Expr.Keyword> keywords = c.keywords();
			if (order != null && !c.keywords().isEmpty()) {
				Map<String, Expr> byName = new LinkedHashMap<>();
				for (Expr.Keyword k : c.keywords()) {
					if (k.name() != null) {
						byName.put(k.name(), k.value());
					}
				}
				int positional = args.size();
				for (String p : order.subList(Math.min(positional, order.size()), order.size())) {
					if (byName.containsKey(p)) {
						args.add(byName.remove(p));
					}
				}
				List<Expr.Keyword> remaining = new ArrayList<>();
				for (Expr.Keyword k : c.keywords()) {
					if (k.name() == null || byName.containsKey(k.name())) {
						remaining.add(k);
					}
				}
				keywords = remaining;
			}
			node = new Expr.Call(func, "self." + n.id(), args, keywords, c.span(), c.parenSpan());
		}
		Expr func = expr(node.func());
		List<Expr.Keyword> kws = new ArrayList<>();
		for (Expr.Keyword k : node.keywords()) {
			kws.add(new Expr.Keyword(k.name(), expr(k.value()), k.span(), k.nameSpan()));
		}
		return new Expr.Call(func, dev.ptotools.analyzer.lower.ExprLowering.dotted(func),
				node.args().stream().map(this::expr).toList(), kws, node.span(), node.parenSpan());
	}
}
