package dev.ptotools.codegen.passes.util;

import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The checks of pypto's type deducers for the two HOST allreduce builtins
 * (DeduceBuiltinTensorAllReduceType and DeduceBuiltinTensorAllReduceRingType, src/ir/op/distributed/
 * collective.cpp), which run when LowerHostTensorCollectives creates the builtin call: on the loop form of a
 * dynamic domain too, where the pass's own capacity checks have no device count to check against. The
 * arguments are window-bound DistributedTensors by then (the pass requires it), so only their dtypes and
 * shapes are checked here.
 */
final class BuiltinAllReduceTypes {

	/** The ring kernel serves at most 16 ranks (kMaxSupportedRingRanks). */
	private static final long MAX_RING_RANKS = 16;

	private BuiltinAllReduceTypes() {
	}

	/** builtin.tensor.allreduce: the signal's dtype and rank, and its lanes against core_num. */
	static void mesh(Expr.Call c, Type.Tensor signal, int coreNum) {
		String op = "builtin.tensor.allreduce";
		signalInt32(c, signal, op);
		int rank = signal.shape().size();
		if (rank != 1 && rank != 2) {
			throw error(c, op + " signal must be rank-1 [world_size] or rank-2 [world_size, signal_stride], got rank " + rank);
		}
		if (coreNum <= 0) {
			throw error(c, op + " core_num must be positive, got " + coreNum);
		}
		if (rank != 2 && coreNum != 1) {
			throw error(c, op + " rank-1 signal is valid only when core_num=1, got core_num=" + coreNum);
		}
		if (rank == 2) {
			if (!(signal.shape().get(1) instanceof Expr.ConstInt lanes)) {
				throw error(c, op + " rank-2 signal shape[1] must be a compile-time constant");
			}
			if (lanes.value() < coreNum) {
				throw error(c, op + " rank-2 signal shape[1] (" + lanes.value() + ") must be at least core_num (" + coreNum + ")");
			}
		}
	}

	/** builtin.tensor.allreduce_ring: a rank-2 [2*(NR-1) + 1, NR] signal and a src that splits into NR chunks. */
	static void ring(Expr.Call c, Type.Tensor src, Type.Tensor signal) {
		String op = "builtin.tensor.allreduce_ring";
		signalInt32(c, signal, op);
		List<Expr> shape = signal.shape();
		if (shape.size() != 2) {
			throw error(c, op + " signal must be rank-2 [2*(NR-1) + 1, NR], got rank " + shape.size());
		}
		Expr.ConstInt rounds = shape.get(0) instanceof Expr.ConstInt x ? x : null;
		Expr.ConstInt nr = shape.get(1) instanceof Expr.ConstInt x ? x : null;
		if (nr != null && nr.value() > 0 && nr.value() > MAX_RING_RANKS) {
			throw error(c, op + " requires " + MAX_RING_RANKS + " or fewer ranks (signal shape[1] = " + nr.value() + ")");
		}
		if (rounds != null && nr != null && nr.value() > 0 && rounds.value() != 2 * (nr.value() - 1) + 1) {
			throw error(c, op + " signal shape[0] (" + rounds.value() + ") must equal 2*(NR-1) + 1 = " + (2 * (nr.value() - 1) + 1)
					+ " for NR = " + nr.value());
		}
		if (nr != null && nr.value() > 0) {
			long numel = 1;
			for (Expr d : src.shape()) {
				if (!(d instanceof Expr.ConstInt e)) {
					throw error(c, op + " requires a statically-known src shape (dynamic host-ring extents are not supported; "
							+ "the ring schedule partitions src into NR compile-time chunks)");
				}
				numel *= e.value();
			}
			if (numel % nr.value() != 0) {
				throw error(c, op + " requires the src data size (product of shape = " + numel + ") to be an exact multiple of "
						+ "the rank count (" + nr.value() + "); got a remainder of " + (numel % nr.value()));
			}
		}
	}

	private static void signalInt32(Expr.Call c, Type.Tensor signal, String op) {
		if (signal.dtype() != DType.INT32) {
			throw error(c, op + " signal dtype must be INT32, got " + signal.dtype().text());
		}
	}

	private static CodegenException error(Expr.Call c, String message) {
		return new CodegenException(message, c.span());
	}
}
