package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * Variable collectors of pypto's outlining code (scope_outline_utils.h, var_collectors.h), with their
 * orders: the outliner derives parameter and return lists from them.
 */
public final class VarCollectors {

	private VarCollectors() {
	}

	/** A set of Vars by identity, iterated in insertion order. */
	public static Set<Var> identitySet() {
		return new LinkedHashSet<>(); // Var equality is identity
	}

	/**
	 * pypto's outline VarCollector: every Var reached (definitions, uses, tensor shape dims, outer iter
	 * args with their inits) and their names, the symbol table of a function.
	 */
	public static final class Symbols extends PyptoVisitor {
		public final Set<Var> vars = identitySet();
		public final Set<String> names = new HashSet<>();

		public void add(Var v) {
			vars.add(v);
			names.add(v.name());
		}

		@Override
		protected void varUse(Var v) {
			add(v);
			super.varUse(v);
		}

		@Override
		protected void forStmt(Stmt.For f) {
			add(f.loopVar());
			f.iterArgs().forEach(this::add);
			f.returnVars().forEach(this::add);
			super.forStmt(f);
		}

		@Override
		protected void whileStmt(Stmt.While w) {
			w.iterArgs().forEach(this::add);
			w.returnVars().forEach(this::add);
			super.whileStmt(w);
		}

		@Override
		protected void ifStmt(Stmt.If i) {
			i.returnVars().forEach(this::add);
			super.ifStmt(i);
		}

		public static Symbols of(List<Var> params, Stmt body) {
			Symbols s = new Symbols();
			params.forEach(s::add);
			s.stmt(body);
			return s;
		}
	}

	/**
	 * pypto's VarDefUseCollector: definitions in DFS pre-order (assignment target; loop var, return
	 * vars, iter args, then the body) and uses (a Var's type and an iter arg's init are not walked).
	 */
	public static final class DefUse extends PyptoVisitor {
		public final Set<Var> defs = identitySet();
		public final List<Var> defsOrdered = new ArrayList<>();
		public final Set<Var> uses = identitySet();

		private void def(Var v) {
			defs.add(v);
			defsOrdered.add(v);
		}

		@Override
		protected void varUse(Var v) {
			uses.add(v);
		}

		@Override
		protected void iterArgUse(IterArg a) {
			uses.add(a);
		}

		@Override
		protected void assign(Stmt.Assign a) {
			def(a.var());
			expr(a.value());
		}

		@Override
		protected void forStmt(Stmt.For f) {
			def(f.loopVar());
			f.returnVars().forEach(this::def);
			for (IterArg ia : f.iterArgs()) {
				def(ia);
				expr(ia.init());
			}
			expr(f.start());
			expr(f.stop());
			expr(f.step());
			stmt(f.body());
		}

		@Override
		protected void whileStmt(Stmt.While w) {
			w.returnVars().forEach(this::def);
			for (IterArg ia : w.iterArgs()) {
				def(ia);
				expr(ia.init());
			}
			expr(w.condition());
			stmt(w.body());
		}

		@Override
		protected void ifStmt(Stmt.If i) {
			i.returnVars().forEach(this::def);
			expr(i.condition());
			stmt(i.then());
			stmt(i.orelse());
		}

		/** Definitions and uses together (pypto's GetAllVarRefs). */
		public Set<Var> allRefs() {
			Set<Var> out = identitySet();
			out.addAll(defs);
			out.addAll(uses);
			return out;
		}

		public static DefUse of(Stmt s) {
			DefUse d = new DefUse();
			d.stmt(s);
			return d;
		}

		public static DefUse ofAll(Collection<Stmt> stmts) {
			DefUse d = new DefUse();
			stmts.forEach(d::stmt);
			return d;
		}
	}

