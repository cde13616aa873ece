package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's {@code outline_utils::ScopeOutliner} (src/ir/transforms/utils/scope_outline_utils.cpp), shared
 * by OutlineHierarchyScopes, OutlineIncoreScopes and OutlineClusterScopes: rewrites one function body,
 * turning every scope of the target kind into a call of a new function.
 *
 * <p>The outlined function's parameters are the scope's live-in Vars in first-read order; its returns
 * are the scope's definitions used after it (in definition order), then the captured tensors it
 * {@code tile.store}s into. Directions come from what the body writes and reads
 * ({@link OutlineDirections}). What is "used after" a scope is everything referenced by the statements
 * after it in its statement list and after every enclosing statement; with no such context every local
 * is exported. A store target gets a fresh SSA name at the call site, which later statements and later
 * scopes use.
 */
public final class ScopeOutliner extends RemapMutator {

	/** The scope kind a pass outlines. */
	public enum Kind {
		InCore, Cluster, Hierarchy, Spmd
	}

	private final Kind kind;
	private final FunctionType outlinedType;
	private final String suffix;
	private final Program program;
	private final Set<String> reserved;

	private String funcName;
	private Set<Var> symbols;
	private Set<String> knownNames;
	private Set<Var> requiredOutputs = VarCollectors.identitySet();
	private Map<Var, Var> renames = new IdentityHashMap<>();
	private int counter;
	private boolean insideNested;
	private final List<Function> outlined = new ArrayList<>();

	/**
	 * @param symbols the parent function's symbol table (params and every Var of its body)
	 * @param program the program to look inner callees up in (merging their directions, tracing returns
	 *                through them), or null (InCore and Hierarchy outlining)
	 * @param reserved function names taken program-wide, shared by the outliners of one pass run
	 */
	public ScopeOutliner(String funcName, VarCollectors.Symbols symbols, Kind kind, FunctionType outlinedType,
			String suffix, Program program, Set<String> reserved) {
		this.funcName = funcName;
		this.symbols = VarCollectors.identitySet();
		this.symbols.addAll(symbols.vars);
		this.knownNames = new HashSet<>(symbols.names);
		this.kind = kind;
		this.outlinedType = outlinedType;
		this.suffix = suffix;
		this.program = program;
		this.reserved = reserved;
	}

	/** The functions outlined so far, in outlining order. */
	public List<Function> outlined() {
		return Collections.unmodifiableList(outlined);
	}

	static Kind kindOf(Stmt.Scope s) {
		if (s instanceof Stmt.InCoreScope) {
			return Kind.InCore;
		}
		if (s instanceof Stmt.ClusterScope) {
			return Kind.Cluster;
		}
		if (s instanceof Stmt.HierarchyScope) {
			return Kind.Hierarchy;
		}
		if (s instanceof Stmt.SpmdScope) {
			return Kind.Spmd;
		}
		return null;
	}

	/** Scopes whose bodies confine their locals (pypto's ScopeKind nodes other than runtime scopes). */
	private static boolean confining(Stmt.Scope s) {
		return kindOf(s) != null || s instanceof Stmt.SplitAivScope;
	}

	private boolean isTarget(Stmt s) {
		return s instanceof Stmt.Scope sc && kindOf(sc) == kind;
	}

	// ---- traversal -------------------------------------------------------------------------------

	@Override
	protected Var mapVar(Var v) {
		// pypto's outliner renames Var references only (its IterArg visitor is the base one).
		if (!(v instanceof IterArg)) {
			Var r = renames.get(v);
			if (r != null) {
				return r;
			}
		}
		return super.mapVar(v);
	}

	@Override
	public Stmt seq(Stmt.Seq q) {
		List<Stmt> stmts = q.stmts();
		Set<Integer> dropped = new HashSet<>();
		for (int i = 1; i < stmts.size(); i++) {
			Var tid = isTarget(stmts.get(i)) ? taskIdVar((Stmt.Scope) stmts.get(i)) : null;
			if (tid != null && stmts.get(i - 1) instanceof Stmt.Assign a && a.var() == tid && a.value() instanceof Expr.Call c
					&& c.isOp("system.task_invalid")) {
				dropped.add(i - 1);
			}
		}
		List<Stmt> out = new ArrayList<>();
		boolean changed = false;
		for (int i = 0; i < stmts.size(); i++) {
			if (dropped.contains(i)) {
				changed = true;
				continue;
			}
			VarCollectors.DefUse after = new VarCollectors.DefUse();
			for (int j = i + 1; j < stmts.size(); j++) {
				if (!dropped.contains(j)) {
					after.stmt(stmts.get(j));
				}
			}
			Set<Var> afterRefs = after.allRefs();
			Stmt s = stmts.get(i);
			if (isTarget(s)) {
				Set<Var> usedAfter = VarCollectors.union(afterRefs, requiredOutputs);
				if (usedAfter.isEmpty()) {
					usedAfter = fallbackUsedAfter((Stmt.Scope) s);
				}
				out.add(outline((Stmt.Scope) s, usedAfter));
				changed = true;
			} else {
				Set<Var> saved = requiredOutputs;
				requiredOutputs = VarCollectors.union(saved, afterRefs);
				Stmt n = stmt(s);
				requiredOutputs = saved;
				out.add(n);
				changed |= n != s;
			}
		}
		return changed ? new Stmt.Seq(flatten(out), q.span()) : q;
	}

