package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.CallDirections.Arg;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.ReturnLineage;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * pypto's DeriveCallDirections over the source IR. Without SSA a Python name is one pypto Var, so
 * buffer roots are tracked per name in statement order: a parameter, a {@code pl.create_tensor} and
 * a slice are their own roots; a copy, a {@code pl.assemble} and a call result take the root of what
 * they alias. Prior writers are found per scope with loops and ifs as opaque writer units.
 */
public final class CallDirectionsPass implements Pass {

	@Override
	public String name() {
		return "derive-call-directions";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.CONSTANTS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.CALL_DIRECTIONS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		CallResolution calls = facts.get(Keys.CALLS);
		Constants constants = facts.get(Keys.CONSTANTS);
		IdentityHashMap<Expr.Call, List<Arg>> out = new IdentityHashMap<>();
		for (Program p : module.programs()) {
			for (Function f : p.functions()) {
				new Derivation(f, calls, constants.evaluator(p), out).run();
			}
		}
		facts.put(Keys.CALL_DIRECTIONS, new CallDirections(out));
	}

	/** What a call argument is, seen at the call. */
	private record ArgInfo(boolean tensor, String root, boolean ambiguous, boolean noDep) {
	}

	private record CallSite(Expr.Call call, Function callee, List<ArgInfo> args, boolean sequential) {
	}

	/** A name's buffer root; ambiguous when control flow may bind it to different buffers. */
	private record Root(String id, boolean ambiguous) {
	}

	private static final class Derivation {
		private final Function f;
		private final CallResolution calls;
		private final ConstEval eval;
		private final IdentityHashMap<Expr.Call, List<Arg>> out;
		private final Set<String> tensors = new HashSet<>();
		private final Map<String, Integer> ranks = new HashMap<>();
		private final Map<String, Root> roots = new HashMap<>();
		private final IdentityHashMap<Expr.Call, CallSite> sites = new IdentityHashMap<>();
		private final IdentityHashMap<Expr.Call, Set<String>> firstWriter = new IdentityHashMap<>();
		private int sequentialDepth;

		Derivation(Function f, CallResolution calls, ConstEval eval, IdentityHashMap<Expr.Call, List<Arg>> out) {
			this.f = f;
			this.calls = calls;
			this.eval = eval;
			this.out = out;
		}

		void run() {
			for (Param p : f.params()) {
				if (p.type() instanceof TypeSpec.Tensor t && t.kind() != TypeSpec.TensorKind.TILE) {
					tensors.add(p.name());
					roots.put(p.name(), new Root("param:" + p.name(), false));
					if (t.shape() != null) {
						ranks.put(p.name(), t.shape().size());
					}
				}
			}
			collect(f.body());
			analyzeScope(f.body(), new HashSet<>());
			for (CallSite site : sites.values()) {
				out.put(site.call(), directions(site));
			}
		}

		// ---- walk 1: names, roots and call sites in statement order ----

		private void collect(List<Stmt> body) {
			for (Stmt s : body) {
				collect(s);
			}
		}

		private void collect(Stmt s) {
			if (s instanceof Stmt.For loop) {
				collectFor(loop);
				return;
			}
			if (s instanceof Stmt.While w) {
				recordCalls(w.test());
				sequentialDepth++;
				collect(w.body());
				sequentialDepth--;
				return;
			}
			if (s instanceof Stmt.If i) {
				collectIf(i);
				return;
			}
			if (s instanceof Stmt.With w) {
				for (Stmt.WithItem item : w.items()) {
					recordCalls(item.context());
				}
				collect(w.body());
				return;
			}
			for (Expr e : Walk.ownExpressions(s)) {
				recordCalls(e);
			}
			if (s instanceof Stmt.Assign a && a.value() != null && a.targets().size() == 1) {
				bind(a.targets().get(0), a.value(), a.annotation());
			}
		}

		private void collectFor(Stmt.For loop) {
			recordCalls(loop.iter());
			boolean sequential = !isParallel(loop.iter());
			List<String> iterArgs = new ArrayList<>();
			List<Expr> inits = initValues(loop.iter());
			if (loop.target() instanceof Expr.TupleExpr t && t.elts().size() == 2
					&& t.elts().get(1) instanceof Expr.TupleExpr carried) {
				for (int k = 0; k < carried.elts().size(); k++) {
					if (carried.elts().get(k) instanceof Expr.Name n) {
						iterArgs.add(n.id());
						if (k < inits.size()) {
							copyKind(n.id(), inits.get(k));
						}
					}
				}
			}
			Map<String, Root> before = new HashMap<>(roots);
			if (sequential) {
				sequentialDepth++;
			}
			collect(loop.body());
			if (sequential) {
				sequentialDepth--;
			}
			// A loop that may run zero times leaves its carried results on the init buffer or the yielded one.
			boolean runs = tripCount(loop.iter()) > 0;
			for (Stmt s : loop.body()) {
				if (s instanceof Stmt.Assign a && isYield(a.value())) {
					for (String name : Walk.boundNames(a.targets().get(0))) {
						Root after = roots.get(name);
						Root init = before.get(name);
						if (!runs && after != null && (init == null || !init.id().equals(after.id()))) {
							roots.put(name, new Root(after.id(), true));
						}
					}
				}
			}
		}

