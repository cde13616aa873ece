package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.BufferRootCollector;
import dev.ptotools.codegen.passes.util.OpKwargs;
import dev.ptotools.codegen.passes.util.VarRemapMutator;

/**
 * pypto's fuse_create_assemble_to_slice (FuseCreateAssembleToSlice,
 * src/ir/transforms/fuse_create_assemble_to_slice_pass.cpp): in an orchestration function, a
 * {@code tensor.create} whose buffer is assembled into a target exactly once (statically, anywhere in
 * the function, not atomically) becomes a {@code tensor.slice} of the target at the assemble's offsets,
 * and the assemble disappears (its result is the target). The kernel that fills the buffer then writes
 * straight into the target's view. Loops whose carry only passed such an assemble's result along lose
 * that carry.
 */
public final class FuseCreateAssembleToSlicePass implements Pass {

	@Override
	public String name() {
		return "FuseCreateAssembleToSlice";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.functions()) {
			Function n = f.isOrchestration() && f.body() != null ? fuse(program, f) : f;
			changed |= n != f;
			out.add(n);
		}
		return changed ? program.withFunctions(out) : program;
	}

	private static Function fuse(Program program, Function f) {
		// No root for an ambiguous Var: fusion must never alias a scratch buffer onto an output.
		BufferRootCollector roots = BufferRootCollector.of(program, f, BufferRootCollector.AmbiguousPolicy.SKIP);
		Patterns patterns = new Patterns(roots.bufferRoots);
		patterns.stmt(f.body());
		if (patterns.fusible.isEmpty()) {
			return f;
		}
		Stmt body = new Fuser(patterns.fusible, roots.bufferRoots).stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}

	/** Where a fused create's buffer goes: the assemble target and its offsets. */
	private record FuseInfo(Expr target, Expr.MakeTuple offsets) {
	}

	/** pypto's AssemblePatternCollector: creates assembled exactly once, by buffer root. */
	private static final class Patterns extends IrVisitor {
		final Map<Var, FuseInfo> fusible = new HashMap<>();
		final Set<Var> nonFusible = new HashSet<>();
		final Set<Var> createVars = new HashSet<>();
		private final Map<Var, Var> roots;
		private final Map<Var, Expr.MakeTuple> tupleValues = new HashMap<>();

		Patterns(Map<Var, Var> roots) {
			this.roots = roots;
		}

		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.Assign a) {
				if (a.value() instanceof Expr.MakeTuple t) {
					tupleValues.put(a.var(), t);
				} else if (a.value() instanceof Expr.Call c) {
					if (c.isOp("tensor.create")) {
						if (roots.get(a.var()) == a.var()) {
							createVars.add(a.var());
						}
					} else if (c.isOp("tensor.assemble") && c.args().size() == 3) {
						Var source = c.args().get(1) instanceof Var v ? roots.get(v) : null;
						Expr.MakeTuple offsets = tuple(c.args().get(2));
						if (source != null && offsets != null && createVars.contains(source)) {
							if (OpKwargs.isAtomic(c.kwarg("atomic"))) {
								// Fusing would drop the atomic combine of split-K accumulation.
								fusible.remove(source);
								nonFusible.add(source);
							} else if (!nonFusible.contains(source)) {
								if (fusible.containsKey(source)) {
									fusible.remove(source);
									nonFusible.add(source);
								} else {
									fusible.put(source, new FuseInfo(c.args().get(0), offsets));
								}
							}
						}
					}
				} else if (a.value() instanceof Var src && tupleValues.containsKey(src)) {
					tupleValues.put(a.var(), tupleValues.get(src));
				}
			}
			super.stmt(s);
		}

		private Expr.MakeTuple tuple(Expr e) {
			if (e instanceof Expr.MakeTuple t) {
				return t;
			}
			return e instanceof Var v ? tupleValues.get(v) : null;
		}
	}

	/** pypto's FuseCreateAssembleMutator. */
	private static final class Fuser extends VarRemapMutator {
		private final Map<Var, FuseInfo> fusible;
		private final Map<Var, Var> roots;

		Fuser(Map<Var, FuseInfo> fusible, Map<Var, Var> roots) {
			this.fusible = fusible;
			this.roots = roots;
		}

		@Override
		public Stmt assign(Stmt.Assign a) {
			if (a.value() instanceof Expr.Call c) {
				if (c.isOp("tensor.create")) {
					Var root = roots.get(a.var());
					if (root != null && fusible.containsKey(root)) {
						return createToSlice(a, c, fusible.get(root));
					}
				} else if (c.isOp("tensor.assemble") && c.args().size() == 3) {
					Var source = c.args().get(1) instanceof Var v ? roots.get(v) : null;
					if (source != null && fusible.containsKey(source)) {
						remap.put(a.var(), expr(c.args().get(0)));
						return new Stmt.Seq(List.of(), a.span());
					}
				}
			}
			return super.assign(a);
		}

		private Stmt createToSlice(Stmt.Assign a, Expr.Call create, FuseInfo info) {
			if (!(create.type() instanceof Type.Tensor result)) {
				return a;
			}
			int ndim = result.shape().size();
			int offsetRank = info.offsets().elements().size();
			List<Expr> shape = new ArrayList<>();
			// A create of lower rank than the target (a 2-D tile assembled into a 3-D tensor) gets leading
			// unit dimensions so the slice's shape and offsets have one rank.
			for (int i = ndim; i < offsetRank; i++) {
				shape.add(new Expr.ConstInt(1, dev.ptotools.codegen.types.DType.INDEX, a.span()));
			}
			shape.addAll(result.shape());
			Expr target = expr(info.target());
			Type.Tensor tt = target.type() instanceof Type.Tensor t ? t : result;
			Type sliceType = new Type.Tensor(shape, tt.dtype(), null, tt.distributed(), tt.window());
			Expr.Call slice = Expr.Call.op("tensor.slice",
					List.of(target, new Expr.MakeTuple(shape, a.span()), info.offsets()), Map.of(), sliceType, a.span());
			if (offsetRank > ndim) {
				Var v = new Var(a.var().name(), sliceType, a.var().span());
				remap.put(a.var(), v);
				return new Stmt.Assign(v, slice, a.span());
			}
			return new Stmt.Assign(a.var(), slice, a.span());
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			Stmt r = super.forStmt(f);
			return r instanceof Stmt.For nf ? strip(nf) : r;
		}

		@Override
		public Stmt whileStmt(Stmt.While w) {
			Stmt r = super.whileStmt(w);
			return r instanceof Stmt.While nw ? strip(nw) : r;
		}

		/** Carries the body now only passes through (the yield yields the iter arg itself) are dropped. */
		private Stmt strip(Stmt.For f) {
			Carries c = passThrough(f.iterArgs(), f.returnVars(), f.body());
			if (c == null) {
				return f;
			}
			return new Stmt.For(f.loopVar(), f.start(), f.stop(), f.step(), c.iterArgs, c.body, c.returnVars, f.kind(),
					f.attrs(), f.span());
		}

		private Stmt strip(Stmt.While w) {
			Carries c = passThrough(w.iterArgs(), w.returnVars(), w.body());
			if (c == null) {
				return w;
			}
			return new Stmt.While(w.condition(), c.iterArgs, c.body, c.returnVars, w.span());
		}

		private record Carries(List<IterArg> iterArgs, List<Var> returnVars, Stmt body) {
		}

		private Carries passThrough(List<IterArg> iterArgs, List<Var> returnVars, Stmt body) {
			if (iterArgs.isEmpty()) {
				return null;
			}
			Stmt.Yield y = trailingYield(body);
			if (y == null || y.values().size() != iterArgs.size()) {
				return null;
			}
			boolean any = false;
			for (int i = 0; i < iterArgs.size(); i++) {
				any |= y.values().get(i) == iterArgs.get(i);
			}
			if (!any) {
				return null;
			}
			List<IterArg> keptArgs = new ArrayList<>();
			List<Var> keptReturns = new ArrayList<>();
			List<Expr> keptValues = new ArrayList<>();
			VarRemapMutator subst = new VarRemapMutator();
			for (int i = 0; i < iterArgs.size(); i++) {
				if (y.values().get(i) == iterArgs.get(i)) {
					remap.put(returnVars.get(i), iterArgs.get(i).init());
					subst.remap.put(iterArgs.get(i), iterArgs.get(i).init());
					continue;
				}
				keptArgs.add(iterArgs.get(i));
				keptReturns.add(returnVars.get(i));
				keptValues.add(y.values().get(i));
			}
			Stmt newBody = replaceTrailingYield(body, keptValues, y.span());
			newBody = subst.stmt(newBody);
			return new Carries(keptArgs, keptReturns, newBody);
		}

		private static Stmt.Yield trailingYield(Stmt body) {
			if (body instanceof Stmt.Seq q) {
				return q.stmts().isEmpty() ? null
						: q.stmts().get(q.stmts().size() - 1) instanceof Stmt.Yield y ? y : null;
			}
			return body instanceof Stmt.Yield y ? y : null;
		}

		private static Stmt replaceTrailingYield(Stmt body, List<Expr> values, Span span) {
			if (body instanceof Stmt.Yield) {
				return values.isEmpty() ? new Stmt.Seq(List.of(), span) : new Stmt.Yield(values, span);
			}
			if (body instanceof Stmt.Seq q) {
				List<Stmt> stmts = new ArrayList<>(q.stmts());
				if (!stmts.isEmpty() && stmts.get(stmts.size() - 1) instanceof Stmt.Yield) {
					stmts.remove(stmts.size() - 1);
					if (!values.isEmpty()) {
						stmts.add(new Stmt.Yield(values, span));
					}
				}
				return flatten(stmts, q.span());
			}
			return body;
		}
	}
}
