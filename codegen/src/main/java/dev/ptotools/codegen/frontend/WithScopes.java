package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * with-scopes (pypto's {@code parse_with_statement}): {@code pl.at(level=CORE_GROUP)} is an InCore
 * scope, {@code pl.at} at another level a Hierarchy scope, {@code pl.scope()} / {@code pl.manual_scope()}
 * runtime scopes, {@code pl.cluster()} a Cluster scope. Every scope body leaks its bindings.
 */
final class WithScopes {

	private final FunctionParser p;

	WithScopes(FunctionParser p) {
		this.p = p;
	}

	void with(Stmt.With w, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (w.items().size() != 1) {
			throw new CodegenException("Only single context manager supported in with statement", w.headerSpan());
		}
		Stmt.WithItem item = w.items().get(0);
		if (!(item.context() instanceof Expr.Call call) || !(call.func() instanceof Expr.Attribute a)
				|| !(a.value() instanceof Expr.Name base) || !base.id().equals("pl")) {
			throw new CodegenException("Unsupported context manager in with statement (supported: 'with pl.cluster():', "
					+ "'with pl.spmd(...):', 'with pl.at(level=...)', 'with pl.scope():', 'with pl.manual_scope():')",
					w.headerSpan());
		}
		String kind = a.attr();
		if (item.target() != null && !kind.equals("at") && !kind.equals("spmd")) {
			throw new CodegenException("`with pl." + kind + "(...) as ...:` is not supported — the `as` clause only "
					+ "applies to `with pl.at(...) as tid:` and `with pl.spmd(...) as tid:`", w.headerSpan());
		}
		switch (kind) {
		case "scope" -> runtimeScope(w, call, out);
		case "manual_scope" -> {
			if (!call.args().isEmpty() || !call.keywords().isEmpty()) {
				throw new CodegenException("pl.manual_scope() does not accept arguments", w.headerSpan());
			}
			emitRuntime(w, true, out);
		}
		case "cluster" -> {
			String hint = "";
			for (Expr.Keyword k : call.keywords()) {
				if (!"name_hint".equals(k.name())) {
					throw new CodegenException("pl.cluster() got unexpected keyword argument '" + k.name() + "'",
							w.headerSpan());
				}
				hint = nameHint(k.value(), "pl.cluster()");
			}
			p.clusterDepth++;
			try {
				out.add(new dev.ptotools.codegen.ir.Stmt.ClusterScope(hint, body(w), w.span()));
			} finally {
				p.clusterDepth--;
			}
		}
		case "at" -> at(w, call, item.target(), out);
		case "spmd" -> {
			p.spmdDepth++;
			try {
				spmdWith(w, call, item.target(), out);
			} finally {
				p.spmdDepth--;
			}
		}
		default -> throw new CodegenException("Unsupported context manager in with statement", w.headerSpan());
		}
	}

	private dev.ptotools.codegen.ir.Stmt body(Stmt.With w) {
		p.scopes.enter();
		List<dev.ptotools.codegen.ir.Stmt> body = p.parseBody(w.body());
		p.scopes.exit(true);
		return FunctionParser.block(body, w.span());
	}

	private void runtimeScope(Stmt.With w, Expr.Call call, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (!call.args().isEmpty()) {
			throw new CodegenException("pl.scope() takes only a 'mode=' keyword, not positional arguments", w.headerSpan());
		}
		boolean manual = false;
		for (Expr.Keyword k : call.keywords()) {
			if (!"mode".equals(k.name())) {
				throw new CodegenException("pl.scope() got an unexpected keyword '" + k.name() + "'", w.headerSpan());
			}
			String m = TypeResolver.last(ExprLowering.dotted(k.value()));
			if (m == null || !(m.equals("AUTO") || m.equals("MANUAL"))) {
				throw new CodegenException("Expected pl.ScopeMode.<name>", k.value().span());
			}
			manual = m.equals("MANUAL");
		}
		emitRuntime(w, manual, out);
	}

	private void emitRuntime(Stmt.With w, boolean manual, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (manual) {
			if (p.manualScopeDepth > 0) {
				throw new CodegenException("a manual scope may not be nested inside another manual scope", w.headerSpan());
			}
			p.manualScopeDepth++;
			try {
				out.add(new dev.ptotools.codegen.ir.Stmt.RuntimeScope("", true, body(w), w.span()));
			} finally {
				p.manualScopeDepth--;
			}
			return;
		}
		if (p.autoScope) {
			throw new CodegenException("a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)",
					w.headerSpan());
		}
		if (p.manualScopeDepth > 0) {
			throw new CodegenException("an AUTO scope may not be nested inside a manual scope", w.headerSpan());
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.RuntimeScope("", false, body(w), w.span()));
	}

	private void at(Stmt.With w, Expr.Call call, Expr asTarget, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (call.args().size() > 2) {
			throw new CodegenException("pl.at() takes at most 2 positional arguments, got " + call.args().size(),
					call.span());
		}
		Level level = call.args().size() >= 1 ? level(call.args().get(0)) : null;
		Role role = call.args().size() >= 2 ? role(call.args().get(1)) : null;
		String split = null;
		Long slotNum = null;
		String hint = "";
		Boolean early = null;
		boolean windowize = false;
		Expr deps = null;
		List<Expr> noDep = null;
		List<Expr> dumps = null;
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() == null) {
				throw new CodegenException("Unsupported **kwargs in pl.at()", k.span());
			}
			switch (k.name()) {
			case "level" -> level = level(k.value());
			case "role" -> role = role(k.value());
			case "name_hint" -> hint = nameHint(k.value(), "pl.at()");
			case "allow_early_resolve" -> early = boolLiteral(k, "pl.at() allow_early_resolve");
			case "windowize" -> windowize = boolLiteral(k, "pl.at() windowize");
			case "deps" -> deps = k.value();
			case "no_dep_args" -> noDep = listLiteral("no_dep_args", k);
			case "dumps" -> dumps = listLiteral("dumps", k);
			case "optimizations" -> {
				Optimizations o = Optimizations.parse("pl.at", k.value(), p.ctx);
				split = o.split();
				slotNum = o.slotNum();
			}
			default -> throw new CodegenException("Unknown keyword argument '" + k.name() + "' in pl.at()", k.span());
			}
		}
		if (level == null) {
			throw new CodegenException("pl.at() requires a level argument", call.span());
		}
		boolean coreGroup = level == Level.CORE_GROUP;
		if ((split != null || slotNum != null) && !coreGroup) {
			throw new CodegenException("optimizations=[pl.split(...)] / optimizations=[pl.cross_core_slot(...)] are only "
					+ "supported with level=pl.Level.CORE_GROUP", w.headerSpan());
		}
		if (coreGroup && role != null) {
			throw new CodegenException("role= is not supported with level=pl.Level.CORE_GROUP", w.headerSpan());
		}
		Map<String, Object> attrs = new LinkedHashMap<>();
		if (deps != null) {
			List<dev.ptotools.codegen.ir.Expr> edges = DepsLists.entries(p, "pl.at()", deps);
			if (!edges.isEmpty()) {
				attrs.put("manual_dep_edges", edges);
			}
		}
		List<Var> noDepVars = noDep == null ? List.of() : tensorNames("no_dep_args", noDep);
		if (!noDepVars.isEmpty()) { // no_dep_args=[] is a no-op
			attrs.put("arg_direction_overrides_vars", noDepVars);
		}
		List<Var> dumped = dumps != null ? tensorNames("dumps", dumps) : new ArrayList<>();
		for (Var v : p.dumpTagged) {
			if (!dumped.contains(v)) {
				dumped.add(v);
			}
		}
		if (!dumped.isEmpty() && (dumps != null)) {
			attrs.put("dump_vars", dumped);
		}
		Var tid = null;
		if (asTarget != null) {
			if (!(asTarget instanceof Expr.Name n)) {
				throw new CodegenException("`as` target on `with pl.at(...)` must be a plain variable name", asTarget.span());
			}
			tid = new Var(n.id(), FunctionParser.taskId(), w.span());
			attrs.put("task_id_var", tid);
		}
		if (Boolean.TRUE.equals(early)) {
			attrs.put("allow_early_resolve", true);
		}
		if (slotNum != null) {
			attrs.put("slot_num", slotNum);
		}
		if (windowize) {
			attrs.put("windowize", true);
		}
		if (tid != null) {
			out.add(new dev.ptotools.codegen.ir.Stmt.Assign(tid, dev.ptotools.codegen.ir.Expr.Call.op("system.task_invalid",
					List.of(), Map.of(), FunctionParser.taskId(), w.span()), w.span()));
			p.scopes.define(tid.name(), tid);
		}
		if (!coreGroup) {
			if (level.ordinal() >= Level.HOST.ordinal() && role == Role.SubWorker) {
				throw new CodegenException("Inline 'with pl.at(level>=HOST, role=pl.Role.SubWorker)' is not supported.",
						w.headerSpan());
			}
			out.add(new dev.ptotools.codegen.ir.Stmt.HierarchyScope(hint, level, role, body(w), w.span()));
			return;
		}
		p.incoreDepth++;
		String outerSplit = p.incoreUserSplit;
		p.incoreUserSplit = split;
		try {
			out.add(new dev.ptotools.codegen.ir.Stmt.InCoreScope(hint, split == null ? "None" : split, attrs, body(w),
					w.span()));
		} finally {
			p.incoreDepth--;
			p.incoreUserSplit = outerSplit;
		}
	}

	/**
	 * pl.spmd(...) arguments: core_num, sync_start, name_hint, optimizations, allow_early_resolve, deps,
	 * predicate.
	 */
	private record SpmdArgs(dev.ptotools.codegen.ir.Expr coreNum, boolean syncStart, String nameHint, String split,
			Long slotNum, boolean earlyResolve, List<dev.ptotools.codegen.ir.Expr> deps, dev.ptotools.codegen.ir.Expr predicate) {
	}

	/** The keywords of loops that make no sense for SPMD blocks or split_aiv lanes (refused by name). */
	static final java.util.Set<String> LOOP_ONLY_KEYWORDS = java.util.Set.of("init_values", "chunk", "chunk_policy",
			"attrs", "step", "stage");

	private SpmdArgs spmdArgs(Expr.Call call, boolean loopForm, boolean allowDeps) {
		if (call.args().size() > 1) {
			throw new CodegenException("pl.spmd() accepts at most one positional argument (core_num)",
					call.args().get(1).span());
		}
		dev.ptotools.codegen.ir.Expr coreNum = call.args().isEmpty() ? null : coreNum(call.args().get(0));
		boolean sync = false;
		String hint = "";
		String split = null;
		Long slot = null;
		boolean early = false;
		List<dev.ptotools.codegen.ir.Expr> deps = List.of();
		dev.ptotools.codegen.ir.Expr predicate = null;
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() == null) {
				throw new CodegenException("pl.spmd() does not accept **kwargs; pass core_num (positional) and "
						+ "sync_start=/name_hint=/optimizations= explicitly", k.value().span());
			}
			String name = k.name();
			if (loopForm && LOOP_ONLY_KEYWORDS.contains(name)) {
				throw new CodegenException("pl.spmd() loop form does not accept '" + name + "='", k.value().span());
			}
			switch (name) {
			case "core_num" -> {
				if (coreNum != null) {
					throw new CodegenException("pl.spmd() got multiple values for argument 'core_num'", k.value().span());
				}
				coreNum = coreNum(k.value());
			}
			case "sync_start" -> sync = boolLiteral(k, "sync_start");
			case "name_hint" -> hint = nameHint(k.value(), "pl.spmd()");
			case "allow_early_resolve" -> early = boolLiteral(k, "allow_early_resolve");
			case "predicate" -> predicate = DispatchPredicates.parse(p, "pl.spmd()", k);
			case "optimizations" -> {
				Optimizations o = Optimizations.parse("pl.spmd", k.value(), p.ctx);
				split = o.split();
				slot = o.slotNum();
			}
			case "deps" -> {
				if (!allowDeps) {
					throw new CodegenException("pl.spmd() does not accept 'deps=' here", k.value().span());
				}
				deps = DepsLists.entries(p, "pl.spmd()", k.value());
			}
			default -> throw new CodegenException((loopForm ? "pl.spmd() loop form does not accept '" : "Unknown keyword "
					+ "argument '") + name + (loopForm ? "='" : "' in pl.spmd()"), k.span());
			}
		}
		if (coreNum == null) {
			throw new CodegenException("pl.spmd() requires core_num", call.span());
		}
		return new SpmdArgs(coreNum, sync, hint, split, slot, early, deps, predicate);
	}

	private dev.ptotools.codegen.ir.Expr coreNum(Expr e) {
		return coreNum(p, e);
	}

	/** pypto's _parse_and_validate_core_num, shared by pl.spmd and pl.spmd_submit. */
	static dev.ptotools.codegen.ir.Expr coreNum(FunctionParser p, Expr e) {
		dev.ptotools.codegen.ir.Expr x = p.exprs.expr(e);
		if (!(x.type() instanceof dev.ptotools.codegen.ir.Type.Scalar s) || !s.dtype().isInteger()) {
			throw new CodegenException("core_num must be an integer expression, got "
					+ Types.print(x.type()), e.span());
		}
		if (x instanceof dev.ptotools.codegen.ir.Expr.ConstInt c && c.value() <= 0) {
			throw new CodegenException("core_num must be a positive integer, got " + c.value(), e.span());
		}
		return x;
	}

	/**
	 * pypto's _reject_spmd_submit_only_kwargs_in_cluster: a pl.spmd inside pl.cluster() is unwrapped into the
	 * Group function and never becomes a Submit, which alone carries allow_early_resolve and predicate.
	 */
	private void submitOnlyOutsideCluster(SpmdArgs a, Span at) {
		if (p.clusterDepth == 0) {
			return;
		}
		String kwarg;
		String lost;
		if (a.earlyResolve()) {
			kwarg = "allow_early_resolve=True";
			lost = "the early-dispatch hint";
		} else if (a.predicate() != null) {
			kwarg = "predicate=(...)";
			lost = "the dispatch predicate";
		} else {
			return;
		}
		throw new CodegenException("`pl.spmd(..., " + kwarg + ")` cannot be nested inside `pl.cluster()` — a "
				+ "cluster-nested pl.spmd is unwrapped into the Group function and never produces a Submit, so " + lost
				+ " would be lost.", at);
	}

	/** "q" -> Spmd "q_spmd" and InCore "q"; a hint already ending in _spmd is split back. */
	private static String[] spmdHints(String hint) {
		if (hint.isEmpty()) {
			return new String[] { "", "" };
		}
		if (hint.endsWith("_spmd")) {
			return new String[] { hint, hint.substring(0, hint.length() - "_spmd".length()) };
		}
		return new String[] { hint + "_spmd", hint };
	}

	private Map<String, Object> incoreAttrs(Long slot) {
		Map<String, Object> attrs = new LinkedHashMap<>();
		if (slot != null) {
			attrs.put("slot_num", slot);
		}
		return attrs;
	}

	/** {@code for i in pl.spmd(N):}: an Spmd scope around an InCore scope binding i to the block index. */
	void spmdLoop(Stmt.For f, Expr.Call call, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (!(f.target() instanceof Expr.Name n)) {
			throw new CodegenException("for ... in pl.spmd(...) must use a single loop variable", f.target().span());
		}
		SpmdArgs a = spmdArgs(call, true, false);
		submitOnlyOutsideCluster(a, f.span());
		String[] hints = spmdHints(a.nameHint());
		Map<String, Object> spmdAttrs = new LinkedHashMap<>();
		if (a.earlyResolve()) {
			spmdAttrs.put("allow_early_resolve", true);
		}
		if (a.predicate() != null) {
			spmdAttrs.put("predicate", a.predicate());
		}
		p.scopes.enter();
		Var i = new Var(n.id(), new dev.ptotools.codegen.ir.Type.Scalar(dev.ptotools.codegen.types.DType.INDEX), f.span());
		p.scopes.define(n.id(), i);
		List<dev.ptotools.codegen.ir.Stmt> body = new ArrayList<>();
		body.add(new dev.ptotools.codegen.ir.Stmt.Assign(i, dev.ptotools.codegen.ir.Expr.Call.op("tile.get_block_idx",
				List.of(), Map.of(), i.type(), f.span()), f.span()));
		p.incoreDepth++;
		String outerSplit = p.incoreUserSplit;
		p.incoreUserSplit = a.split();
		try {
			body.addAll(p.parseBody(f.body()));
		} finally {
			p.incoreDepth--;
			p.incoreUserSplit = outerSplit;
		}
		p.scopes.exit(true);
		dev.ptotools.codegen.ir.Stmt incore = new dev.ptotools.codegen.ir.Stmt.InCoreScope(hints[1],
				a.split() == null ? "None" : a.split(), incoreAttrs(a.slotNum()), FunctionParser.block(body, f.span()),
				f.span());
		out.add(new dev.ptotools.codegen.ir.Stmt.SpmdScope(hints[0], a.coreNum(), a.syncStart(), spmdAttrs, incore,
				f.span()));
	}

	/**
	 * {@code with pl.spmd(N) [as tid]:} — a dispatch body (one {@code self.k(...)}, no block index) stays as
	 * it is; an inline body (reads {@code pl.tile.get_block_idx()}, or has optimizations) is wrapped in an
	 * InCore scope to be outlined into a per-block kernel; an explicit {@code pl.at(CORE_GROUP)} body is
	 * its own carrier.
	 */
	private void spmdWith(Stmt.With w, Expr.Call call, Expr asTarget, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (asTarget != null && p.clusterDepth > 0) {
			throw new CodegenException("`with pl.spmd(...) as tid:` cannot capture a TaskId when nested inside "
					+ "`pl.cluster()` — a cluster-nested pl.spmd is unwrapped into the Group function and never produces a "
					+ "Submit.", w.span());
		}
		SpmdArgs a = spmdArgs(call, false, asTarget != null);
		submitOnlyOutsideCluster(a, w.span());
		Map<String, Object> attrs = new LinkedHashMap<>();
		if (a.earlyResolve()) {
			attrs.put("allow_early_resolve", true);
		}
		if (a.predicate() != null) {
			attrs.put("predicate", a.predicate());
		}
		if (asTarget != null) {
			if (!(asTarget instanceof Expr.Name n)) {
				throw new CodegenException("`as` target on `with pl.spmd(...)` must be a plain variable name", w.span());
			}
			if (!a.deps().isEmpty()) {
				attrs.put("manual_dep_edges", a.deps());
			}
			Var tid = new Var(n.id(), FunctionParser.taskId(), w.span());
			attrs.put("task_id_var", tid);
			out.add(new dev.ptotools.codegen.ir.Stmt.Assign(tid, dev.ptotools.codegen.ir.Expr.Call.op("system.task_invalid",
					List.of(), Map.of(), FunctionParser.taskId(), w.span()), w.span()));
			p.scopes.define(n.id(), tid);
		}
		boolean optimization = a.split() != null || a.slotNum() != null;
		boolean carrier = w.body().size() == 1 && w.body().get(0) instanceof Stmt.With inner && inner.items().size() == 1
				&& inner.items().get(0).context() instanceof Expr.Call ic && ic.func() instanceof Expr.Attribute ia
				&& ia.attr().equals("at");
		boolean needsIncore = false;
		if (!carrier) {
			boolean inline = readsBlockIdx(w.body());
			int dispatches = inline ? 0 : dispatches(w.body());
			if (!inline && dispatches == 0) {
				throw new CodegenException("`with pl.spmd(...)` body neither reads the per-block index via "
						+ "`pl.tile.get_block_idx()` nor dispatches a `self.<kernel>(...)` call, so every block would run "
						+ "identical work.", w.headerSpan());
			}
			if (dispatches > 1) {
				throw new CodegenException("`with pl.spmd(...)` dispatch body launches " + dispatches + " kernels; only "
						+ "one kernel dispatch per SPMD scope is supported.", w.headerSpan());
			}
			needsIncore = inline || optimization;
		}
		if (!needsIncore) {
			out.add(new dev.ptotools.codegen.ir.Stmt.SpmdScope(a.nameHint(), a.coreNum(), a.syncStart(), attrs, body(w),
					w.span()));
			return;
		}
		String[] hints = spmdHints(a.nameHint());
		p.incoreDepth++;
		String outerSplit = p.incoreUserSplit;
		p.incoreUserSplit = a.split();
		dev.ptotools.codegen.ir.Stmt incoreBody;
		try {
			incoreBody = body(w);
		} finally {
			p.incoreDepth--;
			p.incoreUserSplit = outerSplit;
		}
		dev.ptotools.codegen.ir.Stmt incore = new dev.ptotools.codegen.ir.Stmt.InCoreScope(hints[1],
				a.split() == null ? "None" : a.split(), incoreAttrs(a.slotNum()), incoreBody, w.span());
		out.add(new dev.ptotools.codegen.ir.Stmt.SpmdScope(hints[0], a.coreNum(), a.syncStart(), attrs, incore, w.span()));
	}

	/**
	 * pypto's {@code _spmd_body_reads_block_idx}: by the name alone, so {@code pl.get_block_idx()},
	 * {@code pl.tile.get_block_idx()} and a bare imported {@code get_block_idx()} all count.
	 */
	private static boolean readsBlockIdx(List<Stmt> body) {
		for (Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(body)) {
			if (c.func() instanceof Expr.Attribute a && a.attr().equals("get_block_idx")
					|| c.func() instanceof Expr.Name n && n.id().equals("get_block_idx")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * pypto's _spmd_body_kernel_dispatch_count: the calls of {@code self.<kernel>(...)} and of bare names
	 * that denote an external {@code @pl.function} or {@code @pl.inline}, anywhere in the body.
	 */
	private int dispatches(List<Stmt> body) {
		int n = 0;
		for (Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(body)) {
			if (c.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name s && s.id().equals("self")
					|| c.func() instanceof Expr.Name f && (p.ctx.externals.containsKey(f.id()) || p.ctx.inlines.containsKey(f.id()))) {
				n++;
			}
		}
		return n;
	}

	/** The value of pl.at(no_dep_args=...) / pl.at(dumps=...): a list or tuple literal. */
	private static List<Expr> listLiteral(String kw, Expr.Keyword k) {
		List<Expr> items = ExprParser.listOrTuple(k.value());
		if (items == null) {
			throw new CodegenException("pl.at(" + kw + "=...) must be a list literal of tensor names", k.span());
		}
		return items;
	}

	/**
	 * pypto's _parse_at_no_dep_args_kwarg / _parse_at_dumps_kwarg: each entry a bare name of a tensor visible
	 * in the function, each at most once.
	 */
	private List<Var> tensorNames(String kw, List<Expr> items) {
		List<Var> out = new ArrayList<>();
		for (Expr x : items) {
			if (!(x instanceof Expr.Name n)) {
				throw new CodegenException("pl.at(" + kw + "=[...]) entries must be bare tensor names", x.span());
			}
			Var v = p.scopes.lookup(n.id());
			if (v == null) {
				throw new CodegenException("pl.at(" + kw + "=[...]) references unknown name '" + n.id() + "'", x.span());
			}
			if (!(v.type() instanceof dev.ptotools.codegen.ir.Type.Tensor)) {
				throw new CodegenException("pl.at(" + kw + "=[...]) entry '" + n.id() + "' is not a tensor (got type "
						+ Types.print(v.type()) + ")", x.span());
			}
			if (out.contains(v)) {
				throw new CodegenException("pl.at(" + kw + "=[...]) lists '" + n.id() + "' more than once", x.span());
			}
			out.add(v);
		}
		return out;
	}

	static boolean boolLiteral(Expr.Keyword k, String what) {
		if (k.value() instanceof Expr.Literal l && l.value() instanceof Boolean b) {
			return b;
		}
		throw new CodegenException(what + " must be a boolean literal (True/False)", k.value().span());
	}

	/** pypto's _parse_scope_name_hint: a string literal, empty or a Python identifier that is no keyword. */
	private static String nameHint(Expr e, String where) {
		if (!(e instanceof Expr.Literal l) || !(l.value() instanceof String s)) {
			throw new CodegenException(where + " 'name_hint' argument must be a string literal", e.span());
		}
		if (!s.isEmpty() && (!identifier(s) || PYTHON_KEYWORDS.contains(s))) {
			throw new CodegenException(where + " 'name_hint' must be a valid non-keyword identifier, got "
					+ dev.ptotools.codegen.frontend.unparse.PyRepr.str(s), e.span());
		}
		return s;
	}

	private static final java.util.Set<String> PYTHON_KEYWORDS = java.util.Set.of("False", "None", "True", "and", "as",
			"assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally",
			"for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
			"return", "try", "while", "with", "yield");

	/** str.isidentifier: a letter or underscore, then letters, digits and underscores. */
	private static boolean identifier(String s) {
		int first = s.codePointAt(0);
		if (!(Character.isLetter(first) || first == '_')) {
			return false;
		}
		return s.codePoints().skip(1).allMatch(c -> Character.isLetterOrDigit(c) || c == '_');
	}

	static Level level(Expr e) {
		String v = enumMember(e, "Level");
		Level l = v == null ? null : Level.named(v);
		if (v == null) {
			throw new CodegenException("Expected pl.Level.<name>", Span.NONE);
		}
		if (l == null) {
			throw new CodegenException("Unknown Level value: " + v, Span.NONE);
		}
		return l;
	}

	static Role role(Expr e) {
		if (e instanceof Expr.Literal lit && lit.value() == null) {
			return null;
		}
		String v = enumMember(e, "Role");
		Role r = v == null ? null : Role.named(v);
		if (v == null) {
			throw new CodegenException("Expected pl.Role.<name>", Span.NONE);
		}
		if (r == null) {
			throw new CodegenException("Unknown Role value: " + v, Span.NONE);
		}
		return r;
	}

	static String splitMode(Expr e) {
		String v = enumMember(e, "SplitMode");
		if (v == null) {
			throw new CodegenException("Expected pl.SplitMode.<name>", e.span());
		}
		return switch (v) {
		case "UP_DOWN", "UpDown" -> "UpDown";
		case "LEFT_RIGHT", "LeftRight" -> "LeftRight";
		case "NONE", "None" -> "None";
		default -> throw new CodegenException("Unknown SplitMode value: " + v, e.span());
		};
	}

	private static String enumMember(Expr e, String enumName) {
		String dotted = ExprLowering.dotted(e);
		if (dotted == null) {
			return null;
		}
		String[] parts = dotted.split("\\.");
		if (parts.length >= 2 && parts[parts.length - 2].equals(enumName)) {
			return parts[parts.length - 1];
		}
		return null;
	}
}