	/** pypto's SeqStmts::Flatten: nested statement lists spliced into one. */
	public static List<Stmt> flatten(List<Stmt> stmts) {
		List<Stmt> out = new ArrayList<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Seq q) {
				out.addAll(flatten(q.stmts()));
			} else if (s != null) {
				out.add(s);
			}
		}
		return out;
	}

	@Override
	public Stmt scope(Stmt.Scope s) {
		if (kindOf(s) != kind) {
			boolean prev = insideNested;
			if (confining(s)) {
				insideNested = true;
			}
			Stmt r = super.scope(s);
			insideNested = prev;
			return r;
		}
		if (requiredOutputs.isEmpty()) {
			return outline(s, fallbackUsedAfter(s));
		}
		Set<Var> usedAfter = VarCollectors.union(requiredOutputs, VarCollectors.storeTargets(s.body()));
		return outline(s, usedAfter);
	}

	/**
	 * Outputs when nothing after the scope says what it must export: only store targets inside another
	 * scope; otherwise every local too. A deferred-completion waiter exports nothing.
	 */
	private Set<Var> fallbackUsedAfter(Stmt.Scope s) {
		if (VarCollectors.containsDeferWait(s.body())) {
			return VarCollectors.identitySet();
		}
		Set<Var> out = VarCollectors.identitySet();
		if (!insideNested) {
			out.addAll(VarCollectors.DefUse.of(s.body()).defs);
		}
		out.addAll(VarCollectors.storeTargets(s.body()));
		return out;
	}

	// ---- naming ---------------------------------------------------------------------------------

	private boolean taken(String name) {
		return knownNames.contains(name) || reserved != null && reserved.contains(name);
	}

	private String numericSuffix(String base) {
		int n = 0;
		String cand;
		do {
			cand = base + "_" + n++;
		} while (taken(cand));
		return cand;
	}

	/** pypto's DisambiguateOutlinedName: namespace cross-function clashes, number local ones. */
	private String disambiguate(String candidate) {
		if (!taken(candidate)) {
			return candidate;
		}
		if (!knownNames.contains(candidate)) {
			String namespaced = funcName + "_" + candidate;
			return taken(namespaced) ? numericSuffix(namespaced) : namespaced;
		}
		return numericSuffix(candidate);
	}

	static String hierarchySuffix(Level level, Role role) {
		String name = "_" + switch (level) {
		case AIV -> "aiv";
		case AIC -> "aic";
		case CORE_GROUP -> "core_group";
		case CHIP_DIE -> "chip_die";
		case CHIP -> "chip";
		case HOST -> "host";
		case CLUSTER_0 -> "cluster0";
		case CLUSTER_1 -> "cluster1";
		case CLUSTER_2 -> "cluster2";
		case GLOBAL -> "global";
		};
		if (role != null) {
			name += role == Role.Orchestrator ? "_orch" : "_sub_worker";
		}
		return name + "_";
	}

	private Set<String> symbolNames() {
		Set<String> names = new HashSet<>();
		for (Var v : symbols) {
			names.add(v.name());
		}
		return names;
	}

	/** pypto's GenerateFreshSSAName: the next unused version of a name among the function's Vars. */
	private String freshSsaName(String name) {
		return OutlineNames.freshNameLike(name, symbolNames());
	}

	private Var freshStoreTarget(Var original, Span span) {
		Var fresh = new Var(freshSsaName(original.name()), original.type(), span);
		renames.put(original, fresh);
		symbols.add(fresh);
		knownNames.add(fresh.name());
		return fresh;
	}

	// ---- outlining ------------------------------------------------------------------------------

	private Stmt outline(Stmt.Scope scope, Set<Var> usedAfter) {
		String name;
		if (!scope.nameHint().isEmpty()) {
			name = scope.nameHint();
			counter++;
		} else {
			String suf = scope instanceof Stmt.HierarchyScope h ? hierarchySuffix(h.level(), h.role()) : suffix;
			name = funcName + suf + counter++;
		}
		name = disambiguate(name);
		knownNames.add(name);
		if (reserved != null) {
			reserved.add(name);
		}
		Stmt body = scope.body();
		boolean deferredWait = VarCollectors.containsDeferWait(body);
		if (deferredWait && (kind != Kind.InCore || insideNested)) {
			throw new CodegenException("pld.system.defer_wait must be in a task-level pl.at(CORE_GROUP) scope",
					scope.span());
		}

		VarCollectors.DefUse bodyDefs = VarCollectors.DefUse.of(body);
		Set<Var> storeTargets = VarCollectors.storeTargets(body);
		VarCollectors.LiveIn liveIn = VarCollectors.LiveIn.of(body);
		List<Var> inputs = new ArrayList<>(liveIn.ordered);
		for (Var v : inputs) {
			if (bodyDefs.defs.contains(v) && !storeTargets.contains(v)) {
				throw new CodegenException("Internal error: scope '" + name + "' captures '" + v.name()
						+ "' and rebinds it under the same name without a tile.store. The outlining passes require SSA "
						+ "form — run ConvertToSSA first.", scope.span());
			}
		}
		VarCollectors.Symbols scopeSymbols = VarCollectors.Symbols.of(List.of(), body);
		Map<Var, Var> aliases = VarCollectors.postStoreAliases(body);

		List<Var> outputs = new ArrayList<>();
		Set<Var> storeOutputs = VarCollectors.identitySet();
		Map<Var, Var> deferredAliases = new LinkedHashMap<>();
		for (Var v : bodyDefs.defsOrdered) {
			if (!usedAfter.contains(v)) {
				continue;
			}
			Var target = aliases.get(v);
			if (target != null && storeTargets.contains(target) && liveIn.isExternal(target)) {
				deferredAliases.put(v, target);
				continue;
			}
			outputs.add(v);
		}
		if (kind != Kind.Hierarchy) {
			// pypto iterates an unordered_set of store targets; libstdc++ yields small sets in reverse
			// insertion order (checked against pypto with three stores in one scope).
			List<Var> targets = new ArrayList<>(storeTargets);
			Collections.reverse(targets);
			for (Var t : targets) {
				if (liveIn.isExternal(t)) {
					outputs.add(t);
					storeOutputs.add(t);
				}
			}
		}

		// Recurse into the body: nested scopes are named after this function and see its outputs as required.
		String savedName = funcName;
		int savedCounter = counter;
		Set<Var> savedSymbols = symbols;
		Set<String> savedKnown = knownNames;
		Set<Var> savedRequired = requiredOutputs;
		Map<Var, Var> savedRenames = renames;
		funcName = name;
		counter = 0;
		symbols = VarCollectors.union(savedSymbols, scopeSymbols.vars);
		knownNames = new HashSet<>(savedKnown);
		knownNames.addAll(scopeSymbols.names);
		renames = new IdentityHashMap<>();
		requiredOutputs = VarCollectors.identitySet();
		requiredOutputs.addAll(outputs);
		Stmt recursed = stmt(body);
		funcName = savedName;
		counter = savedCounter;
		symbols = savedSymbols;
		knownNames = savedKnown;
		requiredOutputs = savedRequired;
		renames = savedRenames;

		List<Direction> directions = OutlineDirections.infer(inputs, body, storeOutputs, program);
		List<Var> params = new ArrayList<>();
		Map<Var, Var> substitution = new IdentityHashMap<>();
		for (Var in : inputs) {
			Var p = new Var(in.name(), in.type(), scope.span());
			params.add(p);
			substitution.put(in, p);
		}
		Set<String> usedNames = new HashSet<>();
		inputs.forEach(v -> usedNames.add(v.name()));
		usedNames.addAll(scopeSymbols.names);
		List<Var> outlinedOutputs = new ArrayList<>();
		Map<Var, Var> storeResultVars = new IdentityHashMap<>();
		for (Var out : outputs) {
			boolean isStore = storeOutputs.contains(out);
			String outName = out.name();
			if (isStore) {
				outName = OutlineNames.build(OutlineNames.baseName(out.name()), "", "store", null);
				if (usedNames.contains(outName)) {
					outName = OutlineNames.freshNameLike(outName, usedNames);
				}
			}
			usedNames.add(outName);
			Var ov = new Var(outName, out.type(), scope.span());
			outlinedOutputs.add(ov);
			if (isStore) {
				storeResultVars.put(out, ov);
			} else {
				substitution.put(out, ov);
			}
		}
		Stmt preSub = storeResultVars.isEmpty() ? recursed
				: new StoreEvalToAssign(storeResultVars, usedNames).stmt(recursed);
		RemapMutator sub = new RemapMutator(substitution);
		Stmt transformed = sub.stmt(preSub);
		for (int i = 0; i < params.size(); i++) {
			params.set(i, sub.mapped(inputs.get(i)));
		}
		List<Type> returnTypes = new ArrayList<>();
		for (int i = 0; i < outputs.size(); i++) {
			Var fresh = storeOutputs.contains(outputs.get(i)) ? sub.mapped(outlinedOutputs.get(i)) : sub.mapped(outputs.get(i));
			outlinedOutputs.set(i, fresh);
			returnTypes.add(fresh.type());
		}

		Stmt outlinedBody = transformed;
		if (!outputs.isEmpty()) {
			List<Expr> rets = new ArrayList<>();
			for (int i = 0; i < outputs.size(); i++) {
				Var ret = outlinedOutputs.get(i);
				if (storeOutputs.contains(outputs.get(i))) {
					ret = params.get(inputs.indexOf(outputs.get(i)));
				} else if (ret.type() instanceof Type.Tensor) {
					Var p = ReturnLineage.traceToParam(ret, transformed, params, program);
					if (p != null) {
						ret = p;
					}
				}
				rets.add(ret);
			}
			List<Stmt> stmts = new ArrayList<>(transformed instanceof Stmt.Seq q ? q.stmts() : List.of(transformed));
			stmts.add(new Stmt.Return(rets, scope.span()));
			outlinedBody = new Stmt.Seq(stmts, scope.span());
		}

		Map<String, Object> attrs = scope instanceof Stmt.InCoreScope in ? inCoreAttrs(in, deferredWait) : Map.of();
		Level level = outlinedType.impliedLevel();
		Role role = outlinedType.impliedRole();
		if (scope instanceof Stmt.HierarchyScope h) {
			level = h.level();
			role = h.role();
		}
		outlined.add(new Function(name, outlinedType, params, directions, returnTypes, outlinedBody, level, role, attrs,
				scope.span()));

		Stmt result = new OutlinedCallSite(this, scope, name, inputs, outputs, storeOutputs, returnTypes).build();
		for (Map.Entry<Var, Var> a : deferredAliases.entrySet()) {
			Var r = renames.get(a.getValue());
			if (r != null) {
				renames.put(a.getKey(), r);
			}
		}
		return result;
	}

	/** Function attributes of an outlined InCore scope, in pypto's order. */
	private static Map<String, Object> inCoreAttrs(Stmt.InCoreScope in, boolean deferredWait) {
		Map<String, Object> attrs = new LinkedHashMap<>();
		boolean split = in.split() != null && !in.split().equals("None");
		if (split) {
			attrs.put("split", in.split());
		}
		if (in.attrs().containsKey("slot_num")) {
			attrs.put("slot_num", in.attrs().get("slot_num"));
		}
		if (Boolean.TRUE.equals(in.attrs().get("windowize"))) {
			attrs.put("windowize", true);
		}
		if (deferredWait) {
			attrs.put("deferred_completion_waiter", true);
		}
		List<String> regionModes = new ArrayList<>();
		new PyptoVisitor() {
			@Override
			protected void scope(Stmt.Scope s) {
				if (s instanceof Stmt.SplitAivScope r) {
					regionModes.add(r.split() == null ? "None" : r.split());
					return;
				}
				super.scope(s);
			}
		}.stmt(in.body());
		if (!regionModes.isEmpty()) {
			if (split) {
				throw new CodegenException("scope combines a function-level pl.split(...) (optimizations=[pl.split(...)]) "
						+ "with pl.split_aiv region(s); these are mutually exclusive AIV-split mechanisms.", in.span());
			}
			attrs.put("split_aiv", true);
			boolean uniform = regionModes.stream().distinct().count() == 1;
			if (uniform && !regionModes.get(0).equals("None")) {
				attrs.put("split", regionModes.get(0));
			}
		}
		return attrs;
	}

	static Var taskIdVar(Stmt.Scope s) {
		return scopeAttrs(s).get("task_id_var") instanceof Var v ? v : null;
	}

	/** The attributes of an InCore or Spmd scope (task id, dependencies, overrides...); empty for others. */
	static Map<String, Object> scopeAttrs(Stmt.Scope s) {
		if (s instanceof Stmt.InCoreScope in) {
			return in.attrs();
		}
		if (s instanceof Stmt.SpmdScope sp) {
			return sp.attrs();
		}
		return Map.of();
	}

	// ---- state the call-site builder shares -------------------------------------------------------

	Var renamedOrSelf(Var v) {
		Var r = renames.get(v);
		return r == null ? v : r;
	}

	Var newStoreTargetName(Var original, Span span) {
		return freshStoreTarget(original, span);
	}

	Var syntheticTaskId(Span span) {
		Var tid = new Var(freshSsaName("tid"), new Type.Scalar(dev.ptotools.codegen.types.DType.TASK_ID), span);
		symbols.add(tid);
		knownNames.add(tid.name());
		return tid;
	}
}
