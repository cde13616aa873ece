package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * ConvertToSSA for one function, a port of pypto's {@code SSAConverter}
 * (src/ir/transforms/convert_to_ssa_pass.cpp). Every definition of a source Var gets its own Var named
 * {@code name__<role>_v<N>}, where N counts per source Var object (shared by all roles: ssa, iter, rv,
 * phi, idx). Loops carry every variable defined before them and assigned inside as iter args and return
 * vars; variables first assigned in a loop and read after it "escape" the same way; branches merge
 * diverging variables in phis. The allocation order of versions is pypto's, since the numbers reach the
 * generated code. A fresh converter per function: the counters restart.
 */
public final class SsaConverter {

	/** Source Var -> its current SSA value (a Var or an IterArg). */
	private Map<Var, Var> cur = new HashMap<>();
	/** Source Var -> next version number. */
	private final Map<Var, Integer> ver = new HashMap<>();
	/** Vars read by the statements after the one being converted (set by the enclosing sequence only). */
	private Set<Var> futureNeeds = new HashSet<>();
	private List<Var> origParams = List.of();
	private List<Direction> origDirections = List.of();
	/** Undefined init values made for escaping variables no pre-loop value could seed (pypto's verifier rejects them). */
	private final List<Var> placeholders = new ArrayList<>();

	/** Ties between equal names are unspecified in pypto (std::sort); creation order decides here. */
	private static final Comparator<Var> BY_NAME = Comparator.comparing(Var::name).thenComparingLong(Var::id);

	public Function convert(Function f) {
		origParams = f.params();
		origDirections = f.directions();
		List<Var> params = new ArrayList<>();
		for (Var p : f.params()) {
			params.add(allocVersion(p, p.type(), p.span()));
		}
		Stmt body = f.body() == null ? null : convert(f.body());
		Function out = new Function(f.name(), f.type(), params, f.directions(), f.returnTypes(), body, f.level(), f.role(),
				VarRefs.mapAttrExprs(f.attrs(), this::subst), f.span());
		return out;
	}

	/**
	 * The placeholder init values this conversion had to invent: variables first assigned in a loop and read
	 * after it that no value before the loop can seed. pypto's SSA verifier rejects the program for them.
	 */
	public List<Var> placeholders() {
		return List.copyOf(placeholders);
	}

	// ── versions ─────────────────────────────────────────────────────────

	private int nextVersion(Var key) {
		int v = ver.getOrDefault(key, 0);
		ver.put(key, v + 1);
		return v;
	}

	private String versionName(Var key, String role, int version) {
		try {
			return AutoNames.versioned(key.name(), role, version);
		} catch (CodegenException e) {
			throw new CodegenException(e.getMessage(), key.span());
		}
	}

	private Var allocVersion(Var key, Type type, Span span) {
		int v = nextVersion(key);
		Var var = new Var(versionName(key, "ssa", v), substType(type), span);
		cur.put(key, var);
		return var;
	}

	// ── substitution ─────────────────────────────────────────────────────

	private final IrMutator substituter = new IrMutator() {
		@Override
		public Expr var(Var v) {
			Var n = cur.get(v);
			return n != null ? n : v;
		}

		@Override
		public Expr call(Expr.Call c) {
			Expr.Call r = (Expr.Call) super.call(c);
			Type t = substType(r.type());
			Map<String, Object> attrs = VarRefs.mapAttrExprs(r.attrs(), SsaConverter.this::subst);
			if (t == r.type() && attrs == r.attrs()) {
				return r;
			}
			return new Expr.Call(r.callee(), r.args(), r.kwargs(), attrs, t, r.span());
		}

		@Override
		public Expr submit(Expr.Submit s) {
			Expr.Submit r = (Expr.Submit) super.submit(s);
			Type t = substType(r.type());
			Map<String, Object> attrs = VarRefs.mapAttrExprs(r.attrs(), SsaConverter.this::subst);
			if (t == r.type() && attrs == r.attrs()) {
				return r;
			}
			return new Expr.Submit(r.callee(), r.args(), r.deps(), r.coreNum(), r.syncStart(), attrs, t, r.span());
		}
	};

