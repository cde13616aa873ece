package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.support.CodeEmitter;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.graph.TaskGraphRecorder;

/**
 * orchestration/host_orch.py from the program IR after the default pass pipeline, a port of pypto's
 * DistributedCodegen (src/codegen/distributed/distributed_codegen.cpp with distributed_ops_codegen.cpp and
 * distributed_scalar_expr_codegen.cpp): the four imports, {@code _alloc_intermediates} (comm ordering
 * tokens and hoisted {@code tensor.create}s), the highest-level orchestrator as the entry function (scalar
 * and dynamic-dim bindings, comm-domain {@code with} blocks, TaskArgs dispatch blocks, builtin collectives,
 * slices, assembles, loops and ifs), and the entry marker. Variables print as their IR names
 * ({@code x__ssa_v0}), tensors live in the {@code tensors} dict under the same names.
 *
 * <p>This product's extension: with {@link CompileOptions#groupedDispatch()} on, a rank loop the analyzer
 * grouped ({@link GroupedLoop}) collects every rank's TaskArgs and submits them once with
 * {@code _submit_chip_group} (imported from pypto's runtime where it exists, otherwise defined in the
 * module over simpler's {@code submit_next_level_group}). Off, the output is pypto's.
 */
public final class DistributedCodegen {

	/** Imported where pypto's runtime has it; otherwise one forward to simpler's group submission. */
	static final String GROUP_HELPER = "try:\n" + "    from pypto.runtime.distributed_runner import _submit_chip_group\n"
			+ "except ImportError:\n" + "    def _submit_chip_group(orch, callable_id, args_list, config, workers):\n"
			+ "        # One DAG node for every rank of a grouped rank loop: all ranks start together.\n"
			+ "        return orch.submit_next_level_group(callable_id, list(args_list), config, workers=list(workers))\n";

	final Program program;
	final CompileOptions options;
	final CodeEmitter out = new CodeEmitter();
	final HostExprs exprs = new HostExprs(this);
	final WorkerDispatch dispatch = new WorkerDispatch(this);
	final BuiltinCollectives builtins = new BuiltinCollectives(this);
	private final Map<Span, GroupedLoop> groupedBySpan = new HashMap<>();
	/** The tasks host_orch.py submits, as it submits them (the task graph view). */
	TaskGraphRecorder graph;

	Function current;
	int taskArgs;
	/** The open comm-domain scopes, outermost first. */
	final List<Stmt.CommDomainScope> domains = new ArrayList<>();
	/** Every assignment of the HOST orchestrator, by target (pypto's host_orch_var_defs_). */
	final Map<Var, Expr> varDefs = new HashMap<>();
	/** Hoisted tensor.create assignments, emitted in _alloc_intermediates instead of the body. */
	private final Set<Stmt.Assign> hoisted = new HashSet<>();
	private boolean bodyAfterHoist;
	/** The assignment target of the statement being emitted ("" for an expression statement). */
	String target = "";
	/** (tuple variable, element index) to the Out argument a tuple-returning dispatch wrote it to. */
	final Map<String, String> tupleElements = new HashMap<>();
	/** The grouped loop being emitted, or null. */
	WorkerDispatch.Group group;
	final List<HostOrchResult.EmittedGroup> emittedGroups = new ArrayList<>();

	private DistributedCodegen(Program program, CompileOptions options, List<GroupedLoop> grouped) {
		this.program = program;
		this.options = options;
		if (options.groupedDispatch()) {
			grouped.forEach(g -> groupedBySpan.put(g.span(), g));
		}
	}

	/** host_orch.py of a program, its entry chosen as pypto chooses it ({@link #entryOf}); no grouping. */
	public static HostOrchResult generate(Program program, CompileOptions options) {
		return generate(program, entryOf(program), options, List.of());
	}

	/** host_orch.py with hostOrch as the entry function (pypto's choice is {@link #entryOf}). */
	public static HostOrchResult generate(Program program, Function hostOrch, CompileOptions options) {
		return generate(program, hostOrch, options, List.of());
	}