		private void collectIf(Stmt.If i) {
			recordCalls(i.test());
			Map<String, Root> before = new HashMap<>(roots);
			collect(i.body());
			Map<String, Root> afterThen = new HashMap<>(roots);
			roots.clear();
			roots.putAll(before);
			collect(i.orelse());
			Map<String, Root> afterElse = new HashMap<>(roots);
			roots.clear();
			roots.putAll(afterThen);
			for (Map.Entry<String, Root> e : afterElse.entrySet()) {
				Root t = afterThen.get(e.getKey());
				if (t == null || !t.id().equals(e.getValue().id())) {
					roots.put(e.getKey(), new Root(e.getValue().id(), t != null || before.containsKey(e.getKey())));
				}
			}
		}

		private void recordCalls(Expr e) {
			for (Expr.Call c : Walk.calls(e)) {
				Function callee = calls.target(c);
				if (callee == null || sites.containsKey(c)) {
					continue;
				}
				List<ArgInfo> args = new ArrayList<>();
				for (Expr a : c.args()) {
					boolean noDep = false;
					Expr inner = a;
					if (a instanceof Expr.Call nd && calls.isBuiltin(nd, "pl.tensor.no_dep") && nd.args().size() == 1) {
						noDep = true;
						inner = nd.args().get(0);
					}
					Root r = inner instanceof Expr.Name n ? roots.get(n.id()) : null;
					args.add(new ArgInfo(isTensor(inner), r == null ? null : r.id(), r != null && r.ambiguous(), noDep));
				}
				sites.put(c, new CallSite(c, callee, List.copyOf(args), sequentialDepth > 0));
			}
		}

		private void bind(Expr target, Expr value, Expr annotation) {
			if (target instanceof Expr.TupleExpr t) {
				bindTuple(t, value);
				return;
			}
			if (!(target instanceof Expr.Name n)) {
				return;
			}
			String name = n.id();
			if (isYield(value)) {
				Expr.Call y = (Expr.Call) value;
				if (y.args().size() == 1) {
					copyKind(name, y.args().get(0));
				}
				return;
			}
			TypeSpec ann = ModuleLowering.typeSpec(annotation);
			boolean tensor = ann instanceof TypeSpec.Tensor t ? t.kind() != TypeSpec.TensorKind.TILE : isTensor(value);
			setTensor(name, tensor);
			if (value instanceof Expr.Name src) {
				copyKind(name, src);
				return;
			}
			if (value instanceof Expr.Subscript sub && tensor) {
				roots.put(name, new Root("local:" + name, false));
				if (sub.value() instanceof Expr.Name base && ranks.containsKey(base.id())) {
					ranks.put(name, ranks.get(base.id()) - scalarIndices(sub));
				}
				return;
			}
			if (!(value instanceof Expr.Call c)) {
				roots.remove(name);
				return;
			}
			if (calls.isBuiltin(c, "tensor.create") || calls.isBuiltin(c, "tensor.slice")) {
				roots.put(name, new Root("local:" + name, false));
				if (!c.args().isEmpty() && c.args().get(0) instanceof Expr.ListExpr l && calls.isBuiltin(c, "tensor.create")) {
					ranks.put(name, l.elts().size());
				}
				return;
			}
			if (calls.isBuiltin(c, "tensor.assemble") && !c.args().isEmpty()) {
				copyRoot(name, c.args().get(0));
				return;
			}
			Function callee = calls.target(c);
			if (callee != null) {
				List<String> outs = outRoots(c, callee);
				int returned = ReturnLineage.returnedParam(callee, calls);
				String root = null;
				if (returned >= 0 && returned < c.args().size() && c.args().get(returned) instanceof Expr.Name r
						&& roots.containsKey(r.id())) {
					root = roots.get(r.id()).id();
				} else if (!outs.isEmpty()) {
					root = outs.get(0);
				}
				if (root != null) {
					roots.put(name, new Root(root, false));
				} else {
					roots.remove(name);
				}
				return;
			}
			roots.remove(name);
		}

