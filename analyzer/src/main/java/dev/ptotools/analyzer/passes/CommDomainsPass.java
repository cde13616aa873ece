package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.CommDomains.Alloc;
import dev.ptotools.analyzer.facts.CommDomains.Devices;
import dev.ptotools.analyzer.facts.CommDomains.Kind;
import dev.ptotools.analyzer.facts.CommDomains.Problem;
import dev.ptotools.analyzer.facts.CommDomains.View;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.UnknownValue;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * The analysis half of pypto's MaterializeCommDomainScopes (and the SynthesizeAllReduceSignals checks
 * before it): window allocations and their views, the device set of every chip dispatch, coverage
 * inherited through collectives, comm domains clustered by device set in allocation order, and each
 * error the passes raise, at the line that causes it. As in pypto, a HOST orchestrator without
 * window allocations gets no domain checks (its dispatches still get device sets, for codegen).
 */
public final class CommDomainsPass implements Pass {

	private static final String ALLOC = "pld.tensor.alloc_window_buffer";
	private static final String WINDOW = "pld.tensor.window";

	@Override
	public String name() {
		return "materialize-comm-domain-scopes";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.FUNCTIONS, Keys.CONSTANTS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.COMM_DOMAINS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		CallResolution calls = facts.get(Keys.CALLS);
		FunctionKinds kinds = facts.get(Keys.FUNCTIONS);
		Constants constants = facts.get(Keys.CONSTANTS);
		Map<Function, CommDomains.Host> hosts = new LinkedHashMap<>();
		List<Problem> problems = new ArrayList<>();
		for (Program p : module.programs()) {
			Map<String, Span> namesInProgram = new LinkedHashMap<>();
			for (Function f : p.functions()) {
				if (p.style() == Program.Style.JIT) {
					// Each @pl.jit.host entry is a program of its own: names are unique per entry.
					namesInProgram = new LinkedHashMap<>();
				}
				if (kinds.isHostOrchestrator(f)) {
					HostAnalysis h = new HostAnalysis(p, f, calls, kinds, constants, problems, namesInProgram);
					hosts.put(f, h.run());
				} else {
					rejectHostOnly(f, calls, problems);
				}
			}
		}
		facts.put(Keys.COMM_DOMAINS, new CommDomains(hosts, List.copyOf(problems)));
	}

	/** alloc_window_buffer and world_size exist only in HOST orchestration context. */
	private static void rejectHostOnly(Function f, CallResolution calls, List<Problem> problems) {
		for (Expr.Call c : calls.callsIn(f)) {
			String op = calls.isBuiltin(c, ALLOC) ? ALLOC
					: calls.isBuiltin(c, "pld.system.world_size") ? "pld.system.world_size" : null;
			if (op != null) {
				problems.add(new Problem(Kind.ALLOC_CONTEXT, f, op + "() can only be called in HOST orchestration"
						+ " context (not inside InCore / SPMD scopes); '" + f.name()
						+ "' is not a HOST orchestrator", c.span(), List.of()));
			}
		}
	}

	/** One HOST orchestrator. */
	private static final class HostAnalysis {
		private final Program program;
		private final Function f;
		private final Constants constants;
		private final CallResolution calls;
		private final FunctionKinds kinds;
		private final ConstEval eval;
		private final List<Problem> problems;
		private final Map<String, Span> namesInProgram;
		private final FunctionScope scope;
		private final List<Alloc> allocs = new ArrayList<>();
		private final List<View> views = new ArrayList<>();
		private final List<CommDomains.Dispatch> dispatches = new ArrayList<>();
		private final IdentityHashMap<Alloc, List<Devices>> seen = new IdentityHashMap<>();
		private final IdentityHashMap<Expr.Call, Stmt> owner = new IdentityHashMap<>();
		/** Allocations whose views reach a dispatch with an invalid device=: already reported there. */
		private final java.util.Set<Alloc> badlyDispatched = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

