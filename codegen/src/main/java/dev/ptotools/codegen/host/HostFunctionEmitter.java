package dev.ptotools.codegen.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The body of a host orchestrator (pypto's DistributedCodegen statement visitors): the comm-domain
 * {@code with} blocks around it, tensors held in the {@code tensors} dict, slices and assembles as
 * dict reads and writes, dispatches, collectives, loops (grouped ones collect their members and submit
 * once after the loop) and ifs with their phis.
 */
final class HostFunctionEmitter {

	private final HostState st;
	private final HostDispatch dispatch;
	private final HostCollectives collectives;
	private final Set<Stmt> hoisted;
	private final List<GroupedLoop> grouped;

	HostFunctionEmitter(HostState st, Set<Stmt> hoisted, List<GroupedLoop> grouped) {
		this.st = st;
		this.dispatch = new HostDispatch(st);
		this.collectives = new HostCollectives(st);
		this.hoisted = hoisted;
		this.grouped = grouped;
		for (Param p : st.f.params()) {
			if (p.type() instanceof TypeSpec.Tensor t && t.kind() == TypeSpec.TensorKind.TENSOR) {
				st.tensors.add(p.name());
			}
		}
	}

	List<String> variants() {
		return collectives.variants;
	}

	/** The body inside the nested comm-domain with-blocks. */
	void body() {
		int opened = 0;
		for (HostDomain d : st.domains) {
			openDomain(d);
			opened++;
		}
		block(st.f.body());
		for (int i = 0; i < opened; i++) {
			st.out.dedent();
			st.open.pop();
		}
	}

	private void openDomain(HostDomain d) {
		List<String> aligned = new ArrayList<>();
		List<String> logical = new ArrayList<>();
		for (HostSlot s : d.slots()) {
			String l = s.size() != null ? st.exprs.renderUnwrapped(s.size(), s.at()) : s.sizeText();
			logical.add(l);
			aligned.add("(((" + l + " + 31) // 32) * 32)");
		}
		List<String> sum = new ArrayList<>();
		for (String a : aligned) {
			sum.add("(" + a + ")");
		}
		String workers = d.workers().isEmpty() ? "*range(world_size)"
				: String.join(", ", d.workers().stream().map(String::valueOf).toList());
		st.out.line("with (_domain_provider or orch.allocate_domain)(");
		st.out.indent();
		st.out.line("name=\"" + d.name() + "\",");
		st.out.line("workers=[" + workers + "],");
		st.out.line("window_size=" + String.join(" + ", sum) + ",");
		st.out.line("buffers=[");
		st.out.indent();
		for (int i = 0; i < d.slots().size(); i++) {
			st.out.line("CommBufferSpec(name=\"" + PyExprs.sanitize(d.slots().get(i).name()) + "\", dtype=\"opaque\", count="
					+ logical.get(i) + ", nbytes=" + aligned.get(i) + "),");
		}
		st.out.dedent();
		st.out.line("],");
		st.out.dedent();
		st.out.line(") as " + d.handle() + ":");
		st.out.indent();
		st.open.push(d);
	}

	private void block(List<Stmt> body) {
		for (Stmt s : body) {
			stmt(s);
		}
	}

	/** A nested block; pypto writes nothing for an empty one, which Python rejects, so write pass. */
	private void nested(List<Stmt> body, Runnable after) {
		st.out.indent();
		int before = st.out.code().length();
		block(body);
		if (after != null) {
			after.run();
		}
		if (st.out.code().length() == before) {
			st.out.line("pass");
		}
		st.out.dedent();
	}

	private void stmt(Stmt s) {
		if (s instanceof Stmt.Assign a) {
			assign(a);
		} else if (s instanceof Stmt.ExprStmt e) {
			exprStmt(e);
		} else if (s instanceof Stmt.For loop) {
			forLoop(loop);
		} else if (s instanceof Stmt.If i) {
			ifStmt(i);
		} else if (s instanceof Stmt.While w) {
			block(w.body()); // pypto has no while handler at HOST level: the body is walked without a header
		} else if (s instanceof Stmt.With w) {
			block(w.body());
		} else if (s instanceof Stmt.Return r) {
			if (r.value() instanceof Expr.Call c && st.ctx.calls().target(c) != null) {
				dispatchCall(c, null); // a returned dispatch still runs
			}
		} else if (s instanceof Stmt.AugAssign a && a.target() instanceof Expr.Name n) {
			st.out.line(PyExprs.sanitize(n.id()) + " = " + st.exprs.render(new Expr.BinOp(a.op(), n, a.value(), a.span())));
		} else if (!(s instanceof Stmt.Pass)) {
			throw new CodegenException("statement not supported in a HOST orchestrator", s.span());
		}
	}

	private boolean builtin(Expr e, String name) {
		return e instanceof Expr.Call c && st.ctx.calls().isBuiltin(c, name);
	}

	private void assign(Stmt.Assign a) {
		if (a.value() == null || a.targets().size() != 1) {
			if (a.value() != null) {
				throw new CodegenException("Unsupported assignment: chained targets", a.span());
			}
			return;
		}
		Expr target = a.targets().get(0);
		Expr value = a.value();
		if (target instanceof Expr.TupleExpr t) {
			tupleAssign(t, value, a);
			return;
		}
		if (!(target instanceof Expr.Name n)) {
			if (target instanceof Expr.Subscript) {
				throw new CodegenException("subscript assignment in a HOST orchestrator: use pl.assemble", a.span());
			}
			throw new CodegenException("Unsupported assignment", a.span());
		}
		String name = n.id();
		if (builtin(value, "pld.tensor.alloc_window_buffer")) {
			return; // a marker: the buffer is a slot of its comm domain
		}
		if (builtin(value, "pld.tensor.window")) {
			CommDomains.View v = st.comm == null ? null : st.comm.view(name);
			if (v != null) {
				st.views.put(name, v);
			}
			return;
		}
		if (builtin(value, "pld.system.get_comm_ctx")) {
			Expr.Call c = (Expr.Call) value;
			if (!c.args().isEmpty() && c.args().get(0) instanceof Expr.Name vn && st.views.containsKey(vn.id())) {
				st.commCtx.put(name, st.views.get(vn.id()));
			}
			return;
		}
		if (builtin(value, "pl.tensor.create")) {
			if (!hoisted.contains(a)) {
				throw new CodegenException("pl.create_tensor in HOST orchestrator must be a top-level statement (not "
						+ "nested inside control flow). Pre-init hoisting requires static, unconditional allocation.",
						a.span());
			}
			st.tensors.add(name);
			return;
		}
		if (value instanceof Expr.Call c && st.ctx.calls().target(c) != null) {
			dispatchCall(c, name);
			return;
		}
		if (value instanceof Expr.Call c && HostCollectives.opOf(c, st.ctx.calls()) != null) {
			collective(c, a);
			if (!c.args().isEmpty() && c.args().get(0) instanceof Expr.Name src && st.views.containsKey(src.id())) {
				st.views.put(name, st.views.get(src.id()));
			}
			return;
		}
		if (value instanceof Expr.Subscript sub && sub.value() instanceof Expr.Name base && st.tensors.contains(base.id())) {
			st.out.line("tensors[\"" + PyExprs.sanitize(name) + "\"] = tensors[\"" + PyExprs.sanitize(base.id()) + "\"]["
					+ subscriptIndex(sub, base.id()) + "]");
			st.tensors.add(name);
			return;
		}
		if (builtin(value, "tensor.slice")) {
			slice(name, (Expr.Call) value);
			return;
		}
		if (builtin(value, "tensor.assemble")) {
			assemble(name, (Expr.Call) value);
			return;
		}
		if (value instanceof Expr.Name src) {
			if (st.views.containsKey(src.id())) {
				st.views.put(name, st.views.get(src.id()));
				return;
			}
			if (st.tensors.contains(src.id())) {
				st.out.line("tensors[\"" + PyExprs.sanitize(name) + "\"] = tensors[\"" + PyExprs.sanitize(src.id()) + "\"]");
				st.tensors.add(name);
				return;
			}
		}
		rejectTensorOps(value);
		st.out.line(PyExprs.sanitize(name) + " = " + st.exprs.render(value));
		st.tensors.remove(name);
	}

	private void rejectTensorOps(Expr value) {
		for (Expr.Call c : Walk.calls(value)) {
			if (st.ctx.calls().of(c) instanceof dev.ptotools.analyzer.facts.Callee.BuiltinCall b) {
				String op = b.builtin().op();
				if (op != null && (op.startsWith("tensor.") || op.startsWith("tile."))) {
					String first = op.split(" \\| ")[0];
					throw new CodegenException("DistributedCodegen does not support op '" + first + "' in function '"
							+ st.f.name() + "'. Move this operation into a lower-level function or add a registered "
							+ "HOST-orchestrator lowering.", c.span());
				}
			}
		}
	}

	private void exprStmt(Stmt.ExprStmt e) {
		Expr v = e.value();
		if (v instanceof Expr.Literal) {
			return;
		}
		if (v instanceof Expr.Call c) {
			if (st.ctx.calls().target(c) != null) {
				dispatchCall(c, null);
				return;
			}
			if (HostCollectives.opOf(c, st.ctx.calls()) != null) {
				collective(c, e);
				return;
			}
			String text = st.ctx.calls().normalize(c.funcText());
			if ("pl.static_assert".equals(text) || "pl.static_print".equals(text)) {
				return;
			}
		}
		rejectTensorOps(v);
		st.out.line(st.exprs.render(v));
	}

	private void collective(Expr.Call c, Stmt at) {
		String signal = st.synthesizedSignals.get(c);
		if (signal != null) {
			st.out.line(signal.replace("_buf_", "_world_size_") + " = world_size");
		}
		collectives.emit(c, HostCollectives.opOf(c, st.ctx.calls()));
	}

	private void dispatchCall(Expr.Call c, String target) {
		Function callee = st.ctx.calls().target(c);
		dispatch.checkHierarchy(c, callee);
		dispatch.emit(flatten(c), callee, target, currentGroup);
	}

	/**
	 * pypto's FlattenCallExpr: a slice written inline as a dispatch argument is bound to a temporary
	 * ({@code t__tmp_v<n>}) first, since TaskArgs take named tensors.
	 */
	private Expr.Call flatten(Expr.Call c) {
		List<Expr> args = new ArrayList<>();
		boolean changed = false;
		for (Expr a : c.args()) {
			boolean slice = (a instanceof Expr.Subscript sub && sub.value() instanceof Expr.Name b && st.tensors.contains(b.id()))
					|| builtin(a, "tensor.slice");
			if (!slice) {
				args.add(a);
				continue;
			}
			String temp = "t__tmp_v" + st.temps++;
			assign(new Stmt.Assign(List.of(new Expr.Name(temp, a.span())), a, null, a.span()));
			args.add(new Expr.Name(temp, a.span()));
			changed = true;
		}
		return changed ? new Expr.Call(c.func(), c.funcText(), List.copyOf(args), c.keywords(), c.span(), c.parenSpan()) : c;
	}

	private HostDispatch.Group currentGroup;

	private void tupleAssign(Expr.TupleExpr t, Expr value, Stmt.Assign a) {
		if (!(value instanceof Expr.Call c) || st.ctx.calls().target(c) == null) {
			throw new CodegenException("tuple unpacking in a HOST orchestrator needs a dispatch returning a tuple",
					a.span());
		}
		dispatchCall(c, "_tuple_tmp");
		for (int i = 0; i < t.elts().size(); i++) {
			if (!(t.elts().get(i) instanceof Expr.Name n)) {
				throw new CodegenException("Tuple unpacking target must be a variable name", t.elts().get(i).span());
			}
			String src = st.tupleElements.get("_tuple_tmp#" + i);
			if (src == null) {
				throw new CodegenException("tuple element " + i + " of this dispatch maps to no Out parameter", a.span());
			}
			st.out.line("tensors[\"" + PyExprs.sanitize(n.id()) + "\"] = tensors[\"" + src + "\"]");
			st.tensors.add(n.id());
		}
	}

	// ---- slices and assembles ----

	private List<Expr> shapeOf(String tensor) {
		Param p = st.f.param(tensor);
		if (p != null && p.type() instanceof TypeSpec.Tensor t && t.shape() != null) {
			return t.shape();
		}
		Stmt.Assign def = st.scope.lastAssignmentBefore(tensor, Integer.MAX_VALUE);
		if (def != null && def.value() instanceof Expr.Call c && st.ctx.calls().isBuiltin(c, "pl.tensor.create")
				&& !c.args().isEmpty() && c.args().get(0) instanceof Expr.ListExpr l) {
			return l.elts();
		}
		return null;
	}

	/** {@code x[r]} on [2, M, N]: a dropped axis is its offset, others {@code 0:<e>} or {@code <o>:<o> + <e>}. */
	private String subscriptIndex(Expr.Subscript sub, String base) {
		List<Expr> shape = shapeOf(base);
		if (shape == null) {
			throw new CodegenException("tensor.slice in a HOST orchestrator needs the input's shape", sub.span());
		}
		List<String> parts = new ArrayList<>();
		for (int k = 0; k < shape.size(); k++) {
			Expr i = k < sub.indices().size() ? sub.indices().get(k) : null;
			if (i == null) {
				parts.add("0:" + st.exprs.render(shape.get(k)));
			} else if (i instanceof Expr.SliceExpr sl) {
				String lo = sl.lower() == null ? "0" : st.exprs.render(sl.lower());
				String hi = sl.upper() == null ? st.exprs.render(shape.get(k)) : st.exprs.render(sl.upper());
				parts.add(lo + ":" + hi);
			} else {
				parts.add(st.exprs.render(i));
			}
		}
		return String.join(", ", parts);
	}

	private static List<Expr> list(Expr e) {
		return e instanceof Expr.ListExpr l ? l.elts() : e instanceof Expr.TupleExpr t ? t.elts() : List.of();
	}

	private String range(Expr offset, Expr extent) {
		String o = st.exprs.render(offset);
		String e = st.exprs.render(extent);
		return o.equals("0") ? "0:" + e : o + ":" + o + " + " + e;
	}

	private void slice(String name, Expr.Call c) {
		if (c.args().size() < 3 || !(c.args().get(0) instanceof Expr.Name in)) {
			throw new CodegenException("tensor.slice input must resolve to a non-empty Python name", c.span());
		}
		List<Expr> shape = list(c.args().get(1));
		List<Expr> offset = list(c.args().get(2));
		if (shape.size() != offset.size()) {
			throw new CodegenException("tensor.slice offset/shape rank mismatch", c.span());
		}
		List<String> parts = new ArrayList<>();
		for (int k = 0; k < shape.size(); k++) {
			parts.add(range(offset.get(k), shape.get(k)));
		}
		st.out.line("tensors[\"" + PyExprs.sanitize(name) + "\"] = tensors[\"" + PyExprs.sanitize(in.id()) + "\"]["
				+ String.join(", ", parts) + "]");
		st.tensors.add(name);
	}

	private void assemble(String name, Expr.Call c) {
		if (c.keyword("atomic") != null) {
			throw new CodegenException("pl.assemble(..., atomic=pl.AtomicType.Add) is only supported inside an "
					+ "InCore function. This assemble is in a HOST orchestrator, where no atomic-combine instruction "
					+ "exists. Move it inside the scope that produces the partial result.", c.span());
		}
		if (c.args().size() != 3 || !(c.args().get(0) instanceof Expr.Name target)
				|| !(c.args().get(1) instanceof Expr.Name src)) {
			throw new CodegenException("tensor.assemble target and source must resolve to non-empty Python names",
					c.span());
		}
		List<Expr> targetShape = shapeOf(target.id());
		List<Expr> srcShape = validShape(src.id());
		List<Expr> offset = list(c.args().get(2));
		if (targetShape == null || srcShape == null) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator needs known shapes", c.span());
		}
		if (offset.size() != targetShape.size()) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator requires offset rank to match target "
					+ "rank", c.span());
		}
		if (srcShape.size() > targetShape.size()) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator requires source rank not to exceed "
					+ "target rank", c.span());
		}
		int lead = targetShape.size() - srcShape.size();
		List<String> dst = new ArrayList<>();
		List<String> from = new ArrayList<>();
		for (int k = 0; k < targetShape.size(); k++) {
			Expr extent = k < lead ? new Expr.Literal(1L, c.span()) : srcShape.get(k - lead);
			dst.add(range(offset.get(k), extent));
		}
		for (Expr e : srcShape) {
			from.add("0:" + st.exprs.render(e));
		}
		st.out.line("tensors[\"" + PyExprs.sanitize(target.id()) + "\"][" + String.join(", ", dst) + "] = tensors[\""
				+ PyExprs.sanitize(src.id()) + "\"][" + String.join(", ", from) + "]");
		if (!name.equals(target.id())) {
			st.out.line("tensors[\"" + PyExprs.sanitize(name) + "\"] = tensors[\"" + PyExprs.sanitize(target.id()) + "\"]");
		}
		st.tensors.add(name);
	}

	/** The valid shape of a tensor: a slice's valid_shape when it has one, else its shape. */
	private List<Expr> validShape(String tensor) {
		Stmt.Assign def = st.scope.lastAssignmentBefore(tensor, Integer.MAX_VALUE);
		if (def != null && def.value() instanceof Expr.Call c && st.ctx.calls().isBuiltin(c, "tensor.slice")) {
			Expr.Keyword vs = c.keyword("valid_shape");
			if (vs != null) {
				return list(vs.value());
			}
			if (c.args().size() >= 4) {
				return list(c.args().get(3));
			}
			return list(c.args().get(1));
		}
		return shapeOf(tensor);
	}

	// ---- loops and ifs ----

	private void forLoop(Stmt.For loop) {
		if (!(loop.iter() instanceof Expr.Call it) || it.args().isEmpty()) {
			throw new CodegenException("For loop must use pl.range()", loop.headerSpan());
		}
		if (!(loop.target() instanceof Expr.Name lv)) {
			throw new CodegenException("loops with init_values are not supported in a HOST orchestrator",
					loop.headerSpan());
		}
		List<Expr> a = it.args();
		String start = a.size() >= 2 ? st.exprs.render(a.get(0)) : "0";
		String stop = st.exprs.render(a.size() >= 2 ? a.get(1) : a.get(0));
		String step = a.size() >= 3 ? st.exprs.render(a.get(2)) : "1";
		GroupedLoop g = groupOf(loop);
		HostDispatch.Group saved = currentGroup;
		if (g != null) {
			currentGroup = new HostDispatch.Group("_group_args_" + g.number(), "_group_workers_" + g.number());
			st.out.line(currentGroup.argsList() + " = []");
			st.out.line(currentGroup.workersList() + " = []");
		}
		st.out.line("for " + PyExprs.sanitize(lv.id()) + " in range(" + start + ", " + stop + ", " + step + "):");
		nested(loop.body(), null);
		if (g != null) {
			st.out.line("_submit_chip_group(orch, callables[\"" + g.callee() + "\"], " + currentGroup.argsList()
					+ ", config, " + currentGroup.workersList() + ")");
		}
		currentGroup = saved;
	}

	private GroupedLoop groupOf(Stmt.For loop) {
		for (GroupedLoop g : grouped) {
			if (g.loop() == loop) {
				return g;
			}
		}
		return null;
	}

	private void ifStmt(Stmt.If i) {
		st.out.line("if " + st.exprs.render(i.test()) + ":");
		nested(strip(i.body()), () -> phis(i.body()));
		if (!i.orelse().isEmpty()) {
			st.out.line("else:");
			nested(strip(i.orelse()), () -> phis(i.orelse()));
		}
	}

	private boolean isYield(Stmt s) {
		return s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c && st.ctx.calls().isBuiltin(c, "pl.yield_");
	}

	private List<Stmt> strip(List<Stmt> body) {
		return body.stream().filter(s -> !isYield(s)).toList();
	}

	/** A branch's yields merge into the phi names: tensors through the dict, scalars by name. */
	private void phis(List<Stmt> body) {
		for (Stmt s : body) {
			if (!isYield(s)) {
				continue;
			}
			Stmt.Assign a = (Stmt.Assign) s;
			Expr.Call y = (Expr.Call) a.value();
			List<String> names = Walk.boundNames(a.targets().get(0));
			for (int k = 0; k < names.size() && k < y.args().size(); k++) {
				Expr v = y.args().get(k);
				String phi = PyExprs.sanitize(names.get(k));
				if (v instanceof Expr.Name n && st.tensors.contains(n.id())) {
					st.out.line("tensors[\"" + phi + "\"] = tensors[\"" + PyExprs.sanitize(n.id()) + "\"]");
					st.tensors.add(names.get(k));
				} else {
					st.out.line(phi + " = " + st.exprs.render(v));
				}
			}
		}
	}

	static List<RankLoop> groupedLoops(List<RankLoop> all, Function f) {
		return all.stream().filter(l -> l.function() == f && l.grouped()).toList();
	}
}