	private Expr subst(Expr e) {
		return e == null ? null : substituter.expr(e);
	}

	/** The type with its shape expressions substituted; the same object when nothing changed (pypto relies on it). */
	private Type substType(Type t) {
		return Types.mapExprs(t, this::subst);
	}

	/**
	 * pypto's GetAuthoritativeAssignmentType: the value's type when the value is a variable or its type is a
	 * tensor, tile, array or tuple (and known), else the declared type of the target.
	 */
	static Type authoritativeType(Type lhs, Expr value) {
		Type vt = value == null ? null : value.type();
		boolean authoritative = value instanceof Var || vt instanceof Type.Tensor || vt instanceof Type.Tile
				|| vt instanceof Type.Array || vt instanceof Type.Tuple;
		return vt != null && !(vt instanceof Type.Unknown) && authoritative ? vt : lhs;
	}

	// ── statements ───────────────────────────────────────────────────────

	private Stmt convert(Stmt s) {
		if (s instanceof Stmt.Assign a) {
			Expr val = subst(a.value());
			Var v = allocVersion(a.var(), authoritativeType(a.var().type(), val), a.var().span());
			return new Stmt.Assign(v, val, a.span());
		}
		if (s instanceof Stmt.Seq q) {
			return convertSeq(q);
		}
		if (s instanceof Stmt.For f) {
			return convertFor(f);
		}
		if (s instanceof Stmt.While w) {
			return convertWhile(w);
		}
		if (s instanceof Stmt.If i) {
			return convertIf(i);
		}
		if (s instanceof Stmt.Return r) {
			return new Stmt.Return(r.values().stream().map(this::subst).toList(), r.span());
		}
		if (s instanceof Stmt.Yield y) {
			return new Stmt.Yield(y.values().stream().map(this::subst).toList(), y.span());
		}
		if (s instanceof Stmt.Eval e) {
			Expr x = subst(e.expr());
			return x == e.expr() ? e : new Stmt.Eval(x, e.span());
		}
		if (s instanceof Stmt.Scope sc) {
			return convertScope(sc);
		}
		return s; // Break, Continue: unchanged, as in pypto
	}