		HostAnalysis(Program program, Function f, CallResolution calls, FunctionKinds kinds, Constants constants,
				List<Problem> problems, Map<String, Span> namesInProgram) {
			this.program = program;
			this.f = f;
			this.constants = constants;
			this.calls = calls;
			this.kinds = kinds;
			this.eval = constants.evaluator(program);
			this.problems = problems;
			this.namesInProgram = namesInProgram;
			this.scope = new FunctionScope(f, calls);
		}

		CommDomains.Host run() {
			for (Expr.Call c : calls.callsIn(f)) {
				owner.put(c, calls.statementOf(c));
			}
			collectAllocs();
			collectViews();
			boolean checking = !allocs.isEmpty();
			collectDispatches(checking);
			if (checking) {
				inheritThroughCollectives();
			}
			checkCollectivePlacement();
			List<CommDomains.Domain> domains = checking ? sanityAndCluster() : List.of();
			return new CommDomains.Host(f, List.copyOf(allocs), List.copyOf(views), List.copyOf(dispatches),
					domains);
		}

		private void problem(Kind kind, String message, Span span) {
			problems.add(new Problem(kind, f, message, span, List.of()));
		}

		private void collectAllocs() {
			for (Expr.Call c : sortedCalls()) {
				if (!calls.isBuiltin(c, ALLOC)) {
					continue;
				}
				Stmt s = owner.get(c);
				if (!(s instanceof Stmt.Assign a) || a.value() != c) {
					problem(Kind.ALLOC_CONTEXT, ALLOC + " must appear as the RHS of a simple assignment (its result"
							+ " must be bound to a named variable)", c.span());
					continue;
				}
				if (a.targets().size() != 1 || !(a.targets().get(0) instanceof Expr.Name n)) {
					problem(Kind.ALLOC_CONTEXT, ALLOC + " must be assigned to a single variable name", a.span());
					continue;
				}
				if (c.keyword("name") != null) {
					problem(Kind.ALLOC_CONTEXT, ALLOC + " 'name' kwarg cannot be passed explicitly — it is"
							+ " auto-derived from the assignment LHS ('" + n.id() + "')", c.keyword("name").span());
				}
				Span earlier = namesInProgram.get(n.id());
				if (earlier != null) {
					problems.add(new Problem(Kind.DUPLICATE_ALLOCATION, f, ALLOC + " name '" + n.id()
							+ "' is already declared in this program", a.span(),
							List.of(new Diagnostic.Related(earlier, "first declared here"))));
					continue;
				}
				namesInProgram.put(n.id(), a.span());
				Expr size = c.args().isEmpty() ? null : c.args().get(0);
				Alloc alloc = new Alloc(n.id(), a, size, c.span());
				allocs.add(alloc);
				seen.put(alloc, new ArrayList<>());
			}
			allocs.sort((x, y) -> Integer.compare(x.span().start(), y.span().start()));
		}

		private void collectViews() {
			Walk.statements(f.body(), s -> {
				if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c && calls.isBuiltin(c, WINDOW)
						&& a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name n && !c.args().isEmpty()) {
					Alloc alloc = allocOf(c.args().get(0), s.span().start());
					if (alloc != null) {
						views.add(new View(n.id(), alloc, a, c, a.span()));
					}
				}
			});
		}

		/** The allocation a name denotes, through simple aliases made before the offset. */
		private Alloc allocOf(Expr e, int offset) {
			if (e instanceof Expr.Name n) {
				Stmt.Assign a = scope.lastAssignmentBefore(n.id(), offset);
				if (a != null) {
					for (Alloc alloc : allocs) {
						if (alloc.stmt() == a) {
							return alloc;
						}
					}
					if (a.value() instanceof Expr.Name) {
						return allocOf(a.value(), a.span().start());
					}
				}
			}
			return null;
		}

