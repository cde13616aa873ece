package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.ControlFlowUtils;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The statement visitor of pypto's OrchestrationStmtCodegen: statement sequences (allocation batch
 * first), runtime scopes, ifs with their phis, and assignments; loops and yields are in
 * {@link LoopEmitter}. Emits the body only; the file around it is written after it.
 */
final class StmtEmitter {

	final OrchState st;
	final CppExprs exprs;
	final OpEmitter ops;
	final TaskEmitter tasks;
	final ResultAliases aliases;
	final AllocBatcher allocs;
	private final LoopEmitter loops;

	StmtEmitter(OrchState st) {
		this.st = st;
		this.exprs = new CppExprs(st);
		this.ops = new OpEmitter(st, exprs);
		this.tasks = new TaskEmitter(st, exprs);
		this.aliases = new ResultAliases(st);
		this.allocs = new AllocBatcher(st, ops, tasks);
		this.loops = new LoopEmitter(this);
	}

	void visit(Stmt s) {
		if (s == null) {
			return;
		}
		if (s instanceof Stmt.Seq q) {
			allocs.batch(q.stmts());
			for (Stmt x : q.stmts()) {
				if (!st.batchedCreates.contains(x)) {
					visit(x);
				}
			}
		} else if (s instanceof Stmt.RuntimeScope r) {
			scope(r);
		} else if (s instanceof Stmt.For f) {
			loops.forStmt(f);
		} else if (s instanceof Stmt.If i) {
			ifStmt(i);
		} else if (s instanceof Stmt.Yield y) {
			loops.yield(y);
		} else if (s instanceof Stmt.Assign a) {
			assign(a);
		} else if (s instanceof Stmt.Eval e) {
			eval(e);
		} else if (s instanceof Stmt.Return) {
			return; // outputs are the external tensors the tasks wrote
		} else if (s instanceof Stmt.While) {
			throw new CodegenException("while loops are not supported in Orchestration functions: the orchestration "
					+ "codegen has no C++ form for them (pypto would emit the body once, without the loop)", s.span());
		} else if (s instanceof Stmt.Break || s instanceof Stmt.Continue) {
			throw new CodegenException("break/continue are not supported in Orchestration functions: the orchestration "
					+ "codegen has no C++ form for them (pypto drops them)", s.span());
		} else if (s instanceof Stmt.Scope sc) {
			throw new CodegenException("Internal error: a " + sc.getClass().getSimpleName() + " reached orchestration "
					+ "codegen; it must be outlined into its own function first", s.span());
		}
	}

	// ---- runtime scopes ----

	private void scope(Stmt.RuntimeScope r) {
		// Bindings made inside a generated block name C++ locals that die at its closing brace.
		Map<Var, Object> savedTaskIds = new HashMap<>(st.taskIds);
		Map<Var, OrchState.ArrayCarry> savedCarries = new HashMap<>(st.arrayCarries);
		if (!r.manual()) {
			st.line("PTO2_SCOPE() {");
			st.active.indent();
			st.pushCppScope();
			visit(r.body());
			st.popCppScope();
			st.active.dedent();
			st.line("}");
			st.taskIds = savedTaskIds;
			st.arrayCarries = savedCarries;
			return;
		}
		// A manual scope is a scheduling region, not a storage scope: its body is rendered into a buffer
		// so allocations and carries a reader after the scope needs can be hoisted before it.
		int parentLevel = st.active.level();
		String parentIndent = CppCode.indentAt(parentLevel);
		List<String> savedSink = st.hoistSink;
		int savedHoistLevel = st.hoistIndentLevel;
		Set<String> savedLocal = st.manualLocalNames;
		Set<String> savedEnclosing = st.enclosingManualLocalNames;
		List<String> hoisted = new ArrayList<>();
		Set<String> local = new HashSet<>();
		st.hoistSink = hoisted;
		st.hoistIndentLevel = parentLevel;
		st.enclosingManualLocalNames = st.manualLocalNames;
		st.manualLocalNames = local;
		CppCode body = new CppCode(parentLevel + 1);
		CppCode savedActive = st.active;
		st.active = body;
		st.pushCppScope();
		st.manualDepth++;
		st.graph.enterManualScope();
		visit(r.body());
		st.manualDepth--;
		st.graph.exitManualScope();
		st.popCppScope();
		st.active = savedActive;
		st.hoistSink = savedSink;
		st.hoistIndentLevel = savedHoistLevel;
		st.manualLocalNames = savedLocal;
		st.enclosingManualLocalNames = savedEnclosing;
		for (String line : hoisted) {
			st.active.raw(line);
		}
		st.active.raw(parentIndent + "PTO2_SCOPE(PTO2ScopeMode::MANUAL) {\n");
		st.active.raw(body.code());
		st.active.raw(parentIndent + "}\n");
		// An array carry registered inside the scope whose backing array lives outside it survives.
		for (Map.Entry<Var, OrchState.ArrayCarry> e : st.arrayCarries.entrySet()) {
			if (savedCarries.containsKey(e.getKey()) || local.contains(e.getValue().arrayName())) {
				continue;
			}
			savedCarries.put(e.getKey(), e.getValue());
			Object tid = st.taskIds.get(e.getKey());
			if (tid != null) {
				savedTaskIds.put(e.getKey(), tid);
			}
		}
		st.taskIds = savedTaskIds;
		st.arrayCarries = savedCarries;
	}

