package dev.ptotools.codegen.frontend;

import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.types.DType;

/**
 * The checks pypto's deducers of the distributed ops make when the op is built (src/ir/op/distributed):
 * pld.tensor.allreduce's operands (allreduce.cpp); the comm-context queries' (get_comm_ctx.cpp: a
 * DistributedTensor in, a CommCtx into rank / nranks); and the signal ops' (system.cpp, DeduceWaitType and
 * DeduceDeferWaitType): the signal is a window-bound DistributedTensor (INT32 for defer_wait), the offsets
 * are a tuple as long as its rank, of integer or index scalars for defer_wait, the expected value a scalar
 * (an integer one in [0, INT32_MAX] for defer_wait), and the comparison one the op supports.
 *
 * <p>Needs: the operands' deduced types. Produces: nothing, or an {@link IrTypeError} with pypto's message.
 */
final class SystemOpChecks {

	private SystemOpChecks() {
	}

	static void check(String op, List<Expr> args, Map<String, Object> kwargs) {
		if (op.equals("pld.tensor.allreduce")) {
			allreduce(op, args);
			return;
		}
		if (op.equals("pld.system.get_comm_ctx") && args.size() == 1 && !(args.get(0).type() instanceof Type.Unknown)
				&& !(args.get(0).type() instanceof Type.Tensor t0 && t0.distributed())) {
			throw new IrTypeError(op + " expects a DistributedTensor (window-bound), got " + typeName(args.get(0).type()));
		}
		if ((op.equals("pld.system.rank") || op.equals("pld.system.nranks")) && args.size() == 1
				&& !(args.get(0).type() instanceof Type.Unknown) && !(args.get(0).type() instanceof Type.CommCtx)) {
			throw new IrTypeError(op + " expects a CommCtx (output of pld.system.get_comm_ctx), got "
					+ typeName(args.get(0).type()));
		}
		if (!op.equals("pld.system.wait") && !op.equals("pld.system.defer_wait")) {
			return;
		}
		boolean defer = op.equals("pld.system.defer_wait");
		// the operands as pypto's wrapper passes them, positionally or by name (a list of Python constants
		// when written as one)
		Object signalArg = operand(args, kwargs, 0, "signal");
		Object offsetsArg = operand(args, kwargs, 1, "offsets");
		Object expectedArg = operand(args, kwargs, 2, "expected");
		if (!(signalArg instanceof Expr signal) || signal.type() instanceof Type.Unknown || offsetsArg == null
				|| expectedArg == null) {
			return;
		}
		if (!(signal.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new IrTypeError(op + " signal must be a DistributedTensor (window-bound), got " + typeName(signal.type()));
		}
		if (defer && t.dtype() != DType.INT32) {
			throw new IrTypeError(op + " signal dtype must be INT32, got " + t.dtype().text());
		}
		if (defer && t.shape().isEmpty()) {
			throw new IrTypeError(op + " signal rank must be at least 1, got 0");
		}
		List<?> offsets = offsetsArg instanceof Expr.MakeTuple m ? m.elements() : offsetsArg instanceof List<?> l ? l : null;
		if (offsets == null) {
			throw new IrTypeError(op + " offsets must be a tuple (MakeTuple of scalars), got " + offsetsArg.getClass()
					.getSimpleName());
		}
		if (offsets.size() != t.shape().size()) {
			throw new IrTypeError(op + " offsets rank (" + offsets.size() + ") must match target tensor rank ("
					+ t.shape().size() + ")");
		}
		if (defer) {
			for (int i = 0; i < offsets.size(); i++) {
				String bad = nonIntegral(offsets.get(i));
				if (bad != null) {
					throw new IrTypeError(op + " offset " + i + " must be an integer or index scalar, got " + bad);
				}
			}
		}
		if (defer) {
			String bad = nonIntegral(expectedArg);
			if (bad != null) {
				throw new IrTypeError(op + " expected must be an integer or index scalar, got " + bad);
			}
			long c = expectedArg instanceof Expr.ConstInt ci ? ci.value() : expectedArg instanceof Long l ? l : 0;
			if (c < 0 || c > Integer.MAX_VALUE) {
				throw new IrTypeError(op + " constant expected must be in [0, INT32_MAX], got " + c);
			}
		} else if (expectedArg instanceof Expr e && !(e.type() instanceof Type.Scalar) && !(e.type() instanceof Type.Unknown)) {
			throw new IrTypeError(op + " expected must be a scalar, got " + typeName(e.type()));
		}
		if (defer && kwargs.get("cmp") instanceof Values.EnumValue cmp && !cmp.member().equals("Ge")) {
			throw new IrTypeError(op + " only supports WaitCmp.Ge (got int " + waitCmp(cmp.member()) + ")");
		}
	}

	private static Object operand(List<Expr> args, Map<String, Object> kwargs, int index, String name) {
		return index < args.size() ? args.get(index) : kwargs.get(name);
	}

	/**
	 * The dtype a scalar operand has when it is not an integer or index one (a Python float is an FP32
	 * constant to pypto), else null; an operand of unknown type is not judged.
	 */
	private static String nonIntegral(Object v) {
		if (v instanceof Long) {
			return null;
		}
		if (v instanceof Double) {
			return DType.FP32.text();
		}
		if (v instanceof Boolean) {
			return DType.BOOL.text();
		}
		if (v instanceof Expr e) {
			Type t = e.type();
			if (t instanceof Type.Unknown || t instanceof Type.Scalar s && (s.dtype().isInteger() || s.dtype() == DType.INDEX)) {
				return null;
			}
			return t instanceof Type.Scalar s ? s.dtype().text() : typeName(t);
		}
		return null;
	}

	/**
	 * DeduceTensorAllReduceType (src/ir/op/distributed/allreduce.cpp): a window-bound FP16 or FP32 target and,
	 * when given, an INT32 window-bound signal.
	 */
	private static void allreduce(String op, List<Expr> args) {
		if (args.isEmpty() || args.get(0).type() instanceof Type.Unknown) {
			return;
		}
		Type target = args.get(0).type();
		if (!(target instanceof Type.Tensor t) || !t.distributed()) {
			throw new IrTypeError(op + " target must be a DistributedTensor (window-bound), got " + typeName(target));
		}
		if (t.dtype() != DType.FP16 && t.dtype() != DType.FP32) {
			throw new IrTypeError(op + " target dtype must be FP16 or FP32, got " + t.dtype().text());
		}
		if (args.size() == 2 && !(args.get(1).type() instanceof Type.Unknown)) {
			Type signal = args.get(1).type();
			if (!(signal instanceof Type.Tensor st) || !st.distributed()) {
				throw new IrTypeError(op + " signal must be a DistributedTensor (window-bound), got " + typeName(signal));
			}
			if (st.dtype() != DType.INT32) {
				throw new IrTypeError(op + " signal must have INT32 element type (the barrier slot is an int counter), got "
						+ "dtype " + st.dtype().text());
			}
		}
	}

	/** pypto's WaitCmp numbering (include/pypto/ir/comm.h: Eq = 0, Ge = 1). */
	private static int waitCmp(String member) {
		return member.equals("Eq") ? 0 : 1;
	}

	private static String typeName(Type t) {
		return ScalarOps.typeName(t);
	}
}