		private void bindTuple(Expr.TupleExpr t, Expr value) {
			List<String> outs = List.of();
			List<Boolean> kinds = List.of();
			if (value instanceof Expr.Call c && calls.target(c) != null) {
				Function callee = calls.target(c);
				outs = outRoots(c, callee);
				kinds = returnKinds(callee);
			}
			for (int k = 0; k < t.elts().size(); k++) {
				if (!(t.elts().get(k) instanceof Expr.Name n)) {
					continue;
				}
				if (isYield(value) && value instanceof Expr.Call y && k < y.args().size()) {
					copyKind(n.id(), y.args().get(k));
					continue;
				}
				setTensor(n.id(), k < kinds.size() && kinds.get(k));
				if (k < outs.size() && outs.get(k) != null) {
					roots.put(n.id(), new Root(outs.get(k), false));
				} else {
					roots.remove(n.id());
				}
			}
		}

		/** The roots of a call's Out/InOut arguments, in parameter order. */
		private List<String> outRoots(Expr.Call c, Function callee) {
			List<String> outs = new ArrayList<>();
			for (int i = 0; i < callee.params().size() && i < c.args().size(); i++) {
				Direction d = callee.params().get(i).direction();
				if (d == Direction.Out || d == Direction.InOut) {
					Root r = c.args().get(i) instanceof Expr.Name n ? roots.get(n.id()) : null;
					outs.add(r == null ? null : r.id());
				}
			}
			return outs;
		}

		private List<Boolean> returnKinds(Function callee) {
			Expr ann = callee.returnAnnotation();
			List<Boolean> out = new ArrayList<>();
			if (ann instanceof Expr.Subscript s && (s.value() instanceof Expr.Name || s.value() instanceof Expr.Attribute)
					&& isTupleHead(s.value())) {
				for (Expr e : s.indices()) {
					out.add(ModuleLowering.typeSpec(e) instanceof TypeSpec.Tensor);
				}
			}
			return out;
		}

		private static boolean isTupleHead(Expr e) {
			String text = e instanceof Expr.Name n ? n.id() : e instanceof Expr.Attribute a ? a.attr() : "";
			return text.equals("tuple") || text.equals("Tuple");
		}

		private void copyKind(String name, Expr src) {
			setTensor(name, isTensor(src));
			copyRoot(name, src);
			if (src instanceof Expr.Name n && ranks.containsKey(n.id())) {
				ranks.put(name, ranks.get(n.id()));
			}
		}

		private void copyRoot(String name, Expr src) {
			Root r = src instanceof Expr.Name n ? roots.get(n.id()) : null;
			if (r != null) {
				roots.put(name, r);
			} else {
				roots.remove(name);
			}
		}

		private void setTensor(String name, boolean tensor) {
			if (tensor) {
				tensors.add(name);
			} else {
				tensors.remove(name);
				ranks.remove(name);
			}
		}

		private boolean isTensor(Expr e) {
			if (e instanceof Expr.Name n) {
				return tensors.contains(n.id());
			}
			if (e instanceof Expr.Subscript s && s.value() instanceof Expr.Name base && tensors.contains(base.id())) {
				Integer rank = ranks.get(base.id());
				return rank == null || scalarIndices(s) < rank;
			}
			if (e instanceof Expr.Call c) {
				if (calls.isBuiltin(c, "pl.tensor.no_dep") && c.args().size() == 1) {
					return isTensor(c.args().get(0));
				}
				for (String op : List.of("tensor.create", "tensor.slice", "tensor.reshape", "tensor.view",
						"tensor.transpose", "tensor.assemble", "pld.tensor.window")) {
					if (calls.isBuiltin(c, op)) {
						return true;
					}
				}
				Function callee = calls.target(c);
				return callee != null && ModuleLowering.typeSpec(callee.returnAnnotation()) instanceof TypeSpec.Tensor;
			}
			return false;
		}

		private static int scalarIndices(Expr.Subscript s) {
			int n = 0;
			for (Expr i : s.indices()) {
				if (!(i instanceof Expr.SliceExpr)) {
					n++;
				}
			}
			return n;
		}

		private boolean isYield(Expr value) {
			return value instanceof Expr.Call c && c.funcText() != null && c.funcText().endsWith(".yield_");
		}

		private boolean isParallel(Expr iter) {
			if (iter instanceof Expr.Call c && c.funcText() != null) {
				String n = calls.normalize(c.funcText());
				return "pl.parallel".equals(n) || "pl.spmd".equals(n);
			}
			return false;
		}

		private List<Expr> initValues(Expr iter) {
			if (iter instanceof Expr.Call c) {
				Expr.Keyword k = c.keyword("init_values");
				if (k != null && k.value() instanceof Expr.TupleExpr t) {
					return t.elts();
				}
				if (k != null && k.value() instanceof Expr.ListExpr l) {
					return l.elts();
				}
			}
			return List.of();
		}