	// ---- if ----

	private void ifStmt(Stmt.If i) {
		String cond = exprs.render(i.condition());
		// A default-constructed ChipTensor is uninitialised: seed tensor phis from a valid tensor.
		String phiInit = "";
		String first = null;
		int min = Integer.MAX_VALUE;
		for (Map.Entry<String, Integer> e : st.paramOrchIndex.entrySet()) {
			if (e.getValue() < min) {
				min = e.getValue();
				first = e.getKey();
			}
		}
		if (first != null) {
			phiInit = st.external(first);
		}
		if (phiInit.isEmpty()) {
			phiInit = branchTensor(i.then());
			if (phiInit.isEmpty() && i.orelse() != null) {
				phiInit = branchTensor(i.orelse());
			}
		}
		for (Var rv : i.returnVars()) {
			String name = st.reserve(rv);
			String cpp = OrchState.cppType(rv.type(), i.span());
			if (cpp.equals("ChipTensor")) {
				if (phiInit.isEmpty()) {
					throw new CodegenException("Internal error: IfStmt return_var '" + rv.name() + "' is a ChipTensor but no "
							+ "in-scope ChipTensor was found to use as the valid phi placeholder", i.span());
				}
				st.mutableTensorCarryDecl(name, phiInit);
			} else {
				st.line(cpp + " " + name + ";");
			}
		}
		st.line("if (" + cond + ") {");
		branch(i.then(), i.returnVars());
		if (i.orelse() != null) {
			st.line("} else {");
			branch(i.orelse(), i.returnVars());
		}
		st.line("}");
	}

	/** The first tensor Var a branch yields that already has a name. */
	private String branchTensor(Stmt body) {
		Stmt.Yield y = ControlFlowUtils.lastYield(ControlFlowUtils.unwrapAutoScope(body));
		if (y == null) {
			return "";
		}
		for (Expr v : y.values()) {
			if (v instanceof Var var && var.type() instanceof Type.Tensor && st.emitNames.containsKey(var)) {
				return st.external(st.emitNames.get(var));
			}
		}
		return "";
	}

	private void branch(Stmt body, List<Var> returnVars) {
		st.active.indent();
		st.pushCppScope();
		List<Var> saved = st.currentReturnVars;
		st.currentReturnVars = new ArrayList<>(returnVars);
		visit(body);
		st.currentReturnVars = saved;
		st.popCppScope();
		st.active.dedent();
	}

	// ---- statements with a value ----

	private void eval(Stmt.Eval e) {
		CallView call = CallView.of(e.expr());
		if (call == null) {
			return;
		}
		if (call.name().startsWith("tensor.") || call.name().startsWith("array.")) {
			op(call, "", null);
		} else if (!call.isBuiltin()) {
			tasks.call(call);
		} else {
			throw misplaced(call);
		}
	}

	private static CodegenException misplaced(CallView call) {
		return new CodegenException("Misplaced builtin op '" + call.name()
				+ "' in Orchestration function (should be inside InCore block)", call.span());
	}

