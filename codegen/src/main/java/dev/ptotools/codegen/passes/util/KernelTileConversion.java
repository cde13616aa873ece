package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * One InCore function through pypto's TransformIncoreFunction: entry loads of the tensor parameters that
 * converted ops read ({@code p__tile = tile.load(p, zeros, shape, shape, target_memory=Vec)}), the body
 * converted ({@link TensorToTileBody}), each returned tile stored into a new {@code Out} parameter
 * {@code ret<j>__out}, and written {@code In} parameters upgraded ({@link ParamWriteAnalysis}).
 */
public final class KernelTileConversion {

	private KernelTileConversion() {
	}

	/** The converted function and how many {@code ret<j>__out} parameters it gained. */
	public record Result(Function function, int addedOutputs) {
	}

	/** pypto's FlattenToStmts: the statements of nested statement lists, in order. */
	static List<Stmt> flattenDeep(Stmt s) {
		return ScopeOutliner.flatten(Stmt.flatten(s));
	}

	public static Result convert(Function f) {
		Stmt body = f.body();
		Map<Var, MemorySpace> reqs = TensorToTileBody.consumerReqs(body);
		TensorToTileBody mutator = new TensorToTileBody(reqs);
		List<Stmt> out = new ArrayList<>();
		Set<Var> used = TensorToTileBody.usedByConvertedOps(body);
		for (Var p : f.params()) {
			if (!(p.type() instanceof Type.Tensor t) || !used.contains(p)) {
				continue;
			}
			Expr.Call load = TensorToTileBody.load(p, TensorToTileBody.zeros(t.rank(), p.span()),
					TensorToTileBody.shapeTuple(t.shape(), p.span()), TensorToTileBody.shapeTuple(t.shape(), p.span()),
					MemorySpace.Vec, null, p.span());
			Var tile = new Var(OutlineNames.build(OutlineNames.baseName(p.name()), "", "tile", null), load.type(), p.span());
			out.add(new Stmt.Assign(tile, withoutBridgeAttr(load), p.span()));
			mutator.map(p, tile);
		}
		Stmt.Return ret = null;
		List<Stmt> rest = new ArrayList<>();
		for (Stmt s : flattenDeep(body)) {
			if (s instanceof Stmt.Return r) {
				ret = r;
			} else {
				rest.add(s);
			}
		}
		out.addAll(flattenDeep(mutator.stmt(new Stmt.Seq(rest, f.span()))));

		List<Var> params = new ArrayList<>(f.params());
		List<Direction> dirs = new ArrayList<>(f.directions());
		List<Type> returnTypes = new ArrayList<>();
		int added = 0;
		if (ret != null) {
			List<Expr> values = new ArrayList<>();
			for (int i = 0; i < ret.values().size(); i++) {
				Expr e = mutator.expr(ret.values().get(i));
				if (e.type() instanceof Type.Tile tile) {
					Type declared = i < f.returnTypes().size() ? f.returnTypes().get(i) : null;
					if (!(declared instanceof Type.Tensor)) {
						throw new CodegenException("Internal error: return type " + i + " of '" + f.name()
								+ "' should be TensorType but got " + (declared == null ? "nothing" : IrPrinter.type(declared))
								+ " (a kernel may not return an on-chip tile)", ret.span());
					}
					Var outParam = new Var(OutlineNames.build("ret" + added, "", "out", null), declared, ret.span());
					params.add(outParam);
					dirs.add(Direction.Out);
					Expr.Call store = Expr.Call.op("tile.store",
							List.of(e, TensorToTileBody.zeros(tile.shape().size(), ret.span()), outParam), Map.of(), declared,
							ret.span());
					Var storeVar = new Var(OutlineNames.build("ret" + added, "", "store", null), declared, ret.span());
					out.add(new Stmt.Assign(storeVar, store, ret.span()));
					values.add(storeVar);
					returnTypes.add(declared);
					added++;
				} else {
					values.add(e);
					returnTypes.add(e.type());
				}
			}
			out.add(new Stmt.Return(values, ret.span()));
		} else {
			if (!f.returnTypes().isEmpty()) {
				throw new CodegenException("Internal error: function '" + f.name() + "' has no return statement but declares "
						+ f.returnTypes().size() + " return type(s)", f.span());
			}
			out.add(new Stmt.Return(List.of(), f.span()));
		}
		dirs = ParamWriteAnalysis.upgrade(out, params, dirs);
		Function nf = new Function(f.name(), FunctionType.InCore, params, dirs, returnTypes, new Stmt.Seq(out, f.span()),
				f.level(), f.role(), f.attrs(), f.span());
		return new Result(nf, added);
	}

	/** Entry loads are plain Vec loads (only staged matmul operands carry the Mat-bridge marker). */
	private static Expr.Call withoutBridgeAttr(Expr.Call c) {
		return c.attrs().isEmpty() ? c : c.withoutAttr("__compiler_tensor_to_tile_mat_bridge");
	}
}
