package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.ReturnedParams;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;
import dev.ptotools.codegen.graph.TaskGraphRecorder;

/**
 * The mutable state of one orchestration codegen run (the fields of pypto's OrchestrationStmtCodegen),
 * shared by the statement, task, alias, allocation and op emitters: emit names, counters, the kernel
 * ids and signatures kernel_config.py needs, TaskId and array-carry bindings, the per-block sets of
 * mutable ChipTensor names, and the manual-scope hoisting state.
 */
final class OrchState {

	/** A TaskId array backing a carry: {@code name[size]}. */
	record ArrayCarry(String arrayName, long size) {
	}

	final Program program;
	final Function function;
	final CompileOptions options;

	// kernel metadata, by kernel name as pypto's std::maps
	final Map<String, Integer> funcIds = new TreeMap<>();
	final Map<String, CoreType> coreTypes = new TreeMap<>();
	final Map<String, List<String>> signatures = new TreeMap<>();

	// names
	final Map<Var, String> emitNames = new HashMap<>();
	final Set<String> declaredNames = new HashSet<>();
	final Set<String> paramNames = new HashSet<>();
	/** Tensor parameter emit name -> its index among the tensor parameters. */
	final Map<String, Integer> paramOrchIndex = new HashMap<>();
	final Map<String, Integer> packedFp4Axis = new HashMap<>();
	final Map<String, String> distParamToCtx = new HashMap<>();

	// output
	final CppCode root = new CppCode(1);
	CppCode active = root;
	int taskCounter;
	/** The tasks, loops and dependencies as this code submits them (the task graph view). */
	TaskGraphRecorder graph;
	int barrierCounter;
	int allocCounter;
	int manualDepth;

	/**
	 * Dependency sources (pypto's manual_task_id_map_): a TaskId variable name (String), the slots of a
	 * TaskId array (List of String), or the task index of a kernel result in a manual scope (Integer).
	 */
	Map<Var, Object> taskIds = new HashMap<>();
	Map<Var, ArrayCarry> arrayCarries = new HashMap<>();
	/** TaskId names bound to a fresh {@code task_N_outs.task_id()}: always valid. */
	final Set<String> guaranteedValid = new HashSet<>();

	/** Per generated C++ block, the ChipTensor names declared mutable in it (loop carries, phis). */
	final List<Set<String>> mutableTensorScopes = new ArrayList<>(List.of(new HashSet<>()));

	// manual scopes
	List<String> hoistSink;
	int hoistIndentLevel;
	Set<String> manualLocalNames;
	Set<String> enclosingManualLocalNames;
	final Set<String> hoistedCarryNames = new HashSet<>();

	// loops
	final List<String> loopSlotExprs = new ArrayList<>();
	/** The return vars the current yield assigns; null entries are trivial carries. */
	List<Var> currentReturnVars = new ArrayList<>();

	// analyses
	OrchAnalysis.TupleInfo tuples;
	Set<Var> effectiveUses = Set.of();
	final Set<Var> declaredCreateVars = new HashSet<>();
	final Set<Stmt> batchedCreates = Collections.newSetFromMap(new IdentityHashMap<>());
	final Map<String, Long> gmPipeElements = new HashMap<>();
	final Map<String, String> createSizeExprByEmitName = new HashMap<>();
	private final Map<Function, List<Integer>> returnedParams = new IdentityHashMap<>();

	/** The emit name the op templates write their result to (pypto's GetCurrentResultTarget). */
	String currentResultVar = "";

	OrchState(Program program, Function function, CompileOptions options) {
		this.program = program;
		this.function = function;
		this.options = options;
	}

	// ---- names ----

	/** The part of a name hint before the first "__" (pypto's GetSSABaseName). */
	static String baseName(String hint) {
		int at = hint.indexOf("__");
		return at < 0 ? hint : hint.substring(0, at);
	}

	/** Whether a hint's auto-name role is {@code out} (pypto's auto_name::Parse). */
	static boolean hasOutRole(String hint) {
		int at = hint.indexOf("__");
		if (at < 0) {
			return false;
		}
		String suffix = hint.substring(at + 2);
		int sep = suffix.lastIndexOf('_');
		String last = sep < 0 ? suffix : suffix.substring(sep + 1);
		if (last.length() >= 2 && last.charAt(0) == 'v' && last.substring(1).chars().allMatch(Character::isDigit)) {
			suffix = sep < 0 ? "" : suffix.substring(0, sep);
		}
		sep = suffix.lastIndexOf('_');
		String role = sep < 0 ? suffix : suffix.substring(sep + 1);
		return role.equals("out");
	}

	/** pypto's GetVarName: the emit name, else the SSA base name. */
	String varName(Var v) {
		String n = emitNames.get(v);
		return n != null ? n : baseName(v.name());
	}

	/** The emit name of a Var-valued expression, else "" (pypto's TryGetVarName). */
	String tryVarName(dev.ptotools.codegen.ir.Expr e) {
		return e instanceof Var v ? varName(v) : "";
	}