		/** The window view a name denotes, through aliases and collective results, or null. */
		private View viewOf(Expr e, int offset) {
			for (int hops = 0; hops < 32 && e instanceof Expr.Name n; hops++) {
				Stmt.Assign a = scope.lastAssignmentBefore(n.id(), offset);
				if (a == null) {
					return null;
				}
				for (View v : views) {
					if (v.stmt() == a) {
						return v;
					}
				}
				offset = a.span().start();
				if (a.value() instanceof Expr.Name) {
					e = a.value();
				} else if (a.value() instanceof Expr.Call c && aliasArg(c) >= 0 && c.args().size() > aliasArg(c)) {
					e = c.args().get(aliasArg(c));
				} else {
					return null;
				}
			}
			return null;
		}

		/** Which argument a collective's result aliases (pypto's ResolveWindowRecord), else -1. */
		private int aliasArg(Expr.Call c) {
			if (calls.isBuiltin(c, "pld.tensor.allreduce")) {
				return 0;
			}
			if (calls.isBuiltin(c, "pld.tensor.all_to_all") || calls.isBuiltin(c, "pld.tensor.allgather")
					|| calls.isBuiltin(c, "pld.tensor.all_to_all_v")) {
				return 1;
			}
			return -1;
		}

		private void collectDispatches(boolean checking) {
			List<Expr.Call> ordered = new ArrayList<>(owner.keySet());
			ordered.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
			for (Expr.Call c : ordered) {
				Function callee = calls.target(c);
				if (callee == null || !kinds.isChipOrchestrator(callee)) {
					continue;
				}
				Stmt s = owner.get(c);
				Expr.Keyword device = c.keyword("device");
				Devices devices = null;
				Stmt.For rankLoop = null;
				if (device != null) {
					if (device.value() instanceof Expr.Name n) {
						for (Stmt.For loop : scope.enclosingLoops(s)) {
							if (n.id().equals(Walk.loopVariable(loop))) {
								rankLoop = loop;
								break;
							}
						}
					}
					devices = resolveDevice(device, rankLoop, checking);
				}
				List<View> windowArgs = new ArrayList<>();
				for (Expr a : c.args()) {
					View v = viewOf(a, s.span().start());
					if (v != null) {
						windowArgs.add(v);
						if (devices != null) {
							seen.get(v.alloc()).add(devices);
						} else if (device != null) {
							badlyDispatched.add(v.alloc());
						}
					}
				}
				dispatches.add(new CommDomains.Dispatch(c, callee, devices, rankLoop, List.copyOf(windowArgs)));
			}
		}

		/**
		 * A value of the program's surroundings the analyzer cannot know that e reads (pypto reads it when
		 * the module runs, and it is then a constant), or null.
		 */
		private Devices.Unknown unknown(Expr e) {
			UnknownValue u = constants.unknownIn(program, f, e);
			return u == null ? null : new Devices.Unknown(u);
		}

