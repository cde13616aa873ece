package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.BufferRootCollector;
import dev.ptotools.codegen.passes.util.CallLike;
import dev.ptotools.codegen.passes.util.WrapperCalls;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's derive_call_directions (DeriveCallDirections, src/ir/transforms/derive_call_directions_pass.cpp):
 * stamps {@code attrs["arg_directions"]} on every call of a program function, in every function with a
 * body. A tensor argument takes the callee parameter's direction (In -&gt; Input, InOut -&gt; InOut); an
 * Out parameter becomes InOut under any non-parallel loop, for an ambiguous buffer, after an earlier
 * writer of the same buffer in the same scope, or for a buffer that is an InOut parameter of the
 * caller, and OutputExisting otherwise. Non-tensor arguments are Scalar; {@code pl.no_dep} arguments
 * become NoDep. Calls that already carry directions keep them. First, Group and Spmd wrappers get the
 * directions their inner calls give their parameters.
 */
public final class DeriveCallDirectionsPass implements Pass {

	@Override
	public String name() {
		return "DeriveCallDirections";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CallDirectionsResolved);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program input, PassContext ctx) {
		Program program = materializeWrapperDirections(input);
		List<Function> out = new ArrayList<>();
		boolean changed = program != input;
		for (Function f : program.functions()) {
			Function n = f.body() == null ? f : derive(program, f);
			changed |= n != f;
			out.add(n);
		}
		return changed ? program.withFunctions(out) : input;
	}

	/** Phase 0: every wrapper's signature gets its effective directions. */
	private static Program materializeWrapperDirections(Program program) {
		Map<Function, List<Direction>> effective = WrapperCalls.effectiveDirections(program);
		List<Function> out = new ArrayList<>();
		boolean stale = false;
		for (Function f : program.functions()) {
			List<Direction> d = effective.get(f);
			if (d != null && !d.equals(f.directions())) {
				out.add(f.withSignature(f.params(), d, f.returnTypes()));
				stale = true;
			} else {
				out.add(f);
			}
		}
		return stale ? program.withFunctions(out) : program;
	}

	private static Function derive(Program program, Function f) {
		// A root for every ambiguous Var: a later write through it must still be promoted to InOut.
		BufferRootCollector roots = BufferRootCollector.of(program, f, BufferRootCollector.AmbiguousPolicy.FIRST_OUTPUT);
		Map<Var, Direction> enclosing = new HashMap<>();
		for (int i = 0; i < f.params().size(); i++) {
			enclosing.putIfAbsent(f.params().get(i), f.directions().get(i));
		}
		PriorWriters writers = new PriorWriters(program, roots.bufferRoots);
		writers.run(f.body());
		Stmt body = new Directions(program, roots, writers.firstWriterRoots, enclosing).stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}

	static boolean isWrite(Direction d) {
		return d == Direction.Out || d == Direction.InOut;
	}

	/**
	 * pypto's PriorWriterCollector: per call, the buffers it is the first writer of in its scope. Loops
	 * and ifs are opaque writer units seen from outside; Seqs and scopes are transparent.
	 */
	private static final class PriorWriters {
		final Map<Expr, Set<Var>> firstWriterRoots = new IdentityHashMap<>();
		private final Program program;
		private final Map<Var, Var> roots;
		private final Map<Stmt, Set<Var>> written = new IdentityHashMap<>();

		PriorWriters(Program program, Map<Var, Var> roots) {
			this.program = program;
			this.roots = roots;
		}

		void run(Stmt body) {
			if (body == null) {
				return;
			}
			writtenRoots(body);
			analyze(body, new HashSet<>());
		}

		private Set<Var> writtenRoots(Stmt s) {
			Set<Var> cached = written.get(s);
			if (cached != null) {
				return cached;
			}
			Set<Var> result = new HashSet<>();
			written.put(s, result);
			if (s instanceof Stmt.Seq q) {
				for (Stmt c : q.stmts()) {
					result.addAll(writtenRoots(c));
				}
			} else if (s instanceof Stmt.For f) {
				result.addAll(writtenRoots(f.body()));
			} else if (s instanceof Stmt.While w) {
				result.addAll(writtenRoots(w.body()));
			} else if (s instanceof Stmt.If i) {
				result.addAll(writtenRoots(i.then()));
				if (i.orelse() != null) {
					result.addAll(writtenRoots(i.orelse()));
				}
			} else if (s instanceof Stmt.Scope sc) {
				result.addAll(writtenRoots(sc.body()));
			} else if (s instanceof Stmt.Assign a) {
				callWrites(a.value(), result);
			} else if (s instanceof Stmt.Eval e) {
				callWrites(e.expr(), result);
			}
			return result;
		}

		private void callWrites(Expr e, Set<Var> out) {
			CallLike c = CallLike.of(e);
			Function callee = c == null || c.isBuiltin() ? null : program.function(c.name());
			if (callee == null) {
				return;
			}
			for (int i = 0; i < c.args().size() && i < callee.directions().size(); i++) {
				Var root = isWrite(callee.directions().get(i)) ? root(c.args().get(i)) : null;
				if (root != null) {
					out.add(root);
				}
			}
		}

		private Var root(Expr e) {
			return e instanceof Var v ? roots.get(v) : null;
		}

		private void analyze(Stmt s, Set<Var> seen) {
			if (s instanceof Stmt.Seq q) {
				for (Stmt c : q.stmts()) {
					analyze(c, seen);
				}
			} else if (s instanceof Stmt.For f) {
				analyze(f.body(), new HashSet<>(seen));
				seen.addAll(writtenRoots(f.body()));
			} else if (s instanceof Stmt.While w) {
				analyze(w.body(), new HashSet<>(seen));
				seen.addAll(writtenRoots(w.body()));
			} else if (s instanceof Stmt.If i) {
				analyze(i.then(), new HashSet<>(seen));
				if (i.orelse() != null) {
					analyze(i.orelse(), new HashSet<>(seen));
				}
				seen.addAll(writtenRoots(i.then()));
				if (i.orelse() != null) {
					seen.addAll(writtenRoots(i.orelse()));
				}
			} else if (s instanceof Stmt.Scope sc) {
				analyze(sc.body(), seen);
			} else if (s instanceof Stmt.Assign a) {
				analyzeCall(a.value(), seen);
			} else if (s instanceof Stmt.Eval e) {
				analyzeCall(e.expr(), seen);
			}
		}

		private void analyzeCall(Expr e, Set<Var> seen) {
			CallLike c = CallLike.of(e);
			Function callee = c == null || c.isBuiltin() ? null : program.function(c.name());
			if (callee == null) {
				return;
			}
			Set<Var> thisCall = new HashSet<>();
			for (int i = 0; i < c.args().size() && i < callee.directions().size(); i++) {
				Direction d = callee.directions().get(i);
				Var root = isWrite(d) ? root(c.args().get(i)) : null;
				if (root == null) {
					continue;
				}
				if (d == Direction.Out && !seen.contains(root)) {
					firstWriterRoots.computeIfAbsent(e, k -> new HashSet<>()).add(root);
				}
				thisCall.add(root);
			}
			seen.addAll(thisCall);
		}
	}

	/** pypto's CallDirectionMutator. */
	private static final class Directions extends IrMutator {
		private final Program program;
		private final BufferRootCollector roots;
		private final Map<Expr, Set<Var>> firstWriters;
		private final Map<Var, Direction> enclosing;
		private int sequentialDepth;

		Directions(Program program, BufferRootCollector roots, Map<Expr, Set<Var>> firstWriters,
				Map<Var, Direction> enclosing) {
			this.program = program;
			this.roots = roots;
			this.firstWriters = firstWriters;
			this.enclosing = enclosing;
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			boolean sequential = f.kind() != Stmt.ForKind.Parallel;
			sequentialDepth += sequential ? 1 : 0;
			Stmt out = super.forStmt(f);
			sequentialDepth -= sequential ? 1 : 0;
			return out;
		}

		@Override
		public Stmt whileStmt(Stmt.While w) {
			sequentialDepth++;
			Stmt out = super.whileStmt(w);
			sequentialDepth--;
			return out;
		}

		@Override
		public Expr call(Expr.Call c) {
			Expr base = super.call(c);
			if (!(base instanceof Expr.Call call)) {
				return base;
			}
			List<ArgDirection> dirs = derive(CallLike.of(call), c, false);
			return dirs == null ? call : call.withAttr(ArgDirection.ATTR, dirs);
		}

		@Override
		public Expr submit(Expr.Submit s) {
			Expr base = super.submit(s);
			if (!(base instanceof Expr.Submit sub)) {
				return base;
			}
			List<ArgDirection> dirs = derive(CallLike.of(sub), s, true);
			return dirs == null ? sub : sub.withAttr(ArgDirection.ATTR, dirs);
		}

		/** The directions to stamp, or null to leave the node as it is. */
		private List<ArgDirection> derive(CallLike call, Expr identity, boolean submit) {
			if (call.isBuiltin()) {
				return null;
			}
			Function callee = program.function(call.name());
			if (callee == null) {
				return null;
			}
			List<Direction> effective = callee.directions();
			boolean sizeOk = submit ? call.args().size() <= effective.size() : call.args().size() == effective.size();
			// Directions written at the call site are authoritative (NoDep cannot be derived).
			if (!sizeOk || call.hasArgDirections()) {
				return null;
			}
			Set<Var> firstWriterOf = firstWriters.get(identity);
			List<ArgDirection> dirs = new ArrayList<>();
			for (int i = 0; i < call.args().size(); i++) {
				Expr arg = call.args().get(i);
				if (!(arg.type() instanceof Type.Tensor) && !(arg.type() instanceof Type.Tuple)) {
					dirs.add(ArgDirection.Scalar);
					continue;
				}
				Direction cd = effective.get(i);
				if (cd == Direction.In) {
					dirs.add(ArgDirection.Input);
				} else if (cd == Direction.InOut) {
					dirs.add(ArgDirection.InOut);
				} else {
					dirs.add(outDirection(arg, firstWriterOf));
				}
			}
			applyOverrides(call, dirs);
			return dirs.equals(call.argDirections()) ? null : dirs;
		}

		private ArgDirection outDirection(Expr arg, Set<Var> firstWriterOf) {
			Var root = roots.root(arg);
			if (sequentialDepth > 0) {
				return ArgDirection.InOut; // cross-iteration WAW
			}
			if (arg instanceof Var v && roots.ambiguousVars.contains(v)) {
				return ArgDirection.InOut;
			}
			if (root != null && (firstWriterOf == null || !firstWriterOf.contains(root))) {
				return ArgDirection.InOut; // an earlier writer in this scope
			}
			if (root != null && enclosing.get(root) == Direction.InOut) {
				return ArgDirection.InOut;
			}
			return ArgDirection.OutputExisting;
		}

		private static void applyOverrides(CallLike call, List<ArgDirection> dirs) {
			Object v = call.attrs().get("arg_direction_overrides");
			if (v == null) {
				return;
			}
			if (!(v instanceof List<?> l)) {
				throw new CodegenException("Internal error: arg_direction_overrides attr must hold a list of indices",
						call.span());
			}
			for (Object o : l) {
				int idx = ((Number) o).intValue();
				if (idx < 0 || idx >= dirs.size()) {
					throw new CodegenException("Internal error: arg_direction_overrides index " + idx
							+ " out of range for call to '" + call.name() + "' (args size " + call.args().size() + ")",
							call.span());
				}
				dirs.set(idx, ArgDirection.NoDep);
			}
		}
	}
}