	/**
	 * host_orch.py with hostOrch as the entry function and the analyzer's grouped rank loops (used only
	 * when {@link CompileOptions#groupedDispatch()} is on).
	 */
	public static HostOrchResult generate(Program program, Function hostOrch, CompileOptions options,
			List<GroupedLoop> grouped) {
		boolean any = false;
		for (Function f : program.functions()) {
			any |= f.level() != null || f.role() != null;
		}
		if (!any) {
			throw new CodegenException("Program has no distributed functions (no functions with level/role metadata)",
					hostOrch == null ? Span.NONE : hostOrch.span());
		}
		DistributedCodegen cg = new DistributedCodegen(program, options, grouped);
		cg.graph = new TaskGraphRecorder(hostOrch == null ? "" : hostOrch.name(), true, "");
		String body = cg.emit(hostOrch);
		StringBuilder head = new StringBuilder();
		head.append("import torch\n");
		head.append("from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType\n");
		head.append("from pypto.runtime.tensor_arg import make_tensor_arg\n");
		head.append("from pypto.runtime.distributed_runner import _submit_chip\n");
		if (!cg.emittedGroups.isEmpty()) {
			head.append(GROUP_HELPER);
		}
		head.append('\n');
		return new HostOrchResult(head + body, hostOrch, cg.builtins.specs(), cg.emittedGroups, cg.graph.build());
	}

	/**
	 * The function pypto emits (ClassifyFunctions and Generate): among the functions with role
	 * Orchestrator, the alphabetically first of the highest Linqu level; null when there is none (pypto then
	 * emits the Opaque entry function, or nothing).
	 */
	public static Function entryOf(Program program) {
		Map<String, Function> orchestrators = new TreeMap<>();
		for (Function f : program.functions()) {
			if (f.level() == null && f.role() == null) {
				continue;
			}
			if (f.role() == Role.Orchestrator) {
				orchestrators.put(f.name(), f);
			}
		}
		Function best = null;
		int bestLevel = 0;
		for (Function f : orchestrators.values()) {
			if (best == null) {
				best = f;
			}
			int level = DistFunctions.linquLevel(f.level());
			if (f.level() != null && level > bestLevel) {
				bestLevel = level;
				best = f;
			}
		}
		return best;
	}

	private String emit(Function entry) {
		if (entry != null) {
			boolean host = DistFunctions.linquLevel(entry.level()) >= 3;
			if (host) {
				collectHoistable(entry);
				allocIntermediates(entry);
				bodyAfterHoist = true;
				function(entry);
				bodyAfterHoist = false;
				hoisted.clear();
			} else {
				function(entry);
			}
			out.line(entry.name() + "._pypto_distributed_entry = True");
			out.blank();
		} else {
			Function opaque = null;
			for (Function f : program.sortedByName()) {
				if (f.level() == null && f.role() == null && f.type() == FunctionType.Opaque) {
					opaque = f;
				}
			}
			if (opaque != null) {
				current = opaque;
				taskArgs = 0;
				out.line("def entry(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size):");
				out.indent();
				scalarBindings(opaque);
				stmt(opaque.body());
				out.dedent();
				out.blank();
				out.line("entry._pypto_distributed_entry = True");
				out.blank();
			}
		}
		return out.code();
	}

	private void function(Function f) {
		taskArgs = 0;
		current = f;
		if (f.role() == Role.SubWorker) {
			return; // SubWorkers run as registered callables, never as host_orch functions
		}
		boolean host = DistFunctions.linquLevel(f.level()) >= 3;
		out.line("def " + f.name() + "(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size"
				+ (host ? ", _domain_provider=None" : "") + "):");
		out.indent();
		scalarBindings(f);
		if (host) {
			varDefs.clear();
			collectVarDefs(f.body());
			DynamicDimBindings.emit(this, f);
		}
		stmt(f.body());
		out.dedent();
		out.blank();
	}

