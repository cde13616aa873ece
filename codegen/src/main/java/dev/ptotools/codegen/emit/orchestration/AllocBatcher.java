package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The {@code tensor.create}s of a statement sequence as {@code alloc_tensors} batches at its top (pypto's
 * EmitBatchedAllocTensors): at most 16 per batch, each create's TensorCreateInfo first, then
 * {@code TaskOutputTensors alloc_<K> = alloc_tensors(...)} and one {@code const ChipTensor&} per buffer.
 * A create whose shape uses a value computed earlier in the sequence, or named like a parameter, stays
 * in place. Directly in a MANUAL scope's body the batch is hoisted before the scope.
 */
final class AllocBatcher {

	private static final int MAX_ALLOC_TENSORS_ARGS = 16;

	private final OrchState st;
	private final OpEmitter ops;
	private final TaskEmitter tasks;

	AllocBatcher(OrchState st, OpEmitter ops, TaskEmitter tasks) {
		this.st = st;
		this.ops = ops;
		this.tasks = tasks;
	}

	private record PendingCreate(String emitName, CallView call) {
	}

	void batch(List<Stmt> stmts) {
		List<PendingCreate> creates = new ArrayList<>();
		Set<Var> locallyDefined = new HashSet<>();
		for (int idx = 0; idx < stmts.size(); idx++) {
			if (!(stmts.get(idx) instanceof Stmt.Assign a)) {
				continue;
			}
			if (!(a.value() instanceof Expr.Call c) || !c.isOp("tensor.create")) {
				locallyDefined.add(a.var());
				continue;
			}
			if (st.declaredCreateVars.contains(a.var()) || st.paramNames.contains(st.varName(a.var()))) {
				continue;
			}
			if (shapeUses(c.type(), locallyDefined)) {
				locallyDefined.add(a.var());
				continue;
			}
			st.declaredCreateVars.add(a.var());
			String emit = st.reserve(a.var());
			if (a.var().name().startsWith("gm_pipe_buffer_") && !sizeGmPipeBuffer(stmts, idx, a.var(), emit, locallyDefined)) {
				st.declaredCreateVars.remove(a.var());
				locallyDefined.add(a.var());
				continue;
			}
			creates.add(new PendingCreate(emit, CallView.of(c)));
			st.batchedCreates.add(a);
		}
		if (creates.isEmpty()) {
			return;
		}
		// Directly in a manual scope's body the batch goes before the scope: allocation is not a
		// scheduling step, and a reader after the scope must still see the buffer.
		boolean hoist = st.hoistSink != null && st.atManualScopeBodyIndent();
		CppCode saved = st.active;
		if (hoist) {
			st.active = new CppCode(saved.level() - 1);
		}
		for (int start = 0; start < creates.size(); start += MAX_ALLOC_TENSORS_ARGS) {
			int end = Math.min(start + MAX_ALLOC_TENSORS_ARGS, creates.size());
			List<String> names = new ArrayList<>();
			for (int i = start; i < end; i++) {
				st.currentResultVar = creates.get(i).emitName();
				st.lines(ops.generate(creates.get(i).call()));
				names.add(creates.get(i).emitName());
			}
			allocBatch(names);
		}
		if (hoist) {
			st.hoistSink.add(st.active.code());
			st.active = saved;
			for (PendingCreate c : creates) {
				st.manualLocalNames.remove(c.emitName());
				if (st.enclosingManualLocalNames != null) {
					st.enclosingManualLocalNames.add(c.emitName());
				}
			}
		}
	}

	void allocBatch(List<String> names) {
		String alloc = "alloc_" + st.allocCounter++;
		List<String> cis = new ArrayList<>();
		for (String n : names) {
			cis.add(n + "_ci");
		}
		st.line("TaskOutputTensors " + alloc + " = alloc_tensors(" + String.join(", ", cis) + ");");
		for (int i = 0; i < names.size(); i++) {
			st.line("const ChipTensor& " + names.get(i) + " = " + alloc + ".get_ref(" + i + ");");
		}
	}

	private static boolean shapeUses(Type t, Set<Var> vars) {
		if (t instanceof Type.Tensor tt) {
			for (Expr d : tt.shape()) {
				if (refersTo(d, vars)) {
					return true;
				}
			}
		}
		return false;
	}

	/** pypto's ExprRefsAnyOf: a Var, or one inside arithmetic or a cast. */
	static boolean refersTo(Expr e, Set<Var> vars) {
		if (e instanceof Var v) {
			return vars.contains(v);
		}
		if (e instanceof Expr.Binary b) {
			return refersTo(b.left(), vars) || refersTo(b.right(), vars);
		}
		if (e instanceof Expr.Unary u) {
			return refersTo(u.operand(), vars);
		}
		return false;
	}