	/** Tensor ops whose result is a view of their first argument's storage (for the task graph's dependencies). */
	private static final java.util.Set<String> VIEWS = java.util.Set.of("tensor.slice", "tensor.reshape", "tensor.view",
			"tensor.transpose", "tensor.as_layout");

	/** pypto's GenerateTensorOpCode. */
	private void op(CallView call, String resultVar, Var assignVar) {
		boolean create = call.isOp("tensor.create");
		String emit = resultVar;
		if (create && assignVar != null) {
			if (st.declaredCreateVars.contains(assignVar) || st.paramNames.contains(st.varName(assignVar))) {
				return;
			}
			st.declaredCreateVars.add(assignVar);
			emit = st.reserve(assignVar);
		}
		st.currentResultVar = emit;
		st.lines(ops.generate(call));
		if (VIEWS.contains(call.name()) && !call.args().isEmpty()) {
			st.graph.view(emit, st.external(st.tryVarName(call.args().get(0))));
		}
		if (create) {
			allocs.allocBatch(List.of(emit));
		}
	}

	private void assign(Stmt.Assign a) {
		Var var = a.var();
		String name = st.reserve(var);
		if (var.type() instanceof Type.Tensor t && t.dtype() == DType.FP4) {
			st.packedFp4Axis.put(name, t.shape().size() - 1);
		}
		CallView call = CallView.of(a.value());
		if (call != null) {
			assignCall(a, call, name);
		} else if (a.value() instanceof Expr.TupleGetItem) {
			return; // tuple elements are bound at the producing call
		} else if (a.value() instanceof Expr.MakeTuple m) {
			makeTuple(var, m);
		} else {
			assignValue(a, name);
		}
	}

	private void assignCall(Stmt.Assign a, CallView call, String name) {
		Var var = a.var();
		if (call.isOp("system.task_dummy")) {
			if (!call.boolAttr("dummy_task")) {
				throw new CodegenException("Internal error: system.task_dummy must be marked with attrs['dummy_task']",
						a.span());
			}
			tasks.deps().dummyTask(call, name);
			st.taskIds.put(var, name);
		} else if (call.isOp("system.task_invalid")) {
			st.line("PTO2TaskId " + name + " = PTO2TaskId::invalid();");
			st.taskIds.put(var, name);
		} else if (call.isOp("system.task_is_valid")) {
			if (call.args().size() != 1) {
				throw new CodegenException("Internal error: system.task_is_valid expects exactly 1 argument", a.span());
			}
			st.line("bool " + name + " = " + exprs.render(call.args().get(0)) + ".is_valid();");
		} else if (call.isOp("system.available_cluster_count") || call.isOp("system.available_aiv_count")) {
			st.line("int32_t " + name + " = " + TaskEmitter.availableCoreCount(call.name()) + ";");
		} else if (call.isOp("pld.system.get_comm_ctx")) {
			String arg = call.args().size() == 1 ? st.tryVarName(call.args().get(0)) : "";
			String ctx = st.distParamToCtx.get(arg);
			if (ctx == null) {
				throw new CodegenException("Internal error: orchestration get_comm_ctx could not find materialized CommCtx "
						+ "param for " + arg, a.span());
			}
			st.line("uint64_t " + name + " = " + ctx + ";");
		} else if (call.name().startsWith("tensor.")) {
			if (call.isOp("tensor.assemble")) {
				assemble(a, call);
			} else {
				op(call, name, var);
			}
		} else if (call.name().startsWith("array.")) {
			arrayOp(a, call, name);
		} else if (!call.isBuiltin()) {
			int before = st.taskCounter;
			tasks.call(call);
			if (st.manualDepth > 0 && st.taskCounter > before) {
				st.taskIds.put(var, before);
			}
			if (!(call.type() instanceof Type.Tuple)) {
				if (st.effectiveUses.contains(var)) {
					aliases.single(var, call, name);
				}
			} else if (call.isSubmitCall()) {
				aliases.submit(call, before, var);
			} else {
				aliases.tuple(call, var);
			}
		} else {
			throw misplaced(call);
		}
	}