		private long tripCount(Expr iter) {
			if (!(iter instanceof Expr.Call c) || c.args().isEmpty()) {
				return 0;
			}
			Long start = 0L;
			Long stop;
			Long step = 1L;
			if (c.args().size() == 1) {
				stop = eval.asLong(c.args().get(0));
			} else {
				start = eval.asLong(c.args().get(0));
				stop = eval.asLong(c.args().get(1));
				if (c.args().size() > 2) {
					step = eval.asLong(c.args().get(2));
				}
			}
			if (start == null || stop == null || step == null || step == 0) {
				return 0;
			}
			return step > 0 ? Math.max(0, (stop - start + step - 1) / step) : Math.max(0, (start - stop - step - 1) / -step);
		}

		// ---- walk 2: first writers per scope ----

		/**
		 * Walks a scope in order, marking each call's first writers; returns the roots the scope writes
		 * (nested scopes included), so that an enclosing scope learns them in the same walk: asking
		 * each nested body again would make an elif chain quadratic.
		 */
		private Set<String> analyzeScope(List<Stmt> body, Set<String> seen) {
			Set<String> writtenHere = new HashSet<>();
			for (Stmt s : body) {
				if (s instanceof Stmt.For loop) {
					Set<String> w = analyzeScope(loop.body(), new HashSet<>(seen));
					seen.addAll(w);
					writtenHere.addAll(w);
				} else if (s instanceof Stmt.While w) {
					Set<String> in = analyzeScope(w.body(), new HashSet<>(seen));
					seen.addAll(in);
					writtenHere.addAll(in);
				} else if (s instanceof Stmt.If i) {
					Set<String> then = analyzeScope(i.body(), new HashSet<>(seen));
					Set<String> orelse = analyzeScope(i.orelse(), new HashSet<>(seen));
					seen.addAll(then);
					seen.addAll(orelse);
					writtenHere.addAll(then);
					writtenHere.addAll(orelse);
				} else if (s instanceof Stmt.With w) {
					writtenHere.addAll(analyzeScope(w.body(), seen));
				} else {
					for (Expr e : Walk.ownExpressions(s)) {
						for (Expr.Call c : Walk.calls(e)) {
							writtenHere.addAll(analyzeCall(c, seen));
						}
					}
				}
			}
			return writtenHere;
		}

		/** Marks the call's first writers; returns the roots it writes (Out or InOut). */
		private Set<String> analyzeCall(Expr.Call c, Set<String> seen) {
			CallSite site = sites.get(c);
			if (site == null) {
				return Set.of();
			}
			Set<String> thisCall = new HashSet<>();
			Set<String> first = new HashSet<>();
			for (int i = 0; i < site.args().size() && i < site.callee().params().size(); i++) {
				Direction d = site.callee().params().get(i).direction();
				String root = site.args().get(i).root();
				if (d == Direction.In || root == null) {
					continue;
				}
				if (d == Direction.Out && !seen.contains(root)) {
					first.add(root);
				}
				thisCall.add(root);
			}
			firstWriter.put(c, first);
			seen.addAll(thisCall);
			return thisCall;
		}

		// ---- the rules ----

		private List<Arg> directions(CallSite site) {
			List<Arg> dirs = new ArrayList<>();
			Set<String> first = firstWriter.getOrDefault(site.call(), Set.of());
			for (int i = 0; i < site.args().size(); i++) {
				ArgInfo a = site.args().get(i);
				Arg d;
				if (!a.tensor()) {
					d = Arg.SCALAR;
				} else {
					Direction declared = i < site.callee().params().size() ? site.callee().params().get(i).direction()
							: Direction.In;
					d = switch (declared) {
					case In -> Arg.INPUT;
					case InOut -> Arg.IN_OUT;
					case Out -> outDirection(site, a, first);
					};
				}
				if (a.noDep()) {
					d = Arg.NO_DEP;
				}
				dirs.add(d);
			}
			return List.copyOf(dirs);
		}

		private Arg outDirection(CallSite site, ArgInfo a, Set<String> first) {
			if (site.sequential() || a.ambiguous()) {
				return Arg.IN_OUT; // R-seq, ambiguous root
			}
			if (a.root() != null && !first.contains(a.root())) {
				return Arg.IN_OUT; // R-prior
			}
			if (a.root() != null && a.root().startsWith("param:")) {
				Param p = f.param(a.root().substring("param:".length()));
				if (p != null && p.direction() == Direction.InOut) {
					return Arg.IN_OUT; // R-enclosing
				}
			}
			return Arg.OUTPUT_EXISTING;
		}
	}
}