		private Devices resolveDevice(Expr.Keyword device, Stmt.For loop, boolean checking) {
			Expr v = device.value();
			Long constant = v instanceof Expr.Name ? null : eval.asLong(v);
			if (v instanceof Expr.Name n && loop == null && !Constants.locals(f).contains(n.id())) {
				constant = eval.asLong(v); // a closure constant: pypto's parser makes it a ConstInt
				if (constant == null && unknown(v) != null) {
					return unknown(v);
				}
			}
			if (constant != null && (v instanceof Expr.Literal || v instanceof Expr.UnaryOp || v instanceof Expr.Name)) {
				long n = constant;
				if (n < 0) {
					// pypto's distributed codegen rejects it too, with or without window buffers
					problem(Kind.INVALID_DEVICE, "device= must be a non-negative rank index, got " + n, v.span());
					return null;
				}
				return new Devices.Ranks(new TreeSet<>(List.of(n)));
			}
			if (v instanceof Expr.Name && loop == null) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device= Var is not the induction variable of any enclosing pl.range"
							+ " loop", v.span());
				}
				return null;
			}
			if (!(v instanceof Expr.Name)) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device= expression must be ConstInt or the induction var of pl.range;"
							+ " got an unsupported expression", v.span());
				}
				return null;
			}
			Expr.Call iter = loop.iter() instanceof Expr.Call c ? c : null;
			if (iter == null || iter.args().isEmpty()) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device=r loop bound must be ConstInt or pld.system.world_size()",
							loop.headerSpan());
				}
				return null;
			}
			int at = loop.span().start();
			List<Expr> args = iter.args();
			Expr stop = args.size() == 1 ? args.get(0) : args.get(1);
			if (scope.isWorldSize(stop, at)) {
				return new Devices.All();
			}
			Long stopValue = eval.asLong(scope.unwrap(stop, at));
			if (stopValue == null && unknown(scope.unwrap(stop, at)) != null) {
				return unknown(scope.unwrap(stop, at));
			}
			if (stopValue == null) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device=r loop bound must be ConstInt or pld.system.world_size()",
							stop.span());
				}
				return null;
			}
			Long start = args.size() >= 2 ? eval.asLong(scope.unwrap(args.get(0), at)) : Long.valueOf(0);
			Long step = args.size() >= 3 ? eval.asLong(scope.unwrap(args.get(2), at)) : Long.valueOf(1);
			Expr unresolved = start == null ? scope.unwrap(args.get(0), at) : step == null ? scope.unwrap(args.get(2), at) : null;
			if (unresolved != null && unknown(unresolved) != null) {
				return unknown(unresolved);
			}
			if (start == null || step == null) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device=r loop " + (start == null ? "start" : "step")
							+ " must unwrap to ConstInt", iter.span());
				}
				return null;
			}
			if (step != 1) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device=r over a non-unit-step loop is not supported (step=" + step
							+ ")", args.get(2).span());
				}
				return null;
			}
			if (start < 0 || stopValue < start) {
				if (checking) {
					problem(Kind.INVALID_DEVICE, "device=r loop range must be [0, N) with N>=0", iter.span());
				}
				return null;
			}
			TreeSet<Long> ranks = new TreeSet<>();
			for (long r = start; r < stopValue && ranks.size() < 1_000_000; r++) {
				ranks.add(r);
			}
			return new Devices.Ranks(ranks);
		}

		private void inheritThroughCollectives() {
			for (Expr.Call c : sortedCalls()) {
				Stmt s = owner.get(c);
				int at = s.span().start();
				String op = collective(c);
				if (op == null) {
					continue;
				}
				if (op.equals("barrier")) {
					View signal = c.args().isEmpty() ? null : viewOf(c.args().get(0), at);
					if (signal != null && seen.get(signal.alloc()).isEmpty()) {
						problem(Kind.NO_COVERAGE, "pld.tensor.barrier signal buffer has no inferred comm-domain coverage"
								+ " — add a device= annotation or ensure the signal window is consumed by a device-tagged"
								+ " chip dispatch", c.span());
					}
					continue;
				}
				int dataArg = op.equals("allgather") || op.equals("all_to_all") || op.equals("all_to_all_v") ? 1 : 0;
				int[] signalArgs = op.equals("all_to_all_v") ? new int[] { 2, 4 }
						: op.equals("allgather") || op.equals("all_to_all") ? new int[] { 2 } : new int[] { 1 };
				View data = c.args().size() > dataArg ? viewOf(c.args().get(dataArg), at) : null;
				for (int si : signalArgs) {
					View signal = c.args().size() > si ? viewOf(c.args().get(si), at) : null;
					if (data == null || signal == null) {
						continue;
					}
					List<Devices> dataSeen = seen.get(data.alloc());
					if (dataSeen.isEmpty()) {
						problem(Kind.NO_COVERAGE, "collective data/target buffer '" + data.name()
								+ "' has no inferred comm-domain coverage to share with its signal buffer", c.span());
					} else {
						seen.get(signal.alloc()).addAll(dataSeen);
					}
				}
			}
		}

		private void checkCollectivePlacement() {
			for (Expr.Call c : sortedCalls()) {
				String op = collective(c);
				if (op == null) {
					continue;
				}
				Stmt s = owner.get(c);
				boolean inLoop = scope.enclosing(s).stream()
						.anyMatch(x -> x instanceof Stmt.For || x instanceof Stmt.While);
				if (op.equals("all_to_all_v") && inLoop) {
					problem(Kind.ALL_TO_ALL_V_IN_LOOP, "pld.tensor.all_to_all_v is not supported inside a for/while"
							+ " loop in a HOST orchestrator. The signal protocol is single-use and cannot reuse a signal"
							+ " across dynamic invocations", c.span());
				}
				if (op.equals("allreduce")) {
					boolean direct = (s instanceof Stmt.Assign a && a.value() == c)
							|| (s instanceof Stmt.ExprStmt e && e.value() == c)
							|| (s instanceof Stmt.Return r && r.value() == c);
					if (!direct) {
						problem(Kind.ALLREDUCE_SIGNAL, "pld.tensor.allreduce must be a direct assignment, expression"
								+ " statement, or return value before allreduce signal synthesis.", c.span());
					} else if (c.args().size() > 2) {
						problem(Kind.ALLREDUCE_SIGNAL, "pld.tensor.allreduce expects target[, signal], got "
								+ c.args().size() + " positional arguments", c.span());
					} else if (c.args().size() == 1 && inLoop) {
						problem(Kind.ALLREDUCE_SIGNAL, "pld.tensor.allreduce without an explicit signal is not"
								+ " supported inside a for/while loop on the HOST rail: the synthesized signal binding"
								+ " cannot be allocated per dynamic iteration. Pass an explicit signal buffer — it is"
								+ " self-clearing and reusable across iterations — or hoist the call out of the loop.",
								c.span());
					}
				}
			}
		}

		private List<CommDomains.Domain> sanityAndCluster() {
			for (Alloc a : allocs) {
				boolean windowed = views.stream().anyMatch(v -> v.alloc() == a);
				if (!windowed) {
					problem(Kind.DEAD_ALLOCATION, "pld.tensor.alloc_window_buffer '" + a.name()
							+ "' has no pld.tensor.window materialisation (dead allocation)", a.stmt().span());
				} else if (seen.get(a).isEmpty() && !badlyDispatched.contains(a)) {
					problem(Kind.UNCONSUMED_WINDOW, "pld.tensor.alloc_window_buffer '" + a.name()
							+ "' is not consumed by any chip_orch dispatch", a.stmt().span());
				}
			}
			List<Devices> keys = new ArrayList<>();
			List<List<Alloc>> slots = new ArrayList<>();
			for (Alloc a : allocs) {
				Devices merged = merge(seen.get(a));
				if (merged == null) {
					continue;
				}
				int i = keys.indexOf(merged);
				if (i < 0) {
					keys.add(merged);
					slots.add(new ArrayList<>());
					i = keys.size() - 1;
				}
				slots.get(i).add(a);
			}
			List<CommDomains.Domain> domains = new ArrayList<>();
			for (int i = 0; i < keys.size(); i++) {
				domains.add(new CommDomains.Domain(i, "comm_d" + i, keys.get(i), List.copyOf(slots.get(i))));
			}
			return List.copyOf(domains);
		}

		private static Devices merge(List<Devices> all) {
			if (all.isEmpty()) {
				return null;
			}
			TreeSet<Long> ranks = new TreeSet<>();
			Devices unknown = null;
			for (Devices d : all) {
				if (d instanceof Devices.All) {
					return new Devices.All();
				}
				if (d instanceof Devices.Ranks r) {
					ranks.addAll(r.ranks());
				} else if (unknown == null) {
					unknown = d; // the union is known only when the module runs
				}
			}
			return unknown != null ? unknown : new Devices.Ranks(ranks);
		}

		private List<Expr.Call> sortedCalls() {
			List<Expr.Call> ordered = new ArrayList<>(owner.keySet());
			ordered.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
			return ordered;
		}

		private String collective(Expr.Call c) {
			for (String op : new String[] { "allreduce", "broadcast", "reduce_scatter", "barrier", "allgather",
					"all_to_all", "all_to_all_v" }) {
				if (calls.isBuiltin(c, "pld.tensor." + op)) {
					return op;
				}
			}
			return null;
		}
	}
}
