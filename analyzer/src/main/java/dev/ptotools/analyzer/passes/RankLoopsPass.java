package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.Condition;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.facts.UnknownValue;
import dev.ptotools.analyzer.facts.Views;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Grouped-dispatch marking. Every for loop in a HOST orchestrator, at any depth, that iterates the
 * world size or dispatches with {@code device=<its variable>} is a rank loop; each gets a verdict
 * with every condition checked in order. HOST orchestrators without any window allocation are
 * analyzed like the others (the seed PR's defect (b)), and pld.window views count as views (defect (a)).
 */
public final class RankLoopsPass implements Pass {

	@Override
	public String name() {
		return "mark-rank-loops";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.FUNCTIONS, Keys.CONSTANTS, Keys.SUBSCRIPTS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.RANK_LOOPS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		CallResolution calls = facts.get(Keys.CALLS);
		FunctionKinds kinds = facts.get(Keys.FUNCTIONS);
		Constants constants = facts.get(Keys.CONSTANTS);
		SubscriptOps subs = facts.get(Keys.SUBSCRIPTS);
		List<RankLoop> loops = new ArrayList<>();
		for (Program p : module.programs()) {
			for (Function f : p.functions()) {
				if (!kinds.isHostOrchestrator(f)) {
					continue;
				}
				FunctionScope scope = new FunctionScope(f, calls);
				Judge judge = new Judge(p, f, scope, calls, kinds, constants, subs);
				int[] grouped = { 0 };
				Walk.statements(f.body(), s -> {
					if (s instanceof Stmt.For loop) {
						RankLoop verdict = judge.judge(loop, grouped[0]);
						if (verdict != null) {
							if (verdict.grouped()) {
								grouped[0]++;
							}
							loops.add(verdict);
						}
					}
				});
			}
		}
		facts.put(Keys.RANK_LOOPS, new RankLoops(List.copyOf(loops)));
	}

	/** Judges the loops of one HOST orchestrator. */
	static final class Judge {
		private final Program program;
		private final Function function;
		private final FunctionScope scope;
		private final CallResolution calls;
		private final FunctionKinds kinds;
		private final Constants constants;
		private final ConstEval eval;
		private final SubscriptOps subs;

		Judge(Program program, Function function, FunctionScope scope, CallResolution calls, FunctionKinds kinds,
				Constants constants, SubscriptOps subs) {
			this.program = program;
			this.function = function;
			this.scope = scope;
			this.calls = calls;
			this.kinds = kinds;
			this.constants = constants;
			this.eval = constants.evaluator(program);
			this.subs = subs;
		}

		/** The verdict on a loop, or null when it is not a rank loop. */
		RankLoop judge(Stmt.For loop, int groupedSoFar) {
			String var = Walk.loopVariable(loop);
			Expr.Call iter = loop.iter() instanceof Expr.Call c ? c : null;
			String form = loopForm(iter);
			boolean world = iter != null && form != null && coversWorld(iter, loop.span().start());
			boolean pinnedSomewhere = var != null && calls.callsWithin(function, bodySpan(loop)).stream()
					.anyMatch(c -> isDevice(c, var));
			if (!world && !pinnedSomewhere) {
				return null;
			}
			List<Expr.Call> direct = new ArrayList<>();
			List<Stmt> directStmts = new ArrayList<>();
			for (Stmt s : loop.body()) {
				Expr.Call d = dispatchOf(s);
				if (d != null) {
					direct.add(d);
					directStmts.add(s);
				}
			}
			List<Expr.Call> nested = new ArrayList<>();
			List<Stmt> nestedOwners = new ArrayList<>();
			for (Stmt s : loop.body()) {
				if (!Walk.children(s).isEmpty()) {
					Walk.statements(List.of(s), inner -> {
						for (Expr.Call c : Walk.ownCalls(inner)) {
							if (isChipDispatch(c)) {
								nested.add(c);
								nestedOwners.add(s);
							}
						}
					});
				}
			}
			List<Expr.Call> all = new ArrayList<>(direct);
			all.addAll(nested);
			all.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));

			List<RankLoop.Check> checks = new ArrayList<>();
			checks.add(fullWorld(loop, iter, form, world));
			checks.add(hasDispatch(loop, all, var));
			checks.add(unconditional(direct, nested, nestedOwners));
			checks.add(single(all));
			checks.add(pinned(loop, direct, all, var));
			List<Stmt> offending = new ArrayList<>();
			checks.add(onlyViews(loop, directStmts, offending));
			checks.add(noCallInArguments(direct));
			checks.add(noLoopState(loop, iter, var));
			checks.add(sequential(loop, iter, form));
			checks.add(noControlFlow(loop));
			Condition failed = null;
			for (RankLoop.Check c : checks) {
				if (!c.holds()) {
					failed = c.condition();
					break;
				}
			}
			String groupId = failed == null ? function.name() + "/rank_loop_" + groupedSoFar : null;
			return new RankLoop(program, function, loop, var, List.copyOf(checks), failed, List.copyOf(all),
					List.copyOf(offending), groupId);
		}

		// ---- the conditions -----------------------------------------------------------------

		private RankLoop.Check fullWorld(Stmt.For loop, Expr.Call iter, String form, boolean world) {
			if (world) {
				return ok(Condition.FULL_WORLD, "iterates " + text(iter) + ": every rank");
			}
			String detail;
			if (iter == null || form == null) {
				detail = "iterates " + (iter == null ? "a value" : text(iter))
						+ ", not pl.range(pld.world_size())";
			} else {
				List<Expr> args = iter.args();
				int at = loop.span().start();
				Expr stop = args.size() == 1 ? args.get(0) : args.size() >= 2 ? args.get(1) : null;
				Long start = args.size() >= 2 ? eval.asLong(args.get(0)) : Long.valueOf(0);
				Long step = args.size() >= 3 ? eval.asLong(args.get(2)) : Long.valueOf(1);
				Long bound = stop == null ? null : eval.asLong(scope.unwrap(stop, at));
				UnknownValue unknownStart = start == null ? unknownIn(args.get(0), at) : null;
				UnknownValue unknownStep = step == null ? unknownIn(args.get(2), at) : null;
				if (stop != null && scope.isWorldSize(stop, at)) {
					if (start == null || start != 0) {
						detail = "starts at " + text(args.get(0)) + (unknownStart != null
								? ", not known to be rank 0: it depends on " + unknownStart.describe() : ", not at rank 0");
					} else {
						detail = "steps by " + text(args.get(2)) + (unknownStep != null
								? ", not known to be 1: it depends on " + unknownStep.describe() : ", skipping ranks");
					}
				} else if (bound != null && start != null && step != null && step > 0) {
					long count = Math.max(0, (bound - start + step - 1) / step);
					detail = "iterates " + text(iter) + ": " + count + " rank" + (count == 1 ? "" : "s")
							+ " fixed in the source, not the whole world";
				} else {
					UnknownValue u = bound == null && stop != null ? unknownIn(stop, at) : null;
					u = u != null ? u : unknownStart != null ? unknownStart : unknownStep;
					detail = u != null
							? "iterates " + text(iter) + ": a rank count fixed when the program is built, not the whole"
									+ " world (it depends on " + u.describe() + ")"
							: "iterates " + text(iter) + ", which is not known to be the world size";
				}
			}
			return fail(Condition.FULL_WORLD, detail, iter == null ? loop.headerSpan() : iter.span());
		}

		private RankLoop.Check hasDispatch(Stmt.For loop, List<Expr.Call> all, String var) {
			if (!all.isEmpty()) {
				return ok(Condition.HAS_DISPATCH, "dispatches " + all.stream().map(this::calleeName).distinct()
						.reduce((a, b) -> a + ", " + b).orElse(""));
			}
			// A device=<v> call to something that is not a CHIP orchestrator says most.
			for (Expr.Call c : calls.callsWithin(function, bodySpan(loop))) {
				if (var != null && isDevice(c, var) && calls.target(c) != null) {
					Function t = calls.target(c);
					return fail(Condition.HAS_DISPATCH, calleeName(c) + " is a " + kinds.of(t).describe()
							+ ", not a CHIP orchestrator", c.span());
				}
			}
			return fail(Condition.HAS_DISPATCH, "no CHIP orchestrator is dispatched in the loop", loop.headerSpan());
		}

		private RankLoop.Check unconditional(List<Expr.Call> direct, List<Expr.Call> nested, List<Stmt> owners) {
			if (!nested.isEmpty() && direct.isEmpty()) {
				Stmt owner = owners.get(0);
				String what = blockKind(owner);
				Span where = headerOf(owner);
				return new RankLoop.Check(Condition.UNCONDITIONAL, false,
						"the dispatch " + calleeName(nested.get(0)) + " is under " + what, nested.get(0).span(),
						List.of(new Diagnostic.Related(where, "the dispatch depends on this")));
			}
			return ok(Condition.UNCONDITIONAL, "the dispatch runs on every iteration");
		}

		private RankLoop.Check single(List<Expr.Call> all) {
			if (all.size() <= 1) {
				return ok(Condition.SINGLE_DISPATCH, "one dispatch per rank");
			}
			List<Diagnostic.Related> related = new ArrayList<>();
			for (int i = 1; i < all.size(); i++) {
				related.add(new Diagnostic.Related(all.get(i).span(), "another dispatch"));
			}
			String names = String.join(", ", all.stream().map(this::calleeName).toList());
			return new RankLoop.Check(Condition.SINGLE_DISPATCH, false,
					all.size() + " dispatches per rank (" + names + "); a group holds one", all.get(0).span(),
					List.copyOf(related));
		}

		private RankLoop.Check pinned(Stmt.For loop, List<Expr.Call> direct, List<Expr.Call> all, String var) {
			List<Expr.Call> look = direct.isEmpty() ? all : direct;
			for (Expr.Call c : look) {
				if (var == null || !isDevice(c, var)) {
					Expr.Keyword device = c.keyword("device");
					String detail = device == null
							? calleeName(c) + " has no device=; each rank's dispatch must say device=" + orV(var)
							: calleeName(c) + " is dispatched to device=" + text(device.value()) + ", not device="
									+ orV(var);
					return fail(Condition.PINNED, detail, device == null ? c.span() : device.span());
				}
			}
			return ok(Condition.PINNED, "device=" + orV(var));
		}

		private RankLoop.Check onlyViews(Stmt.For loop, List<Stmt> dispatchStmts, List<Stmt> offending) {
			for (Stmt s : loop.body()) {
				if (dispatchStmts.contains(s)) {
					// y[r] = self.f(...): the dispatch, and a tensor.assemble of its result into y
					if (!Views.writes(s).isEmpty()) {
						offending.add(s);
					}
					continue;
				}
				if (isNeutral(s) || !Walk.children(s).isEmpty() || isYield(s)) {
					continue;
				}
				if (s instanceof Stmt.Return || s instanceof Stmt.Break || s instanceof Stmt.Continue
						|| s instanceof Stmt.Other) {
					continue; // control flow and unsupported statements: condition 8
				}
				if (!isViewAssignment(s)) {
					offending.add(s);
				}
			}
			// Calls inside nested control flow are "other calls" too (element reads and writes included).
			for (Stmt s : loop.body()) {
				if (!Walk.children(s).isEmpty()) {
					Walk.statements(List.of(s), inner -> {
						if (isNeutral(inner) || offending.contains(inner)) {
							return;
						}
						boolean other = !Views.writes(inner).isEmpty();
						for (Expr e : Walk.ownExpressions(inner)) {
							for (Expr c : otherCalls(e)) {
								other |= !(c instanceof Expr.Call call && isChipDispatch(call));
							}
						}
						if (other) {
							offending.add(inner);
						}
					});
				}
			}
			offending.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
			if (offending.isEmpty()) {
				return ok(Condition.ONLY_VIEWS, "only view statements beside the dispatch");
			}
			Stmt first = offending.get(0);
			return fail(Condition.ONLY_VIEWS, notAView(first, dispatchStmts.contains(first)), first.span());
		}

		/** Why a statement is not a view, naming the first call pypto's IR has in it. */
		private String notAView(Stmt s, boolean dispatch) {
			String quoted = "'" + excerpt(s) + "'";
			List<Expr.Subscript> writes = Views.writes(s);
			if (!writes.isEmpty()) {
				Expr.Subscript w = writes.get(0);
				String what = "writes " + (dispatch ? "the dispatch's result " : "") + "into " + text(w.value()) + " ("
						+ writeOp(w) + ")";
				return quoted + " " + what + (dispatch ? ", a call beside the dispatch" : ", which is not a view");
			}
			for (Expr e : Walk.ownExpressions(s)) {
				List<Expr> cs = otherCalls(e);
				if (!cs.isEmpty()) {
					return quoted + " " + describeCall(cs.get(0)) + ", which is not a view";
				}
			}
			return quoted + " is not a view";
		}

		/** "calls pl.create_tensor" or "reads an element of x (tensor.read: x is 1-D, every index a scalar)". */
		private String describeCall(Expr c) {
			if (c instanceof Expr.Subscript s) {
				SubscriptOps.Info info = subs.info(s);
				String rank = info.operandRank() >= 0 ? text(s.value()) + " is " + info.operandRank() + "-D and " : "";
				return "reads an element of " + text(s.value()) + " (" + info.op().irOp() + ": " + rank
						+ "every index is a scalar)";
			}
			return "calls " + calleeName((Expr.Call) c);
		}

		private String writeOp(Expr.Subscript w) {
			String op = subs.of(w).irOp();
			return op != null ? op : "an assemble call";
		}

		private RankLoop.Check noCallInArguments(List<Expr.Call> direct) {
			for (Expr.Call d : direct) {
				List<Expr> args = new ArrayList<>(d.args());
				d.keywords().forEach(k -> args.add(k.value()));
				for (Expr a : args) {
					for (Expr c : otherCalls(a)) {
						String what = c instanceof Expr.Call call ? text(call) + " is called"
								: text(c) + " " + describeCall(c);
						return fail(Condition.NO_CALL_IN_ARGUMENTS,
								what + " inside an argument of " + calleeName(d) + "; a group admits no other call",
								c.span());
					}
				}
			}
			return ok(Condition.NO_CALL_IN_ARGUMENTS, "the dispatch's arguments hold no call");
		}

		private RankLoop.Check noLoopState(Stmt.For loop, Expr.Call iter, String var) {
			Expr.Keyword init = iter == null ? null : iter.keyword("init_values");
			if (init != null) {
				return fail(Condition.NO_LOOP_STATE, "the loop carries state (init_values=)", init.span());
			}
			for (Expr.Call c : calls.callsWithin(function, bodySpan(loop))) {
				if (calls.isBuiltin(c, "pl.yield_")) {
					return fail(Condition.NO_LOOP_STATE, "the loop carries state (pl.yield_)", c.span());
				}
			}
			if (!(loop.target() instanceof Expr.Name)) {
				return fail(Condition.NO_LOOP_STATE, "the loop carries state in its target " + text(loop.target()),
						loop.target().span());
			}
			return ok(Condition.NO_LOOP_STATE, "no loop state");
		}

		private RankLoop.Check sequential(Stmt.For loop, Expr.Call iter, String form) {
			if ("pl.range".equals(form)) {
				return ok(Condition.SEQUENTIAL, "a sequential pl.range loop");
			}
			String what = form != null ? form : iter != null ? text(iter.func()) : "not a pl.range call";
			return fail(Condition.SEQUENTIAL, "a " + what + " loop; grouping needs a sequential pl.range",
					iter == null ? loop.headerSpan() : iter.func().span());
		}

		private RankLoop.Check noControlFlow(Stmt.For loop) {
			for (Stmt s : loop.body()) {
				String what = s instanceof Stmt.Return ? "a return"
						: s instanceof Stmt.Break ? "a break"
								: s instanceof Stmt.Continue ? "a continue"
										: s instanceof Stmt.Other o ? "a " + o.kind() + " statement"
												: !Walk.children(s).isEmpty() ? blockKind(s) : null;
				if (what != null) {
					return fail(Condition.NO_CONTROL_FLOW, "the loop body has " + what, headerOf(s));
				}
			}
			return ok(Condition.NO_CONTROL_FLOW, "no nested control flow");
		}

		// ---- helpers ------------------------------------------------------------------------

		/** A value around the program that an expression of the loop header reads and nobody can know yet. */
		private UnknownValue unknownIn(Expr e, int at) {
			return constants.unknownIn(program, function, scope.unwrap(e, at));
		}

		/** From the first to the last statement of the loop's body (the header's own calls excluded). */
		private static Span bodySpan(Stmt.For loop) {
			if (loop.body().isEmpty()) {
				return new Span(loop.span().end(), loop.span().end());
			}
			return new Span(loop.body().get(0).span().start(), loop.body().get(loop.body().size() - 1).span().end());
		}

		private static String blockKind(Stmt s) {
			if (s instanceof Stmt.If) {
				return "an if";
			}
			if (s instanceof Stmt.While) {
				return "a while loop";
			}
			if (s instanceof Stmt.For) {
				return "an inner loop";
			}
			if (s instanceof Stmt.With) {
				return "a with block";
			}
			return "a nested block";
		}

		private static Span headerOf(Stmt s) {
			if (s instanceof Stmt.If i) {
				return i.headerSpan();
			}
			if (s instanceof Stmt.While w) {
				return w.headerSpan();
			}
			if (s instanceof Stmt.For f) {
				return f.headerSpan();
			}
			if (s instanceof Stmt.With w) {
				return w.headerSpan();
			}
			return s.span();
		}

		private static RankLoop.Check ok(Condition c, String detail) {
			return new RankLoop.Check(c, true, detail, null, List.of());
		}

		private static RankLoop.Check fail(Condition c, String detail, Span where) {
			return new RankLoop.Check(c, false, detail, where, List.of());
		}

		private static String orV(String var) {
			return var == null ? "<loop variable>" : var;
		}

		/** pl.range, pl.parallel, pl.unroll, pl.pipeline or pl.while_ for a DSL loop, else null. */
		private String loopForm(Expr.Call iter) {
			if (iter == null) {
				return null;
			}
			Callee c = calls.of(iter);
			if (c instanceof Callee.BuiltinCall b && b.builtin().category().equals("control/loop")) {
				return b.builtin().name();
			}
			return null;
		}

		private boolean coversWorld(Expr.Call iter, int offset) {
			List<Expr> args = iter.args();
			if (args.isEmpty() || args.size() > 3) {
				return false;
			}
			Expr stop = args.size() == 1 ? args.get(0) : args.get(1);
			if (!scope.isWorldSize(stop, offset)) {
				return false;
			}
			if (args.size() >= 2) {
				Long start = eval.asLong(scope.unwrap(args.get(0), offset));
				if (start == null || start != 0) {
					return false;
				}
			}
			if (args.size() == 3) {
				Long step = eval.asLong(scope.unwrap(args.get(2), offset));
				return step != null && step == 1;
			}
			return true;
		}

		private boolean isChipDispatch(Expr.Call c) {
			Function t = calls.target(c);
			return t != null && kinds.isChipOrchestrator(t);
		}

		/** The dispatch a top-level statement is ({@code self.f(...)} or {@code y = self.f(...)}), or null. */
		Expr.Call dispatchOf(Stmt s) {
			Expr v = s instanceof Stmt.ExprStmt e ? e.value() : s instanceof Stmt.Assign a ? a.value() : null;
			return v instanceof Expr.Call c && isChipDispatch(c) ? c : null;
		}

		private static boolean isDevice(Expr.Call c, String var) {
			Expr.Keyword k = c.keyword("device");
			return k != null && k.value() instanceof Expr.Name n && n.id().equals(var);
		}

		private static boolean isNeutral(Stmt s) {
			return Views.isNeutral(s);
		}

		/** pl.yield_ statements are loop state (condition 7), not other calls. */
		private boolean isYield(Stmt s) {
			Expr v = s instanceof Stmt.ExprStmt e ? e.value() : s instanceof Stmt.Assign a ? a.value() : null;
			return v instanceof Expr.Call c && calls.isBuiltin(c, "pl.yield_");
		}

		private boolean isViewAssignment(Stmt s) {
			return Views.isViewAssignment(calls, subs, s);
		}

		/** The calls (element reads included) pypto's IR has under an expression, views left out. */
		private List<Expr> otherCalls(Expr e) {
			return Views.otherCalls(calls, subs, e);
		}

		boolean isView(Expr.Call c) {
			return Views.isViewCall(calls, c);
		}

		private String calleeName(Expr.Call c) {
			return c.funcText() != null ? c.funcText() : "the call";
		}

		private static String text(Expr e) {
			return Render.expr(e);
		}

		private static String excerpt(Stmt s) {
			return Render.stmt(s);
		}
	}
}
