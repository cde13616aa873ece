package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.KernelTileConversion;
import dev.ptotools.codegen.passes.util.OutlineNames;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.RemapMutator;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's ConvertTensorToTileOps (src/ir/transforms/convert_tensor_to_tile_ops_pass.cpp).
 *
 * <ol>
 * <li>Every InCore function's tensor ops become tile ops ({@link KernelTileConversion}); each returned
 * value that became a tile is stored into a new trailing {@code Out} parameter {@code ret<j>__out} (the
 * declared return type) and {@code ret<j>__store} is returned instead; tensor parameters the kernel
 * writes are upgraded from {@code In} to {@code Out}/{@code InOut}.</li>
 * <li>A Spmd/Group wrapper forwarding to such a kernel gets the same trailing parameters and passes
 * them on.</li>
 * <li>Each call site elsewhere (an assignment) allocates {@code ret<j>__out = tensor.create(...)} right
 * before the call and passes it.</li>
 * <li>Directions propagate up: a caller's own parameter passed to an {@code Out}/{@code InOut} slot
 * takes that direction, to a fixed point.</li>
 * </ol>
 */
public final class ConvertTensorToTileOpsPass implements Pass {

	@Override
	public String name() {
		return "ConvertTensorToTileOps";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.SplitIncoreOrch, IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.IncoreTileOps, IrProperty.NormalizedStmtStructure);
	}

	private static boolean wrapper(FunctionType t) {
		return t == FunctionType.Spmd || t == FunctionType.Group;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Map<String, Integer> added = new HashMap<>();
		Map<String, Function> transformed = new HashMap<>();
		List<Function> phase1 = new ArrayList<>();
		for (Function f : program.sortedByName()) {
			if (f.type() == FunctionType.InCore) {
				KernelTileConversion.Result r = KernelTileConversion.convert(f);
				added.put(f.name(), r.addedOutputs());
				transformed.put(f.name(), r.function());
				phase1.add(r.function());
			} else {
				phase1.add(f);
			}
		}
		Map<String, Integer> allAdded = new HashMap<>(added);
		Map<String, Function> allTransformed = new HashMap<>(transformed);
		List<Function> phase2a = new ArrayList<>();
		for (Function f : phase1) {
			if (wrapper(f.type())) {
				Function w = forwardThroughWrapper(f, added, transformed);
				if (w != f) {
					allAdded.put(f.name(), w.params().size() - f.params().size());
					allTransformed.put(f.name(), w);
				}
				phase2a.add(w);
			} else {
				phase2a.add(f);
			}
		}
		List<Function> phase2b = new ArrayList<>();
		for (Function f : phase2a) {
			if (f.type() == FunctionType.InCore || wrapper(f.type())) {
				phase2b.add(f);
			} else {
				phase2b.add(updateCallSites(f, allAdded, allTransformed));
			}
		}
		return program.withFunctions(propagateDirections(phase2b));
	}

	// ---- wrappers ---------------------------------------------------------------------------------

	private static Function forwardThroughWrapper(Function f, Map<String, Integer> added, Map<String, Function> kernels) {
		String[] target = { null };
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if (target[0] == null && c.functionName() != null && added.getOrDefault(c.functionName(), 0) > 0) {
					target[0] = c.functionName();
					return;
				}
				super.call(c);
			}
		}.stmt(f.body());
		if (target[0] == null) {
			return f;
		}
		Function kernel = kernels.get(target[0]);
		int n = added.get(target[0]);
		List<Var> params = new ArrayList<>(f.params());
		List<Direction> dirs = new ArrayList<>(f.directions());
		List<Var> outs = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			Var p = kernel.params().get(kernel.params().size() - n + i);
			Var nv = new Var(p.name(), p.type(), f.span());
			params.add(nv);
			dirs.add(Direction.Out);
			outs.add(nv);
		}
		boolean[] applied = { false };
		Stmt body = new RemapMutator() {
			@Override
			public Stmt assign(Stmt.Assign a) {
				Expr v = expr(a.value());
				if (v instanceof Expr.Call c && c.functionName() != null && added.getOrDefault(c.functionName(), 0) > 0) {
					if (applied[0]) {
						throw new IllegalStateException("wrapper " + f.name() + " forwards more than one converted kernel");
					}
					applied[0] = true;
					Function callee = kernels.get(c.functionName());
					List<Expr> args = new ArrayList<>(c.args());
					args.addAll(outs);
					Type t = callType(callee.returnTypes());
					Var nv = new Var(a.var().name(), t, a.var().span());
					remap.put(a.var(), nv);
					return new Stmt.Assign(nv, c.withArgs(args).withType(t), a.span());
				}
				return v == a.value() ? a : new Stmt.Assign(defVar(a.var()), v, a.span());
			}
		}.stmt(f.body());
		if (!applied[0]) {
			throw new IllegalStateException("wrapper " + f.name() + " calls converted kernel " + target[0]
					+ " outside an assignment");
		}
		return new Function(f.name(), f.type(), params, dirs, f.returnTypes(), body, f.level(), f.role(), f.attrs(),
				f.span());
	}

	static Type callType(List<Type> returns) {
		if (returns.isEmpty()) {
			return Type.UNKNOWN;
		}
		return returns.size() == 1 ? returns.get(0) : new Type.Tuple(returns);
	}

	// ---- call sites -------------------------------------------------------------------------------

	/** {@code ret<i>__out = tensor.create(shape, dtype=, layout=)} for each added output of the callee. */
	private static List<Var> createOutputs(Function callee, int n, List<Stmt> stmts, dev.ptotools.analyzer.ir.Span span) {
		List<Var> extra = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			Var p = callee.params().get(callee.params().size() - n + i);
			if (!(p.type() instanceof Type.Tensor t)) {
				throw new IllegalStateException("output param " + p.name() + " of " + callee.name() + " is not a tensor");
			}
			Map<String, Object> kw = new LinkedHashMap<>();
			kw.put("dtype", t.dtype());
			kw.put("layout", t.view() != null ? t.view().layout() : "ND");
			Type created = new Type.Tensor(t.shape(), t.dtype(), t.view() != null && !t.view().layout().equals("ND")
					? new Type.TensorView(t.view().layout(), List.of(), List.of()) : null, false, null);
			Expr.Call create = Expr.Call.op("tensor.create", List.of(new Expr.MakeTuple(t.shape(), span)), kw, created, span);
			Var out = new Var(OutlineNames.build("ret" + i, "", "out", null), created, span);
			stmts.add(new Stmt.Assign(out, create, span));
			extra.add(out);
		}
		return extra;
	}

	private static Function updateCallSites(Function f, Map<String, Integer> added, Map<String, Function> callees) {
		Stmt body = new RemapMutator() {
			@Override
			public Stmt assign(Stmt.Assign a) {
				Expr v = expr(a.value());
				if (v instanceof Expr.Call c && c.functionName() != null && added.getOrDefault(c.functionName(), 0) > 0) {
					Function callee = callees.get(c.functionName());
					List<Stmt> stmts = new ArrayList<>();
					List<Expr> args = new ArrayList<>(c.args());
					args.addAll(createOutputs(callee, added.get(c.functionName()), stmts, c.span()));
					Type t = callType(callee.returnTypes());
					Var nv = new Var(a.var().name(), t, a.var().span());
					remap.put(a.var(), nv);
					stmts.add(new Stmt.Assign(nv, c.withArgs(args).withType(t), a.span()));
					return new Stmt.Seq(stmts, a.span());
				}
				if (v instanceof Expr.Submit s && added.getOrDefault(s.callee().name(), 0) > 0) {
					Function callee = callees.get(s.callee().name());
					List<Stmt> stmts = new ArrayList<>();
					List<Expr> args = new ArrayList<>(s.args());
					args.addAll(createOutputs(callee, added.get(s.callee().name()), stmts, s.span()));
					stmts.add(new Stmt.Assign(defVar(a.var()), s.withArgs(args), a.span()));
					return new Stmt.Seq(stmts, a.span());
				}
				return v == a.value() ? a : new Stmt.Assign(defVar(a.var()), v, a.span());
			}

			@Override
			public Stmt seq(Stmt.Seq q) {
				Stmt r = super.seq(q);
				return r instanceof Stmt.Seq s && s != q ? new Stmt.Seq(ScopeOutliner.flatten(s.stmts()), s.span()) : r;
			}
		}.stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}

	// ---- directions up the call chain -------------------------------------------------------------

	private static List<Function> propagateDirections(List<Function> functions) {
		Map<String, Function> byName = new HashMap<>();
		functions.forEach(f -> byName.put(f.name(), f));
		List<Function> fs = new ArrayList<>(functions);
		boolean changed = true;
		while (changed) {
			changed = false;
			for (int k = 0; k < fs.size(); k++) {
				Function f = fs.get(k);
				if (f.type() == FunctionType.InCore) {
					continue;
				}
				List<Direction> dirs = new ArrayList<>(f.directions());
				new PyptoVisitor() {
					@Override
					protected void call(Expr.Call c) {
						Function callee = c.functionName() == null ? null : byName.get(c.functionName());
						if (callee != null) {
							for (int a = 0; a < c.args().size() && a < callee.directions().size(); a++) {
								if (VarCollectors.plainVar(c.args().get(a)) instanceof Var v) {
									int pi = f.paramIndex(v);
									if (pi < 0) {
										continue;
									}
									Direction cd = callee.directions().get(a);
									if (cd == Direction.Out && dirs.get(pi) == Direction.In) {
										dirs.set(pi, Direction.Out);
									} else if (cd == Direction.InOut && dirs.get(pi) != Direction.InOut) {
										dirs.set(pi, Direction.InOut);
									}
								}
							}
						}
						super.call(c);
					}
				}.stmt(f.body());
				if (!dirs.equals(f.directions())) {
					changed = true;
					Function nf = f.withSignature(f.params(), dirs, f.returnTypes());
					fs.set(k, nf);
					byName.put(nf.name(), nf);
				}
			}
		}
		return fs;
	}
}