	/**
	 * An orchestration-level assemble emits nothing: the producing kernel wrote into the target's view
	 * (FuseCreateAssembleToSlice arranged it), so the result is the target.
	 */
	private void assemble(Stmt.Assign a, CallView call) {
		if (call.args().size() != 3) {
			throw new CodegenException("Internal error: tensor.assemble expects 3 arguments", call.span());
		}
		if (dev.ptotools.codegen.passes.util.OpKwargs.isAtomic(call.kwarg("atomic"))) {
			throw new CodegenException("pl.assemble(..., atomic=pl.AtomicType.Add) is only supported inside an InCore "
					+ "function — typically a pl.at(level=pl.Level.CORE_GROUP, ...) scope — where it lowers to an "
					+ "atomic-add tile.store into global memory. This assemble sits at the orchestration level, where no "
					+ "atomic-combine instruction exists. Move it inside the scope that produces the partial result.",
					call.span());
		}
		st.emitNames.put(a.var(), st.external(exprs.render(call.args().get(0))));
	}

	private void arrayOp(Stmt.Assign a, CallView call, String name) {
		Var var = a.var();
		if (call.isOp("array.update_element")) {
			if (call.args().size() != 3) {
				throw new CodegenException("Internal error: array.update_element expects 3 arguments", call.span());
			}
			// The result shares the input array's storage.
			st.emitNames.put(var, exprs.render(call.args().get(0)));
			if (call.args().get(0) instanceof Var in) {
				OrchState.ArrayCarry carry = st.arrayCarries.get(in);
				if (carry != null) {
					st.arrayCarries.put(var, carry);
				}
				Object tid = st.taskIds.get(in);
				if (tid != null) {
					st.taskIds.put(var, tid);
				}
			}
		}
		op(call, name, var);
		if (call.isOp("array.create")) {
			if (var.type() instanceof Type.Array arr && !arr.shape().isEmpty() && arr.shape().get(0) instanceof Expr.ConstInt n) {
				st.registerArrayCarry(var, name, n.value());
			}
		} else if (call.isOp("array.get_element") && var.type() instanceof Type.Scalar s && s.dtype() == DType.TASK_ID) {
			st.taskIds.put(var, name); // a snapshot local: a later slot write does not change it
		}
	}

	/** Elements of a MakeTuple inherit the names and bindings of what was packed. */
	private void makeTuple(Var var, Expr.MakeTuple m) {
		String key = st.tuples.keys.get(var);
		List<OrchAnalysis.TupleElement> elements = key == null ? null : st.tuples.elements.get(key);
		if (elements == null) {
			return;
		}
		for (OrchAnalysis.TupleElement e : elements) {
			if (e.index() < 0 || e.index() >= m.elements().size() || !(m.elements().get(e.index()) instanceof Var in)) {
				continue;
			}
			String n = st.emitNames.get(in);
			if (n != null) {
				st.emitNames.put(e.var(), n);
			}
			Object tid = st.taskIds.get(in);
			if (tid != null) {
				st.taskIds.put(e.var(), tid);
			}
			OrchState.ArrayCarry carry = st.arrayCarries.get(in);
			if (carry != null) {
				st.arrayCarries.put(e.var(), carry);
			}
		}
	}

	/** A scalar expression, a copy or a constant: {@code <type> x = <expr>;}. */
	private void assignValue(Stmt.Assign a, String name) {
		Var var = a.var();
		String value = exprs.render(a.value());
		String cpp = OrchState.cppType(var.type(), a.span());
		if (a.value() instanceof Var in) {
			Object tid = st.taskIds.get(in);
			if (tid != null) {
				st.taskIds.put(var, tid);
			}
			if (value.equals(name)) {
				return; // both names collapsed onto one buffer
			}
			// In a manual scope a tensor copy becomes the source's name, so readers after the scope
			// still see it; a hoisted loop carry is collapsed onto only after its loop.
			boolean carryCollapseOk = !st.hoistedCarryNames.contains(value) || st.atManualScopeBodyIndent();
			if (cpp.equals("ChipTensor") && st.manualLocalNames != null && st.isEnclosingScopeValid(value)
					&& !st.isMutableInCurrentScope(value) && !st.isMutableInCurrentScope(name) && carryCollapseOk) {
				st.emitNames.put(var, value);
				return;
			}
		}
		st.line(cpp + " " + name + " = " + value + ";");
		st.registerMutable(cpp, name);
		if (cpp.equals("ChipTensor")) {
			st.graph.view(name, st.external(value));
		}
	}
}