	/** Scalar and CommCtx parameters are read from the tensors dict into locals. */
	private void scalarBindings(Function f) {
		for (Var p : f.params()) {
			if (p.type() instanceof Type.Scalar || p.type() instanceof Type.CommCtx) {
				String n = sanitize(p.name());
				out.line(n + " = tensors[\"" + n + "\"]");
			}
		}
	}

	private void collectVarDefs(Stmt body) {
		new dev.ptotools.codegen.ir.IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a) {
					varDefs.put(a.var(), a.value());
				}
				super.stmt(s);
			}
		}.stmt(body);
	}

	// ---- _alloc_intermediates ----

	private static Stmt unwrapLeadingDomains(Stmt body) {
		Stmt cur = body;
		while (cur instanceof Stmt.CommDomainScope d) {
			cur = d.body();
		}
		return cur;
	}

	private static List<Stmt> topLevel(Stmt body) {
		return body instanceof Stmt.Seq q ? q.stmts() : body == null ? List.of() : List.of(body);
	}

	private static boolean isTensorCreate(Stmt s) {
		return s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c && c.isOp("tensor.create");
	}

	private void collectHoistable(Function f) {
		hoisted.clear();
		for (Stmt s : topLevel(unwrapLeadingDomains(f.body()))) {
			if (isTensorCreate(s)) {
				hoisted.add((Stmt.Assign) s);
			} else {
				rejectNestedCreate(s, "control flow");
			}
		}
	}

	private static void rejectNestedCreate(Stmt s, String container) {
		if (s == null) {
			return;
		}
		if (isTensorCreate(s)) {
			throw new CodegenException("pl.create_tensor in HOST orchestrator must be a top-level statement (not nested "
					+ "inside " + container + "). Pre-init hoisting requires static, unconditional allocation.", s.span());
		}
		if (s instanceof Stmt.If i) {
			rejectNestedCreate(i.then(), "if-then");
			rejectNestedCreate(i.orelse(), "if-else");
		} else if (s instanceof Stmt.For f) {
			rejectNestedCreate(f.body(), "for-loop");
		} else if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(x -> rejectNestedCreate(x, container));
		}
	}

	private static void collectDomains(Stmt s, List<Stmt.CommDomainScope> acc) {
		if (s instanceof Stmt.CommDomainScope d) {
			acc.add(d);
			collectDomains(d.body(), acc);
		} else if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(x -> collectDomains(x, acc));
		} else if (s instanceof Stmt.For f) {
			collectDomains(f.body(), acc);
		} else if (s instanceof Stmt.If i) {
			collectDomains(i.then(), acc);
			collectDomains(i.orelse(), acc);
		}
	}

	private void allocIntermediates(Function f) {
		out.line("def _alloc_intermediates(tensors, world_size=1):");
		out.indent();
		List<Stmt.CommDomainScope> scopes = new ArrayList<>();
		collectDomains(f.body(), scopes);
		for (Stmt.CommDomainScope d : scopes) {
			out.line("tensors[\"" + handle(d) + "_ord\"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ in "
					+ "range(max(world_size, 1))]");
		}
		if (hoisted.isEmpty() && scopes.isEmpty()) {
			out.line("pass");
		} else if (!hoisted.isEmpty()) {
			current = f;
			for (Stmt s : topLevel(unwrapLeadingDomains(f.body()))) {
				if (s instanceof Stmt.Assign a && hoisted.contains(a)) {
					stmt(s);
				}
			}
		}
		out.dedent();
		out.blank();
	}

	// ---- statements ----

	void stmt(Stmt s) {
		if (s == null) {
			return;
		}
		if (s instanceof Stmt.Assign a) {
			assign(a);
		} else if (s instanceof Stmt.Eval e) {
			target = "";
			if (!hierarchyCall(e.expr())) {
				String v = exprs.render(e.expr());
				if (!v.isEmpty()) {
					out.line(v);
				}
			}
		} else if (s instanceof Stmt.Seq q) {
			q.stmts().forEach(this::stmt);
		} else if (s instanceof Stmt.For f) {
			forStmt(f);
		} else if (s instanceof Stmt.If i) {
			ifStmt(i);
		} else if (s instanceof Stmt.CommDomainScope d) {
			domain(d);
		} else if (s instanceof Stmt.While w) {
			// pypto has no while visitor at this level: the condition and iter args are visited and the body
			// is emitted inline, without a header
			exprs.render(w.condition());
			w.iterArgs().forEach(exprs::render);
			stmt(w.body());
		} else if (s instanceof Stmt.Yield y) {
			y.values().forEach(exprs::render);
		} else if (s instanceof Stmt.Scope sc) {
			stmt(sc.body());
		}
		// Return, Break, Continue: nothing (results travel through Out tensors and tensors[...] aliases)
	}

	private void assign(Stmt.Assign a) {
		String var = sanitize(a.var().name());
		if (bodyAfterHoist && hoisted.contains(a)) {
			return;
		}
		if (a.value() instanceof Expr.TupleGetItem g) {
			if (!(g.tuple() instanceof Var)) {
				throw new CodegenException("Internal error: TupleGetItemExpr tuple_ must be a Var-like expression for "
						+ "distributed codegen tuple-return unpacking", a.span());
			}
			String tuple = exprs.render(g.tuple());
			String src = tupleElements.get(tuple + "#" + g.index());
			if (src == null) {
				throw new CodegenException("Internal error: TupleGetItemExpr unpacking found no Out parameter for tuple var '"
						+ tuple + "' index " + g.index(), a.span());
			}
			out.line("tensors[\"" + var + "\"] = tensors[\"" + src + "\"]");
			target = "";
			return;
		}
		Expr.Call call = a.value() instanceof Expr.Call c ? c : null;
		if (isDistributed(a.var().type()) && isDistributed(a.value().type())
				&& (call == null || call.isOp("pld.tensor.window"))) {
			target = "";
			return; // a view or an alias of one: dispatches name the window buffer itself
		}
		if (call != null && call.isOp("pld.system.get_comm_ctx")) {
			target = "";
			return; // dispatches read the rank's device_ctx from the comm domain
		}
		target = var;
		if (hierarchyCall(a.value())) {
			target = "";
			return;
		}
		if (a.var().type() instanceof Type.Tensor t && !t.distributed() && a.value() instanceof Var) {
			String v = exprs.render(a.value());
			if (!v.isEmpty()) {
				out.line("tensors[\"" + var + "\"] = tensors[\"" + v + "\"]");
			}
			target = "";
			return;
		}
		String v = exprs.render(a.value());
		if (!v.isEmpty()) {
			out.line(var + " = " + v);
		}
		target = "";
	}

	static boolean isDistributed(Type t) {
		return t instanceof Type.Tensor x && x.distributed();
	}

	/** pypto's TryEmitHierarchyCall: a same-level SubWorker or a next-level orchestrator becomes a dispatch. */
	private boolean hierarchyCall(Expr e) {
		if (!(e instanceof Expr.Call c) || c.functionName() == null) {
			return false;
		}
		Function callee = program.function(c.functionName());
		if (callee == null) {
			return false;
		}
		if (callee.level() == null || callee.role() == null || current.level() == null || current.role() == null) {
			throw new CodegenException("Internal error: a HOST orchestrator call needs level and role on both the caller '"
					+ current.name() + "' and the callee '" + callee.name() + "'", c.span());
		}
		boolean sameLevelSub = callee.role() == Role.SubWorker && callee.level() == current.level();
		boolean nextLevelOrch = callee.role() == Role.Orchestrator
				&& callee.level().ordinal() == current.level().ordinal() - 1;
		if (sameLevelSub || nextLevelOrch) {
			dispatch.emit(c, callee);
			return true;
		}
		throw new CodegenException(current.level() + "Level Orch func '" + current.name() + "' can only call same level "
				+ "sub-worker or next level Orch, but call to func '" + callee.name() + "' has level = '" + callee.level()
				+ "', role = '" + callee.role() + "'.", c.span());
	}

	/** A window buffer as the task graph names it. */
	static String windowName(String window) {
		return "window " + sanitize(window);
	}

	private void forStmt(Stmt.For f) {
		String loopVar = sanitize(f.loopVar().name());
		String start = exprs.render(f.start());
		String stop = exprs.render(f.stop());
		String step = exprs.render(f.step());
		WorkerDispatch.Group g = groupOf(f);
		WorkerDispatch.Group saved = group;
		if (g != null) {
			out.line(g.argsList() + " = []");
			out.line(g.workersList() + " = []");
			group = g;
		}
		out.line("for " + loopVar + " in range(" + start + ", " + stop + ", " + step + "):");
		graph.enterLoop("for " + loopVar + " in range(" + start + ", " + stop + ", " + step + ")", f.span());
		out.indent();
		if (f.body() != null) {
			stmt(f.body());
		} else {
			out.line("pass");
		}
		out.dedent();
		graph.exitLoop();
		if (g != null) {
			out.line("_submit_chip_group(orch, callables[\"" + g.callee() + "\"], " + g.argsList() + ", config, "
					+ g.workersList() + ")");
			emittedGroups.add(new HostOrchResult.EmittedGroup(g.groupId(), g.callee()));
		}
		group = saved;
	}

	/**
	 * The group of a loop the analyzer grouped, when grouped dispatch is on and the loop's body dispatches
	 * exactly one chip orchestrator (its one member per rank).
	 */
	private WorkerDispatch.Group groupOf(Stmt.For f) {
		GroupedLoop g = groupedBySpan.get(f.span());
		if (g == null || group != null) {
			return null;
		}
		Set<String> callees = new LinkedHashSet<>();
		new dev.ptotools.codegen.ir.IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				Function callee = c.functionName() == null ? null : program.function(c.functionName());
				if (callee != null && callee.role() == Role.Orchestrator && !WorkerDispatch.isSubWorker(callee)) {
					callees.add(callee.name());
				}
				super.call(c);
			}
		}.stmt(f.body());
		if (callees.size() != 1) {
			return null;
		}
		return new WorkerDispatch.Group("_group_args_" + g.number(), "_group_workers_" + g.number(),
				callees.iterator().next(), g.groupId());
	}

	private void ifStmt(Stmt.If i) {
		if (!i.returnVars().isEmpty() && i.orelse() == null) {
			throw new CodegenException("Internal error: IfStmt with return_vars_ must carry an else_body holding the "
					+ "phi's incoming values", i.span());
		}
		String cond = exprs.render(i.condition());
		out.line("if " + cond + ":");
		out.indent();
		stmt(i.then());
		yields(i, i.then());
		out.dedent();
		if (i.orelse() != null) {
			out.line("else:");
			out.indent();
			stmt(i.orelse());
			yields(i, i.orelse());
			out.dedent();
		}
	}

	/** A branch's yield merges into the if's phis: tensors through the dict, scalars by name. */
	private void yields(Stmt.If i, Stmt branch) {
		Stmt.Yield y = lastYield(unwrapAutoScope(branch));
		if (y == null) {
			return;
		}
		for (int k = 0; k < i.returnVars().size() && k < y.values().size(); k++) {
			String val = exprs.render(y.values().get(k));
			Var phi = i.returnVars().get(k);
			String name = sanitize(phi.name());
			if (phi.type() instanceof Type.Tensor) {
				out.line("tensors[\"" + name + "\"] = tensors[\"" + val + "\"]");
			} else {
				out.line(name + " = " + val);
			}
		}
	}

	/**
	 * pypto's UnwrapAutoScope: through automatic (AUTO) runtime scopes and one-statement lists to the
	 * statement they wrap.
	 */
	private static Stmt unwrapAutoScope(Stmt s) {
		if (s instanceof Stmt.RuntimeScope r && !r.manual()) {
			return unwrapAutoScope(r.body());
		}
		if (s instanceof Stmt.Seq q && q.stmts().size() == 1) {
			return unwrapAutoScope(q.stmts().get(0));
		}
		return s;
	}

	/** pypto's GetLastYieldStmt: the yield at the back of a body, through lists and runtime / split scopes. */
	private static Stmt.Yield lastYield(Stmt s) {
		if (s instanceof Stmt.Seq q) {
			return q.stmts().isEmpty() ? null : lastYield(q.stmts().get(q.stmts().size() - 1));
		}
		if (s instanceof Stmt.RuntimeScope r) {
			return lastYield(r.body());
		}
		if (s instanceof Stmt.SplitAivScope sp) {
			return lastYield(sp.body());
		}
		return s instanceof Stmt.Yield y ? y : null;
	}

	// ---- comm domains ----

	static String handle(Stmt.CommDomainScope d) {
		return "__" + d.nameHint();
	}

	private void domain(Stmt.CommDomainScope d) {
		if (d.slots().isEmpty()) {
			throw new CodegenException("CommDomainScopeStmt '" + d.nameHint()
					+ "' has no slots — MaterializeCommDomainScopes must not emit empty scopes", d.span());
		}
		String workers = d.devices().isEmpty() ? "*range(world_size)"
				: String.join(", ", d.devices().stream().map(String::valueOf).toList());
		List<String> logical = new ArrayList<>();
		List<String> aligned = new ArrayList<>();
		for (var slot : d.slots()) {
			String l = exprs.renderUnwrapped(slot.size());
			logical.add(l);
			aligned.add("(((" + l + " + 31) // 32) * 32)");
		}
		List<String> terms = new ArrayList<>();
		aligned.forEach(x -> terms.add("(" + x + ")"));
		out.line("with (_domain_provider or orch.allocate_domain)(");
		out.indent();
		out.line("name=\"" + d.nameHint() + "\",");
		out.line("workers=[" + workers + "],");
		out.line("window_size=" + String.join(" + ", terms) + ",");
		out.line("buffers=[");
		out.indent();
		for (int i = 0; i < d.slots().size(); i++) {
			out.line("CommBufferSpec(name=\"" + sanitize(d.slots().get(i).name()) + "\", dtype=\"opaque\", count="
					+ logical.get(i) + ", nbytes=" + aligned.get(i) + "),");
		}
		out.dedent();
		out.line("],");
		out.dedent();
		out.line(") as " + handle(d) + ":");
		out.indent();
		domains.add(d);
		stmt(d.body());
		domains.remove(domains.size() - 1);
		out.dedent();
	}

	/**
	 * pypto's ScopeForWindowBuffer: the innermost open comm domain with the buffer as a slot. pypto matches
	 * the slot by pointer, so a slot a later pass rebuilt ({@link dev.ptotools.codegen.ir.WindowBuffer#rebuilt()})
	 * is not the buffer the view was typed with and is not found.
	 */
	Stmt.CommDomainScope scopeOf(String buffer, Span at) {
		for (int i = domains.size() - 1; i >= 0; i--) {
			var slot = domains.get(i).slot(buffer);
			if (slot != null && !slot.rebuilt()) {
				return domains.get(i);
			}
		}
		throw new CodegenException("WindowBuffer '" + buffer + "' is not a slot of any open CommDomainScopeStmt "
				+ "(MaterializeCommDomainScopes pass must run before DistributedCodegen, and the dispatch must lexically "
				+ "sit inside its enclosing comm-domain scope)", at);
	}

	String nextTaskArgs() {
		return "_ta_" + taskArgs++;
	}

	/** pypto's SanitizeName: dots become underscores; SSA suffixes stay. */
	static String sanitize(String name) {
		return name.replace('.', '_');
	}
}