	/** The Vars stored into by {@code tile.store} (argument 2), in first-store order. */
	public static Set<Var> storeTargets(Stmt body) {
		Set<Var> out = identitySet();
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if (c.isOp("tile.store") && c.args().size() >= 3 && plainVar(c.args().get(2)) instanceof Var v) {
					out.add(v);
				}
				super.call(c);
			}
		}.stmt(body);
		return out;
	}

	/** Alias → store target for every {@code v = tile.store(..., target)} (pypto's PostStoreAliasCollector). */
	public static Map<Var, Var> postStoreAliases(Stmt body) {
		Map<Var, Var> out = new IdentityHashMap<>();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && c.isOp("tile.store") && c.args().size() >= 3
						&& plainVar(c.args().get(2)) instanceof Var t) {
					out.putIfAbsent(a.var(), t);
				}
				super.assign(a);
			}
		}.stmt(body);
		return out;
	}

	/**
	 * pypto's UpwardExposedUseCollector: the variables a body reads before it (re)defines them, in
	 * first-read order — the live-in set, which becomes an outlined function's parameter list. Branches of
	 * an if are walked from the same incoming state; only definitions made by both arms survive.
	 */
	public static final class LiveIn extends PyptoVisitor {
		public final Set<Var> ordered = identitySet();
		private final Set<Var> defined = identitySet();
		private final List<Var> journal = new ArrayList<>();

		public static LiveIn of(Stmt body) {
			LiveIn l = new LiveIn();
			l.stmt(body);
			return l;
		}

		public boolean isExternal(Var v) {
			return ordered.contains(v);
		}

		private void use(Var v) {
			if (!defined.contains(v)) {
				ordered.add(v);
			}
		}

		private void define(Var v) {
			if (defined.add(v)) {
				journal.add(v);
			}
		}

		@Override
		protected void varUse(Var v) {
			use(v);
		}

		@Override
		protected void iterArgUse(IterArg a) {
			use(a);
		}

		@Override
		protected void assign(Stmt.Assign a) {
			expr(a.value());
			define(a.var());
		}

		@Override
		protected void forStmt(Stmt.For f) {
			for (IterArg ia : f.iterArgs()) {
				expr(ia.init());
			}
			define(f.loopVar());
			f.returnVars().forEach(this::define);
			f.iterArgs().forEach(this::define);
			expr(f.start());
			expr(f.stop());
			expr(f.step());
			stmt(f.body());
		}

		@Override
		protected void whileStmt(Stmt.While w) {
			for (IterArg ia : w.iterArgs()) {
				expr(ia.init());
			}
			w.returnVars().forEach(this::define);
			w.iterArgs().forEach(this::define);
			expr(w.condition());
			stmt(w.body());
		}

		@Override
		protected void ifStmt(Stmt.If i) {
			expr(i.condition());
			i.returnVars().forEach(this::define);
			List<Var> thenNew = isolated(i.then());
			if (i.orelse() == null) {
				return;
			}
			List<Var> elseNew = isolated(i.orelse());
			Set<Var> thenSet = identitySet();
			thenSet.addAll(thenNew);
			for (Var v : elseNew) {
				if (thenSet.contains(v)) {
					define(v);
				}
			}
		}

		private List<Var> isolated(Stmt body) {
			int mark = journal.size();
			stmt(body);
			List<Var> introduced = new ArrayList<>(journal.subList(mark, journal.size()));
			introduced.forEach(defined::remove);
			journal.subList(mark, journal.size()).clear();
			return introduced;
		}
	}

	/**
	 * pypto's ParamReadCollector: which tracked Vars a body reads — every use except the destination of
	 * a non-atomic {@code tile.store} (argument 2) or {@code tensor.assemble} (argument 0), definition
	 * sites, and the bookkeeping attributes {@code dump_vars} / {@code arg_direction_overrides_vars}. A
	 * Var bound to a write of a tracked destination is another name for it.
	 */
	public static final class Reads extends PyptoVisitor {
		private final Map<Var, Integer> aliases = new IdentityHashMap<>();
		private final boolean[] read;

		public Reads(List<Var> tracked) {
			for (int i = 0; i < tracked.size(); i++) {
				aliases.put(tracked.get(i), i);
			}
			read = new boolean[tracked.size()];
		}

		public boolean read(int i) {
			return read[i];
		}

		@Override
		protected void varUse(Var v) {
			Integer i = aliases.get(v);
			if (i != null) {
				read[i] = true;
			}
			super.varUse(v);
		}

		@Override
		protected void assign(Stmt.Assign a) {
			Var dst = writtenDestination(a.value());
			if (dst != null && aliases.containsKey(dst)) {
				aliases.putIfAbsent(a.var(), aliases.get(dst));
			}
			expr(a.value());
		}

		@Override
		protected void forStmt(Stmt.For f) {
			expr(f.start());
			expr(f.stop());
			expr(f.step());
			for (IterArg ia : f.iterArgs()) {
				expr(ia.init());
			}
			stmt(f.body());
		}

		@Override
		protected void whileStmt(Stmt.While w) {
			expr(w.condition());
			for (IterArg ia : w.iterArgs()) {
				expr(ia.init());
			}
			stmt(w.body());
		}

		@Override
		protected void ifStmt(Stmt.If i) {
			expr(i.condition());
			stmt(i.then());
			stmt(i.orelse());
		}

		@Override
		protected void call(Expr.Call c) {
			int dst = destinationSlot(c);
			for (int i = 0; i < c.args().size(); i++) {
				if (i != dst) {
					expr(c.args().get(i));
				}
			}
			attrs(c.attrs());
		}

		@Override
		protected boolean visitAttr(String key) {
			return !key.equals("dump_vars") && !key.equals("arg_direction_overrides_vars");
		}

		private static int destinationSlot(Expr.Call c) {
			boolean assemble = c.isOp("tensor.assemble") && !c.args().isEmpty();
			boolean store = c.isOp("tile.store") && c.args().size() >= 3;
			if (!assemble && !store || isAtomic(c)) {
				return c.args().size();
			}
			return assemble ? 0 : 2;
		}

		private static Var writtenDestination(Expr value) {
			if (!(value instanceof Expr.Call c)) {
				return null;
			}
			int slot = destinationSlot(c);
			return slot < c.args().size() && c.args().get(slot) instanceof Var v ? v : null;
		}
	}

	/**
	 * The expression as a plain Var, not an IterArg, else null: pypto's {@code As<Var>}, which several
	 * outlining analyses use, does not match iter args (so a store into a loop's iter arg is not a store
	 * target of the outliner).
	 */
	public static Expr plainVar(Expr e) {
		return e instanceof Var && !(e instanceof IterArg) ? e : null;
	}

	/** Whether a store/assemble accumulates ({@code atomic=} other than none). */
	public static boolean isAtomic(Expr.Call c) {
		Object a = c.kwarg("atomic");
		if (a == null) {
			return false;
		}
		if (a instanceof Number n) {
			return n.longValue() != 0;
		}
		String s = a instanceof dev.ptotools.analyzer.facts.Values.EnumValue e ? e.member() : a.toString();
		return !s.equalsIgnoreCase("none") && !s.equals("kNone");
	}

	/** The Vars of a list of statements, in order, with no duplicates. */
	public static Set<Var> union(Collection<Var> a, Collection<Var> b) {
		Set<Var> out = identitySet();
		out.addAll(a);
		out.addAll(b);
		return out;
	}

	/** Whether a body contains {@code pld.system.defer_wait}. */
	public static boolean containsDeferWait(Stmt body) {
		boolean[] found = { false };
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if (c.isOp("pld.system.defer_wait")) {
					found[0] = true;
				}
				super.call(c);
			}
		}.stmt(body);
		return found[0];
	}

}
