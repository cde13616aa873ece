package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's ScopeOutliner::InferParamDirections: a captured Var is {@code In} unless the body writes it — as
 * an exported {@code tile.store} target or a {@code tensor.assemble} destination — then {@code Out}, or
 * {@code InOut} when the body also reads it. With a program (Cluster/Spmd wrappers) the directions of
 * the inner callees' parameters are merged in ({@code In < Out < InOut}).
 */
public final class OutlineDirections {

	private OutlineDirections() {
	}

	/** pypto's MergeParamDirection: keeps every access either side saw. */
	public static Direction merge(Direction a, Direction b) {
		if (a == b) {
			return a;
		}
		if (a == Direction.Out && b == Direction.InOut || a == Direction.InOut && b == Direction.Out) {
			return Direction.InOut;
		}
		return a.ordinal() >= b.ordinal() ? a : b;
	}

	public static List<Direction> infer(List<Var> inputs, Stmt body, Set<Var> storeOutputs, Program program) {
		List<Direction> dirs = new ArrayList<>();
		Map<Var, Integer> index = new IdentityHashMap<>();
		for (int i = 0; i < inputs.size(); i++) {
			dirs.add(Direction.In);
			index.put(inputs.get(i), i);
		}
		VarCollectors.Reads reads = new VarCollectors.Reads(inputs);
		reads.stmt(body);
		List<Direction> written = new ArrayList<>();
		for (int i = 0; i < inputs.size(); i++) {
			written.add(reads.read(i) ? Direction.InOut : Direction.Out);
			if (storeOutputs.contains(inputs.get(i))) {
				dirs.set(i, written.get(i));
			}
		}
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				if (c.isOp("tensor.assemble") && !c.args().isEmpty() && VarCollectors.plainVar(c.args().get(0)) instanceof Var v) {
					Integer i = index.get(v);
					if (i != null && dirs.get(i) == Direction.In) {
						dirs.set(i, written.get(i));
					}
				}
				super.call(c);
			}
		}.stmt(body);
		if (program == null) {
			return dirs;
		}
		new PyptoVisitor() {
			@Override
			protected void call(Expr.Call c) {
				Function callee = c.functionName() == null ? null : program.function(c.functionName());
				if (callee != null) {
					for (int a = 0; a < c.args().size() && a < callee.directions().size(); a++) {
						if (VarCollectors.plainVar(c.args().get(a)) instanceof Var v && index.containsKey(v)) {
							int i = index.get(v);
							dirs.set(i, merge(dirs.get(i), callee.directions().get(a)));
						}
					}
				}
				super.call(c);
			}
		}.stmt(body);
		return dirs;
	}
}
