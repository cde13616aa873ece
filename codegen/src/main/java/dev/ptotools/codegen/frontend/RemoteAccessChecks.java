package dev.ptotools.codegen.frontend;

import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.types.DType;

/**
 * The checks of pypto's remote-load and remote-store deducers (src/ir/op/distributed/remote_load.cpp,
 * remote_store.cpp, comm_op_utils.h). {@code pld.tile.remote_load} reads a window-bound DistributedTensor
 * at a scalar peer, with offsets and shape given as tuples. {@code pld.tile.remote_store} takes a tile, {@code pld.tensor.remote_store} a plain
 * tensor (each refusal names the other entry point); the target is a window-bound DistributedTensor, the
 * peer a scalar, the offsets a tuple as long as the target's rank; the source's dtype is the target's;
 * the source is 2-D, or N-D with leading extents 1; the target at least 2-D; the pushed region fits in the
 * target at the offsets (static extents only); atomic is None_ or Add, Add only for the hardware's
 * atomic-add dtypes.
 *
 * <p>Needs: the operands' deduced types. Produces: nothing, or an {@link IrTypeError} with pypto's message.
 */
final class RemoteAccessChecks {

	private RemoteAccessChecks() {
	}

	static void check(String op, List<Expr> args, Map<String, Object> kwargs) {
		if (op.equals("pld.tile.remote_load")) {
			remoteLoad(op, args, kwargs);
			return;
		}
		boolean tileForm = op.equals("pld.tile.remote_store");
		if (!tileForm && !op.equals("pld.tensor.remote_store")) {
			return;
		}
		// the operands as the wrapper passes them, positionally or by name (offsets as a list of constants)
		Object[] given = { operand(args, kwargs, 0, tileForm ? "src_tile" : "src"), operand(args, kwargs, 1, "target"),
				operand(args, kwargs, 2, "peer"), operand(args, kwargs, 3, "offsets") };
		for (int i = 0; i < 3; i++) {
			if (!(given[i] instanceof Expr e) || e.type() instanceof Type.Unknown) {
				return; // an operand this compiler cannot type is not judged
			}
		}
		List<Expr> offsetList = given[3] instanceof Expr.MakeTuple m ? m.elements()
				: given[3] instanceof List<?> l && l.stream().allMatch(x -> x instanceof Long)
						? l.stream().map(x -> (Expr) Expr.index((Long) x)).toList() : null;
		if (given[3] == null) {
			return;
		}
		args = List.of((Expr) given[0], (Expr) given[1], (Expr) given[2],
				offsetList != null ? new Expr.MakeTuple(offsetList, dev.ptotools.analyzer.ir.Span.NONE)
						: new Expr.MakeTuple(List.of(), dev.ptotools.analyzer.ir.Span.NONE));
		if (offsetList == null) {
			throw new IrTypeError(op + " offsets must be a tuple (MakeTuple of scalars), got " + given[3].getClass()
					.getSimpleName());
		}
		Type src = args.get(0).type();
		List<Expr> extent;
		DType dtype;
		if (tileForm) {
			if (!(src instanceof Type.Tile t)) {
				throw new IrTypeError("pld.tile.remote_store src_tile must be a TileType, got " + ScalarOps.typeName(src)
						+ ". In a tensor-level kernel (@pl.jit) call pld.tensor.remote_store instead (pld.remote_store "
						+ "dispatches between the two).");
			}
			extent = t.validShape() != null ? t.validShape() : t.shape();
			dtype = t.dtype();
		} else {
			if (!(src instanceof Type.Tensor t) || t.distributed()) {
				throw new IrTypeError("pld.tensor.remote_store src must be a Tensor (tensor-level value), got "
						+ ScalarOps.typeName(src) + ". In a tile-level kernel (@pl.jit.incore / @pl.program) call "
						+ "pld.tile.remote_store instead (pld.remote_store dispatches between the two); to push one window "
						+ "buffer into another, use pld.tensor.put.");
			}
			extent = t.shape();
			dtype = t.dtype();
		}
		Type targetType = args.get(1).type();
		if (!(targetType instanceof Type.Tensor target) || !target.distributed()) {
			throw new IrTypeError(op + " target must be a DistributedTensor (window-bound), got "
					+ ScalarOps.typeName(targetType));
		}
		if (!(args.get(2).type() instanceof Type.Scalar)) {
			throw new IrTypeError(op + " peer must be a scalar (rank index), got " + ScalarOps.typeName(args.get(2).type()));
		}
		Expr.MakeTuple offsets = (Expr.MakeTuple) args.get(3);
		int rank = target.shape().size();
		if (offsets.elements().size() != rank) {
			throw new IrTypeError(op + " offsets rank (" + offsets.elements().size() + ") must match target tensor rank ("
					+ rank + ")");
		}
		if (dtype != target.dtype()) {
			throw new IrTypeError(op + " src dtype (" + dtype.text() + ") must match target dtype (" + target.dtype().text()
					+ ")");
		}
		if (extent.size() < 2) {
			throw new IrTypeError(op + " src must be at least 2-D (it is pushed as a 2-D region), got rank " + extent.size());
		}
		for (int i = 0; i + 2 < extent.size(); i++) {
			Long d = constant(extent.get(i));
			if (d != null && d != 1) {
				throw new IrTypeError(op + " src leading dimension " + i + " must be 1 (only the inner two dims are pushed, "
						+ "and larger leading dims fold into the row extent and overrun the target), got " + d);
			}
		}
		if (rank < 2) {
			throw new IrTypeError(op + " target rank must be >= 2 to hold a 2-D push, got " + rank);
		}
		List<Expr> push = extent.subList(extent.size() - 2, extent.size());
		for (int i = 0; i < rank; i++) {
			Long offset = constant(offsets.elements().get(i));
			if (offset == null) {
				continue; // bounded at run time
			}
			if (offset < 0) {
				throw new IrTypeError(op + " offsets dimension " + i + " must be non-negative, got " + offset);
			}
			Long targetDim = constant(target.shape().get(i));
			Long ext = i + 2 >= rank ? constant(push.get(i + 2 - rank)) : Long.valueOf(1);
			if (targetDim == null || ext == null) {
				continue;
			}
			if (offset + ext > targetDim) {
				throw new IrTypeError(op + " push exceeds the peer's target region in dimension " + i + " (offset=" + offset
						+ ", extent=" + ext + ", target_dim=" + targetDim + ")");
			}
		}
		Object atomic = kwargs.get("atomic");
		long atomicValue = OpTypeChecks.atomicValue(atomic);
		if (atomicValue != 0 && atomicValue != 1) {
			throw new IrTypeError(op + " atomic must be AtomicType.None_ or AtomicType.Add (got int " + atomicValue + ")");
		}
		if (atomicValue == 1 && !OpTypeChecks.ATOMIC_ADD.contains(target.dtype())) {
			throw new IrTypeError(op + " with atomic=AtomicType.Add requires an fp32/bf16/fp16/int32/int16/int8 dtype "
					+ "(hardware atomic-add dtypes), but got " + target.dtype().text());
		}
	}

