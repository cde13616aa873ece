package dev.ptotools.codegen.chip;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.support.CodeEmitter;
import dev.ptotools.codegen.support.ProgramContext;

/**
 * The mutable state of one orchestration codegen run, shared by the statement visitor and the task
 * emitter: names, counters (tasks, alloc batches, kernel ids in first-call order), the per-kernel
 * results kernel_config.py needs, and the scope bookkeeping.
 */
final class ChipState {

	final ProgramContext ctx;
	final ChipNames names = new ChipNames();
	final CppExprs exprs = new CppExprs(names);
	final CodeEmitter out = new CodeEmitter(1);
	final ChipAnalysis analysis;
	/** Tensor parameter emit name -> tensor index. */
	final Map<String, Integer> paramIndex = new HashMap<>();
	final Map<String, Integer> packedFp4Axis = new HashMap<>();
	final ChipTensorOps ops;
	/** Kernel name -> id, in first-call order. */
	final Map<String, Integer> funcIds = new LinkedHashMap<>();
	/** Kernel name -> "aiv" / "aic". */
	final Map<String, String> coreTypes = new LinkedHashMap<>();
	/** Kernel name -> tensor directions (IN/OUT/INOUT), first call wins. */
	final Map<String, List<String>> signatures = new LinkedHashMap<>();
	final Set<OVar> declaredCreates = Collections.newSetFromMap(new IdentityHashMap<>());
	/** Locals the C++ already declared: a later assignment of the same Var assigns, it does not redeclare. */
	final Set<OVar> declaredLocals = Collections.newSetFromMap(new IdentityHashMap<>());
	final Set<OStmt> batchedCreates = Collections.newSetFromMap(new IdentityHashMap<>());
	final Deque<Set<String>> mutableTensorScopes = new ArrayDeque<>();
	/** The return vars the current yield assigns; null slots are trivial carries. */
	List<OVar> currentReturnVars = new ArrayList<>();
	int taskCounter;
	int allocCounter;

	ChipState(ProgramContext ctx, ChipAnalysis analysis) {
		this.ctx = ctx;
		this.analysis = analysis;
		this.ops = new ChipTensorOps(names, exprs, paramIndex, packedFp4Axis);
	}

	int funcId(String kernel) {
		return funcIds.computeIfAbsent(kernel, k -> funcIds.size());
	}

	void pushCppScope() {
		mutableTensorScopes.push(new HashSet<>());
	}

	void popCppScope() {
		mutableTensorScopes.pop();
	}

	void registerMutable(String cppType, String name) {
		if ("ChipTensor".equals(cppType) && !mutableTensorScopes.isEmpty()) {
			mutableTensorScopes.peek().add(name);
		}
	}

	boolean mutableInCurrentScope(String name) {
		return !mutableTensorScopes.isEmpty() && mutableTensorScopes.peek().contains(name);
	}

	/** pypto's GetCppType. */
	static String cppType(OType t) {
		if (t instanceof OType.Scalar s) {
			return s.dtype().ctype();
		}
		if (t instanceof OType.Tensor) {
			return "ChipTensor";
		}
		if (t instanceof OType.CommCtx) {
			return "uint64_t";
		}
		return "auto";
	}
}
