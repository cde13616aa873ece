package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
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
import dev.ptotools.codegen.passes.util.OrchTensorReuse;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.RemapMutator;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;

/**
 * pypto's OptimizeOrchTensors (src/ir/transforms/optimize_orch_tensors_pass.cpp), Pattern 1
 * (IterArgReuseOptimizer): a kernel {@code Out} parameter whose buffer the caller allocates with
 * {@code tensor.create} right before the call, inside a loop whose carried value is both passed to an
 * {@code In} parameter and replaced by the kernel's result, is merged into that {@code In} parameter
 * (now {@code InOut}); the argument and its {@code tensor.create} disappear from every call site.
 * Outside carrying loops the same merge happens when the kernel stores a loop result that started as a
 * full load of the {@code In} parameter and every call passes a fresh local buffer and an otherwise
 * unused input.
 *
 * <p>Not ported: Pattern 2 and 4 (row-major strides of a parent tensor on {@code Out}/{@code In}
 * parameter types: MaterializeTensorStrides fills packed strides later and no generated file of this
 * compiler prints kernel parameter strides), Pattern 3 (kernel-internal) and Pattern 5 (window
 * externalization, only with {@code windowize=True}, rejected below).
 */
public final class OptimizeOrchTensorsPass implements Pass {

	@Override
	public String name() {
		return "OptimizeOrchTensors";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SplitIncoreOrch, IrProperty.IncoreTileOps);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		for (Function f : program.functions()) {
			boolean kernel = f.type() == FunctionType.InCore || f.type() == FunctionType.AIC || f.type() == FunctionType.AIV;
			if (kernel && Boolean.TRUE.equals(f.attr("windowize"))) {
				throw dev.ptotools.codegen.support.CodegenException.unsupported("pl.at(..., windowize=True) (window "
						+ "externalization) is not supported by this compiler yet", f.span());
			}
		}
		Set<String> incore = new HashSet<>();
		for (Function f : program.functions()) {
			if (f.type() == FunctionType.InCore) {
				incore.add(f.name());
			}
		}
		Map<String, List<int[]>> merges = OrchTensorReuse.analyze(program, incore);
		if (merges.isEmpty()) {
			return program;
		}
		Map<String, Function> rewritten = new HashMap<>();
		for (Map.Entry<String, List<int[]>> m : merges.entrySet()) {
			rewritten.put(m.getKey(), rewriteKernel(program.function(m.getKey()), m.getValue()));
		}
		List<Function> out = new ArrayList<>();
		for (Function f : program.sortedByName()) {
			if (rewritten.containsKey(f.name())) {
				out.add(rewritten.get(f.name()));
			} else if (!incore.contains(f.name())) {
				out.add(rewriteCallSites(f, merges, rewritten));
			} else {
				out.add(f);
			}
		}
		return program.withFunctions(out);
	}

	/** Drops the merged Out params, substitutes them by their In partner, which becomes InOut. */
	private static Function rewriteKernel(Function f, List<int[]> merges) {
		Set<Integer> remove = new HashSet<>();
		Set<Integer> promote = new HashSet<>();
		Map<Var, Var> subst = new IdentityHashMap<>();
		for (int[] m : merges) {
			remove.add(m[0]);
			promote.add(m[1]);
			subst.put(f.params().get(m[0]), f.params().get(m[1]));
		}
		List<Var> params = new ArrayList<>();
		List<Direction> dirs = new ArrayList<>();
		for (int i = 0; i < f.params().size(); i++) {
			if (remove.contains(i)) {
				continue;
			}
			params.add(f.params().get(i));
			dirs.add(promote.contains(i) ? Direction.InOut : f.directions().get(i));
		}
		Stmt body = new RemapMutator(subst).stmt(f.body());
		return new Function(f.name(), f.type(), params, dirs, f.returnTypes(), body, f.level(), f.role(), f.attrs(),
				f.span());
	}

	private static Function rewriteCallSites(Function f, Map<String, List<int[]>> merges, Map<String, Function> kernels) {
		Set<Var> deadCreates = VarCollectors.identitySet();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && c.functionName() != null && merges.containsKey(c.functionName())) {
					for (int[] m : merges.get(c.functionName())) {
						if (m[0] < c.args().size() && VarCollectors.plainVar(c.args().get(m[0])) instanceof Var v) {
							deadCreates.add(v);
						}
					}
				}
				super.assign(a);
			}
		}.stmt(f.body());
		Stmt body = new RemapMutator() {
			@Override
			public Stmt assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && c.isOp("tensor.create") && deadCreates.contains(a.var())) {
					return new Stmt.Seq(List.of(), a.span());
				}
				if (a.value() instanceof Expr.Call c && c.functionName() != null && merges.containsKey(c.functionName())) {
					Set<Integer> remove = new HashSet<>();
					merges.get(c.functionName()).forEach(m -> remove.add(m[0]));
					List<Expr> args = new ArrayList<>();
					for (int i = 0; i < c.args().size(); i++) {
						if (!remove.contains(i)) {
							args.add(expr(c.args().get(i)));
						}
					}
					Type t = ConvertTensorToTileOpsPass.callType(kernels.get(c.functionName()).returnTypes());
					Var nv = new Var(a.var().name(), t, a.var().span());
					remap.put(a.var(), nv);
					return new Stmt.Assign(nv, c.withArgs(args).withType(t), a.span());
				}
				return super.assign(a);
			}

			@Override
			public Stmt seq(Stmt.Seq q) {
				Stmt r = super.seq(q);
				return r instanceof Stmt.Seq s && s != q ? new Stmt.Seq(ScopeOutliner.flatten(s.stmts()), s.span()) : r;
			}
		}.stmt(f.body());
		return body == f.body() ? f : f.withBody(body);
	}
}