	/** DeduceRemoteLoadType's operand checks, on the operands as given (positionally or by name). */
	private static void remoteLoad(String op, List<Expr> args, Map<String, Object> kwargs) {
		Object target = operand(args, kwargs, 0, "target");
		if (target instanceof Expr t && !(t.type() instanceof Type.Unknown)
				&& !(t.type() instanceof Type.Tensor tt && tt.distributed())) {
			throw new IrTypeError(op + " target must be a DistributedTensor (window-bound), got "
					+ ScalarOps.typeName(t.type()));
		}
		Object peer = operand(args, kwargs, 1, "peer");
		if (peer instanceof Expr p && !(p.type() instanceof Type.Unknown) && !(p.type() instanceof Type.Scalar)) {
			throw new IrTypeError(op + " peer must be a scalar (rank index), got " + ScalarOps.typeName(p.type()));
		}
		for (String name : List.of("offsets", "shape")) {
			Object v = operand(args, kwargs, name.equals("offsets") ? 2 : 3, name);
			if (v != null && !(v instanceof Expr.MakeTuple) && !(v instanceof List<?>)
					&& !(v instanceof Expr e && e.type() instanceof Type.Unknown)) {
				throw new IrTypeError(op + " " + name + " must be a tuple (MakeTuple of scalars), got "
						+ (v instanceof Long ? "ConstInt" : v instanceof Double ? "ConstFloat" : v.getClass().getSimpleName()));
			}
		}
	}

	private static Object operand(List<Expr> args, Map<String, Object> kwargs, int index, String name) {
		return index < args.size() ? args.get(index) : kwargs.get(name);
	}

	private static Long constant(Expr e) {
		return e instanceof Expr.ConstInt c ? c.value() : null;
	}
}