	private Stmt convertSeq(Stmt.Seq q) {
		Yields.assertNoMidBodyYield(q);
		List<Stmt> stmts = q.stmts();
		int n = stmts.size();
		List<Set<Var>> suffixNeeds = new ArrayList<>();
		for (int i = 0; i <= n; i++) {
			suffixNeeds.add(new HashSet<>());
		}
		for (int j = n; j > 0; j--) {
			Stmt s = stmts.get(j - 1);
			Set<Var> needs = SsaLiveness.liveIn(s);
			Set<Var> defs = VarRefs.assignDefs(s);
			for (Var v : suffixNeeds.get(j)) {
				if (!defs.contains(v)) {
					needs.add(v);
				}
			}
			suffixNeeds.set(j - 1, needs);
		}
		List<Stmt> out = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			futureNeeds = i + 1 < n ? suffixNeeds.get(i + 1) : new HashSet<>();
			out.add(convert(stmts.get(i)));
		}
		return Stmts.flatten(out, q.span());
	}

	/** The loop-carried and escaping variables of a loop, created before its body is converted. */
	private final class Carries {
		final List<IterArg> iterArgs = new ArrayList<>();
		final Map<IterArg, Var> iterArgSource = new HashMap<>();
		final List<Var> carried = new ArrayList<>();
		final List<Var> carriedRvs = new ArrayList<>();
		final List<Var> escaping = new ArrayList<>();
		final List<Var> escapingRvs = new ArrayList<>();
		int existing;

		/** Explicit iter args (init_values=) keep their names; their inits are read before the loop. */
		void existing(List<IterArg> explicit) {
			for (IterArg ia : explicit) {
				IterArg n = new IterArg(ia.name(), substType(ia.type()), subst(ia.init()), ia.span());
				iterArgs.add(n);
				iterArgSource.put(n, ia);
			}
			existing = explicit.size();
		}

		void classify(Stmt body, Var loopVar, List<IterArg> explicit, Map<Var, Var> before, Set<Var> futureNeedsAtEntry,
				Span span) {
			Set<Var> assigned = VarRefs.assignDefs(body);
			Set<Var> explicitSet = new HashSet<>(explicit);
			for (Var v : assigned) {
				if (v != loopVar && !explicitSet.contains(v) && before.containsKey(v)) {
					carried.add(v);
				}
			}
			carried.sort(BY_NAME);
			Map<Var, Type> types = assignedTypes(body);
			for (Var v : assigned) {
				if (v != loopVar && !before.containsKey(v) && futureNeedsAtEntry.contains(v) && !explicitSet.contains(v)) {
					escaping.add(v);
				}
			}
			escaping.sort(BY_NAME);
			for (Var key : carried) {
				Var init = before.get(key);
				IterArg ia = new IterArg(versionName(key, "iter", nextVersion(key)), init.type(), init, span);
				iterArgs.add(ia);
				iterArgSource.put(ia, key);
				carriedRvs.add(new Var(versionName(key, "rv", nextVersion(key)), init.type(), span));
			}
			for (Var key : escaping) {
				Type type = substType(types.get(key));
				Var init = findInitValue(type, before);
				if (init == null) {
					// pypto's last resort: an undefined placeholder named like the variable (zero-trip loops).
					init = new Var(key.name(), type, span);
					placeholders.add(init);
				}
				IterArg ia = new IterArg(versionName(key, "iter", nextVersion(key)), type, init, span);
				iterArgs.add(ia);
				iterArgSource.put(ia, key);
				escapingRvs.add(new Var(versionName(key, "rv", nextVersion(key)), type, span));
			}
		}

		/** Makes the iter args the current values of their sources inside the body. */
		void register() {
			for (IterArg ia : iterArgs) {
				Var src = iterArgSource.get(ia);
				if (src != null) {
					cur.put(src, ia);
				}
				cur.put(ia, ia);
			}
			for (int i = 0; i < carried.size(); i++) {
				cur.put(carried.get(i), iterArgs.get(existing + i));
			}
			for (int i = 0; i < escaping.size(); i++) {
				cur.put(escaping.get(i), iterArgs.get(existing + carried.size() + i));
			}
		}

		/** After the loop: the return vars are the current values; explicit ones keep their names. */
		List<Var> returnVars(List<Var> explicitRvs) {
			for (int i = 0; i < carried.size(); i++) {
				cur.put(carried.get(i), carriedRvs.get(i));
			}
			for (int i = 0; i < escaping.size() && i < escapingRvs.size(); i++) {
				cur.put(escaping.get(i), escapingRvs.get(i));
			}
			List<Var> rebuilt = new ArrayList<>();
			for (Var rv : explicitRvs) {
				Var n = new Var(rv.name(), substType(rv.type()), rv.span());
				cur.put(rv, n);
				rebuilt.add(n);
			}
			for (int i = 0; i < iterArgs.size() && i < rebuilt.size(); i++) {
				Var src = iterArgSource.get(iterArgs.get(i));
				if (src != null) {
					cur.put(src, rebuilt.get(i));
				}
			}
			List<Var> all = new ArrayList<>(rebuilt);
			all.addAll(carriedRvs);
			all.addAll(escapingRvs);
			return all;
		}

		/** The body with its yield extended by the carried and escaping values at the end of the body. */
		Stmt yieldingBody(Stmt body, Map<Var, Var> after, Span span) {
			List<Expr> yields = new ArrayList<>();
			Stmt.Yield y = Yields.trailing(body);
			if (y != null) {
				yields.addAll(y.values());
			}
			for (Var key : carried) {
				yields.add(after.get(key));
			}
			for (Var key : escaping) {
				Var v = after.get(key);
				if (v != null) {
					yields.add(v);
				}
			}
			return yields.isEmpty() ? body : Yields.replaceOrAppend(body, yields, span);
		}
	}

	private Stmt convertFor(Stmt.For f) {
		Set<Var> savedFutureNeeds = futureNeeds;
		Expr start = subst(f.start());
		Expr stop = subst(f.stop());
		Expr step = subst(f.step());
		Map<Var, Var> before = new HashMap<>(cur);
		Carries c = new Carries();
		c.existing(f.iterArgs());
		c.classify(f.body(), f.loopVar(), f.iterArgs(), before, savedFutureNeeds, f.span());
		Var lv = f.loopVar();
		Var newLv = new Var(versionName(lv, "idx", nextVersion(lv)), lv.type(), lv.span());
		cur.put(lv, newLv);
		c.register();
		Stmt body = convert(f.body());
		Map<Var, Var> after = new HashMap<>(cur);
		cur = new HashMap<>(before);
		List<Var> rvs = c.returnVars(f.returnVars());
		body = c.yieldingBody(body, after, f.span());
		return new Stmt.For(newLv, start, stop, step, c.iterArgs, body, rvs, f.kind(), f.attrs(), f.span());
	}

	private Stmt convertWhile(Stmt.While w) {
		Set<Var> savedFutureNeeds = futureNeeds;
		Map<Var, Var> before = new HashMap<>(cur);
		Carries c = new Carries();
		c.existing(w.iterArgs());
		c.classify(w.body(), null, w.iterArgs(), before, savedFutureNeeds, w.span());
		c.register();
		Expr cond = subst(w.condition());
		Stmt body = convert(w.body());
		Map<Var, Var> after = new HashMap<>(cur);
		cur = new HashMap<>(before);
		List<Var> rvs = c.returnVars(w.returnVars());
		body = c.yieldingBody(body, after, w.span());
		return new Stmt.While(cond, c.iterArgs, body, rvs, w.span());
	}

	private Stmt convertIf(Stmt.If i) {
		Expr cond = subst(i.condition());
		Map<Var, Var> before = new HashMap<>(cur);
		Stmt then = convert(i.then());
		Map<Var, Var> thenVer = cur;
		cur = new HashMap<>(before);
		Stmt orelse = i.orelse() == null ? null : convert(i.orelse());
		Map<Var, Var> elseVer = i.orelse() != null ? cur : before;

		List<Var> phis = new ArrayList<>();
		for (Map.Entry<Var, Var> e : thenVer.entrySet()) {
			Var key = e.getKey();
			Var b = before.get(key);
			if (b != null) {
				Var ev = elseVer.get(key);
				if (b != e.getValue() || (ev != null && b != ev)) {
					phis.add(key);
				}
			} else if (elseVer.containsKey(key)) {
				phis.add(key); // a new variable defined in both branches
			}
		}
		for (Map.Entry<Var, Var> e : elseVer.entrySet()) {
			if (thenVer.containsKey(e.getKey())) {
				continue;
			}
			Var b = before.get(e.getKey());
			if (b != null && b != e.getValue()) {
				phis.add(e.getKey());
			}
		}
		phis.sort(BY_NAME);

		if (phis.isEmpty() && i.returnVars().isEmpty()) {
			cur = before;
			return new Stmt.If(cond, then, orelse, List.of(), i.span());
		}
		cur = new HashMap<>(before);
		List<Var> returnVars = new ArrayList<>();
		if (phis.isEmpty()) {
			// Explicit pl.yield_ branches: the return vars get versions, the branch yields stay.
			for (Var rv : i.returnVars()) {
				Var n = new Var(versionName(rv, "rv", nextVersion(rv)), substType(rv.type()), rv.span());
				returnVars.add(n);
				cur.put(rv, n);
			}
			return new Stmt.If(cond, then, orelse, returnVars, i.span());
		}
		List<Expr> thenYields = new ArrayList<>();
		List<Expr> elseYields = new ArrayList<>();
		for (Var key : phis) {
			Var tv = thenVer.containsKey(key) ? thenVer.get(key) : before.get(key);
			Var ev = elseVer.containsKey(key) ? elseVer.get(key) : before.get(key);
			Var phi = new Var(versionName(key, "phi", nextVersion(key)), tv.type(), i.span());
			returnVars.add(phi);
			thenYields.add(tv);
			elseYields.add(ev);
			cur.put(key, phi);
		}
		for (Var rv : i.returnVars()) {
			if (!phis.contains(rv)) {
				Var n = new Var(versionName(rv, "rv", nextVersion(rv)), substType(rv.type()), rv.span());
				returnVars.add(n);
				cur.put(rv, n);
			}
		}
		Stmt thenOut = Yields.replaceOrAppend(then, thenYields, i.span());
		Stmt elseOut = orelse != null ? Yields.replaceOrAppend(orelse, elseYields, i.span())
				: new Stmt.Yield(elseYields, i.span());
		return new Stmt.If(cond, thenOut, elseOut, returnVars, i.span());
	}

	private Stmt convertScope(Stmt.Scope s) {
		// Attributes and the SPMD core count read the values at scope entry.
		Map<String, Object> attrs = s instanceof Stmt.InCoreScope ic ? VarRefs.mapAttrExprs(ic.attrs(), this::subst) : null;
		Expr coreNum = s instanceof Stmt.SpmdScope sp ? subst(sp.coreNum()) : null;
		// Loops inside an outlined scope must not promote variables first defined in the scope to escaping.
		boolean boundary = !(s instanceof Stmt.RuntimeScope) && !(s instanceof Stmt.SplitAivScope);
		Set<Var> saved = futureNeeds;
		if (boundary) {
			Set<Var> restricted = new HashSet<>();
			for (Var v : futureNeeds) {
				if (cur.containsKey(v)) {
					restricted.add(v);
				}
			}
			futureNeeds = restricted;
		}
		// cur is not restored after the body: variables first defined in the scope stay visible after it.
		Stmt body = convert(s.body());
		if (boundary) {
			futureNeeds = saved;
		}
		if (s instanceof Stmt.InCoreScope ic) {
			return new Stmt.InCoreScope(ic.nameHint(), ic.split(), attrs, body, ic.span());
		}
		if (s instanceof Stmt.SpmdScope sp) {
			return new Stmt.SpmdScope(sp.nameHint(), coreNum, sp.syncStart(), VarRefs.mapAttrExprs(sp.attrs(), this::subst),
					body, sp.span());
		}
		return body == s.body() ? s : s.withBody(body);
	}

	// ── helpers ──────────────────────────────────────────────────────────

	/** The type each variable assigned in a body gets from its last assignment (pypto's TypeCollector). */
	private static Map<Var, Type> assignedTypes(Stmt body) {
		Map<Var, Type> types = new HashMap<>();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a) {
					types.put(a.var(), authoritativeType(a.var().type(), a.value()));
					return;
				}
				super.stmt(s);
			}
		}.stmt(body);
		return types;
	}

	/**
	 * pypto's FindInitValue for an escaping variable: the first Out/InOut parameter whose current value has
	 * exactly this type object, else the earliest-created pre-loop variable whose value has it, else null.
	 * Type identity is object identity, as pypto compares TypePtrs.
	 */
	private Var findInitValue(Type type, Map<Var, Var> pre) {
		for (int i = 0; i < origParams.size(); i++) {
			Direction d = origDirections.get(i);
			if (d == Direction.Out || d == Direction.InOut) {
				Var v = pre.get(origParams.get(i));
				if (v != null && v.type() == type) {
					return v;
				}
			}
		}
		Var best = null;
		long bestId = Long.MAX_VALUE;
		for (Map.Entry<Var, Var> e : pre.entrySet()) {
			if (e.getValue().type() == type && e.getKey().id() < bestId) {
				bestId = e.getKey().id();
				best = e.getValue();
			}
		}
		return best;
	}
}