	/** {@code ext_<name>} for a parameter name (pypto's GetExternalTensorName). */
	String external(String name) {
		return paramNames.contains(name) ? "ext_" + name : name;
	}

	/** pypto's ReserveVarEmitName. */
	String reserve(Var v) {
		String existing = emitNames.get(v);
		if (existing != null) {
			return existing;
		}
		String base = baseName(v.name());
		if (hasOutRole(v.name()) || declaredNames.contains(base)) {
			base = v.name();
		}
		String name = unique(base);
		emitNames.put(v, name);
		if (manualLocalNames != null) {
			manualLocalNames.add(name);
		}
		return name;
	}

	/** pypto's ReserveSyntheticEmitName. */
	String reserveSynthetic(String base) {
		String name = unique(base);
		if (manualLocalNames != null) {
			manualLocalNames.add(name);
		}
		return name;
	}

	private String unique(String base) {
		String candidate = base;
		for (int i = 1; !declaredNames.add(candidate); i++) {
			candidate = base + "_" + i;
		}
		return candidate;
	}

	// ---- emission ----

	void line(String text) {
		active.line(text);
	}

	void blank() {
		active.line("");
	}

	/** A multi-line op snippet: each non-empty line at the current indent. */
	void lines(String text) {
		for (String l : text.split("\n", -1)) {
			if (!l.isEmpty()) {
				active.line(l);
			}
		}
	}

	// ---- C++ blocks and manual scopes ----

	void pushCppScope() {
		mutableTensorScopes.add(new HashSet<>());
	}

	void popCppScope() {
		mutableTensorScopes.remove(mutableTensorScopes.size() - 1);
	}

	void registerMutable(String cppType, String name) {
		if (cppType.equals("ChipTensor")) {
			mutableTensorScopes.get(mutableTensorScopes.size() - 1).add(name);
		}
	}

	boolean isMutableInCurrentScope(String name) {
		return !mutableTensorScopes.isEmpty() && mutableTensorScopes.get(mutableTensorScopes.size() - 1).contains(name);
	}

	/** A tensor name a reader after the active manual scope can still see (pypto's IsEnclosingScopeValid). */
	boolean isEnclosingScopeValid(String name) {
		return manualLocalNames != null && !manualLocalNames.contains(name);
	}

	/** The current indent is the direct body of a manual scope. */
	boolean atManualScopeBodyIndent() {
		return active.level() == hoistIndentLevel + 1;
	}

	/**
	 * A mutable {@code ChipTensor name = init;} for a loop carry or an if phi, hoisted before a MANUAL
	 * scope when the construct is directly in its body and the init is valid outside (pypto's
	 * EmitMutableTensorCarryDecl).
	 */
	void mutableTensorCarryDecl(String name, String init) {
		graph.view(name, init);
		if (hoistSink != null && atManualScopeBodyIndent() && isEnclosingScopeValid(init)) {
			hoistSink.add(CppCode.indentAt(hoistIndentLevel) + "ChipTensor " + name + " = " + init + ";\n");
			mutableTensorScopes.get(mutableTensorScopes.size() - 2).add(name);
			hoistedCarryNames.add(name);
			manualLocalNames.remove(name);
			if (enclosingManualLocalNames != null) {
				enclosingManualLocalNames.add(name);
			}
		} else {
			line("ChipTensor " + name + " = " + init + ";");
			registerMutable("ChipTensor", name);
		}
	}

	// ---- TaskId bindings ----

	/** Register {@code var} as backed by {@code name[size]}: a dependency on it is one per slot. */
	void registerArrayCarry(Var var, String name, long size) {
		arrayCarries.put(var, new ArrayCarry(name, size));
		List<String> slots = new ArrayList<>();
		for (long i = 0; i < size; i++) {
			slots.add(name + "[" + i + "]");
		}
		taskIds.put(var, List.copyOf(slots));
	}

	// ---- types and callees ----

	/** pypto's GetCppType. */
	static String cppType(Type t, dev.ptotools.analyzer.ir.Span span) {
		if (t instanceof Type.Scalar s) {
			return s.dtype() == DType.TASK_ID ? "PTO2TaskId" : s.dtype().ctype();
		}
		if (t instanceof Type.Tensor) {
			return "ChipTensor";
		}
		if (t instanceof Type.CommCtx) {
			return "uint64_t";
		}
		if (t instanceof Type.Array) {
			throw new CodegenException("Internal error: GetCppType called for ArrayType — array vars must be declared via "
					+ "array.create's op codegen, not the catch-all AssignStmt path", span);
		}
		return "auto";
	}

	Function callee(String name) {
		return program.function(name);
	}

	/** The callee's return -> parameter index map, memoized. */
	List<Integer> returnedParams(Function callee) {
		return returnedParams.computeIfAbsent(callee, ReturnedParams::indices);
	}

	int funcId(String kernel) {
		return funcIds.computeIfAbsent(kernel, k -> funcIds.size());
	}
}