	/**
	 * An InjectGMPipeBuffer workspace: sized from the pipes its consumer initializes, times the
	 * consumer's core count. False when the core count uses a value computed in this sequence (the
	 * create then stays in place).
	 */
	private boolean sizeGmPipeBuffer(List<Stmt> stmts, int createIdx, Var var, String emit, Set<Var> locallyDefined) {
		CallView use = null;
		Function callee = null;
		for (int i = createIdx + 1; i < stmts.size() && use == null; i++) {
			Stmt s = stmts.get(i);
			if (s instanceof Stmt.Assign a && a.var() == var) {
				break;
			}
			CallView c = s instanceof Stmt.Assign a ? CallView.of(a.value()) : s instanceof Stmt.Eval e ? CallView.of(e.expr()) : null;
			if (c == null || !c.args().contains(var)) {
				continue;
			}
			callee = c.isBuiltin() ? null : st.callee(c.name());
			if (callee == null) {
				break;
			}
			use = c;
		}
		if (use == null) {
			throw new CodegenException("Internal error: injected gm_pipe_buffer tensor.create is not passed to a callee",
					var.span());
		}
		long elements = st.gmPipeElements.computeIfAbsent(callee.name(), k -> workspaceElements(st.callee(k)));
		if (elements <= 0) {
			throw new CodegenException("Internal error: injected gm_pipe_buffer tensor.create found without initialize_pipe ops",
					var.span());
		}
		String size = Long.toString(elements);
		String coreNum = tasks.renderedCoreNum(use, callee);
		if (!coreNum.isEmpty()) {
			size = "static_cast<uint32_t>((" + size + ") * (" + coreNum + "))";
		}
		st.createSizeExprByEmitName.put(emit, size);
		Expr coreNumExpr = tasks.coreNumExpr(use, callee);
		return !(coreNumExpr != null && refersTo(coreNumExpr, locallyDefined));
	}

	/**
	 * pypto's ComputeGMPipeWorkspaceElements: the bytes of every pipe the function (and what it calls)
	 * initializes, {@code slots * rings * slot_size}, rounded up to floats.
	 */
	long workspaceElements(Function root) {
		Map<String, Integer> slotSize = new TreeMap<>();
		Map<String, Integer> slotCount = new TreeMap<>();
		Set<String> visited = new HashSet<>();
		scanFunction(root, visited, slotSize, slotCount);
		long total = 0;
		for (Map.Entry<String, Integer> e : slotSize.entrySet()) {
			int dirMask = Integer.parseInt(e.getKey().substring(e.getKey().indexOf(':') + 1));
			if (slotsForDirMask(dirMask) <= 0) {
				throw new CodegenException("initialize_pipe has invalid dir_mask for GM slot buffer: " + dirMask, null);
			}
			int slots = slotCount.getOrDefault(e.getKey(), 0);
			total += (long) effectiveSlots(dirMask, slots) * ringsForDirMask(dirMask) * e.getValue();
		}
		return total == 0 ? 0 : (total + 3) / 4;
	}

	private void scanFunction(Function f, Set<String> visited, Map<String, Integer> slotSize,
			Map<String, Integer> slotCount) {
		if (f == null || !visited.add(f.name()) || f.body() == null) {
			return;
		}
		scan(Stmt.flatten(f.body()), visited, slotSize, slotCount);
	}

	private void scan(List<Stmt> stmts, Set<String> visited, Map<String, Integer> slotSize, Map<String, Integer> slotCount) {
		for (Stmt s : stmts) {
			CallView c = s instanceof Stmt.Assign a ? CallView.of(a.value()) : s instanceof Stmt.Eval e ? CallView.of(e.expr()) : null;
			if (c != null && (c.isOp("system.aic_initialize_pipe") || c.isOp("system.aiv_initialize_pipe"))) {
				int id = intKwarg(c, "id");
				int dirMask = intKwarg(c, "dir_mask");
				int size = intKwarg(c, "slot_size");
				int num = intKwarg(c, "slot_num");
				if (dirMask > 0 && size > 0) {
					String key = String.format("%011d:%d", (long) id + Integer.MAX_VALUE, dirMask);
					int count = effectiveSlots(dirMask, num);
					Integer prevCount = slotCount.putIfAbsent(key, count);
					if (prevCount != null && prevCount != count) {
						throw new CodegenException("initialize_pipe for frontend pipe id " + id + " and dir_mask " + dirMask
								+ " uses inconsistent slot counts: " + prevCount + " and " + count, c.span());
					}
					Integer prevSize = slotSize.putIfAbsent(key, size);
					if (prevSize != null && prevSize != size) {
						throw new CodegenException("initialize_pipe for frontend pipe id " + id + " and dir_mask " + dirMask
								+ " uses inconsistent slot_size values: " + prevSize + " and " + size, c.span());
					}
				}
			} else if (c != null && !c.isBuiltin()) {
				scanFunction(st.callee(c.name()), visited, slotSize, slotCount);
			}
			if (s instanceof Stmt.For f) {
				scan(Stmt.flatten(f.body()), visited, slotSize, slotCount);
			} else if (s instanceof Stmt.If i) {
				scan(Stmt.flatten(i.then()), visited, slotSize, slotCount);
				if (i.orelse() != null) {
					scan(Stmt.flatten(i.orelse()), visited, slotSize, slotCount);
				}
			} else if (s instanceof Stmt.While w) {
				scan(Stmt.flatten(w.body()), visited, slotSize, slotCount);
			} else if (s instanceof Stmt.RuntimeScope r) {
				scan(Stmt.flatten(r.body()), visited, slotSize, slotCount);
			}
		}
	}

	private static int intKwarg(CallView c, String key) {
		return c.kwarg(key) instanceof Number n ? n.intValue() : 0;
	}

	// gm_pipe_layout.h: dir_mask 1 = C2V, 2 = V2C, 3 = both
	private static int slotsForDirMask(int dirMask) {
		return dirMask == 3 ? 4 : dirMask == 1 || dirMask == 2 ? 8 : 0;
	}

	private static int ringsForDirMask(int dirMask) {
		return dirMask == 3 ? 2 : dirMask == 1 || dirMask == 2 ? 1 : 0;
	}

	private static int effectiveSlots(int dirMask, int slotNum) {
		int d = slotsForDirMask(dirMask);
		return d <= 0 ? 0 : slotNum > 0 ? slotNum : d;
	}
}
