package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's HostCollectiveRule table and checks (lower_host_tensor_collectives_pass.cpp): for each host
 * collective, the builtin it lowers to with its kwargs, attrs and argument directions, the window buffers
 * that must share a comm domain, its signal, the value {@code x = collective(...)} aliases and the
 * arguments that must be window-bound on the HOST path.
 */
public final class HostCollectiveRules {

	private HostCollectiveRules() {
	}

	/** A window buffer (by name) and the role its argument plays, for messages. */
	public record Named(String buffer, String role) {
	}

	/** One collective. */
	public record Rule(String op, int signalIndex, int aliasIndex, String[] roles, int[] hostBound) {

		public Expr signal(Expr.Call c) {
			return c.args().get(signalIndex);
		}

		public Expr aliasSource(Expr.Call c) {
			return c.args().get(aliasIndex);
		}

		/** The arguments whose public form also takes a plain Tensor, but which HOST lowering needs window-bound. */
		public void checkHostBound(Expr.Call c) {
			for (int i : hostBound) {
				Expr a = c.args().get(i);
				if (!(a.type() instanceof Type.Tensor t) || !t.distributed() || t.window() == null) {
					throw new CodegenException(op + " " + roles[i] + " must be a window-bound DistributedTensor (a view of "
							+ "an alloc_window_buffer) when called from a HOST orchestrator; a plain Tensor or an unbound "
							+ "DistributedTensor parameter is only supported on the InCore composite path", a.span());
				}
			}
		}

		/** pypto's scope_buffers: every window operand with its role. */
		public List<Named> buffers(Expr.Call c) {
			String shortName = op.substring("pld.tensor.".length());
			List<Named> out = new ArrayList<>();
			for (int i = 0; i < roles.length; i++) {
				out.add(new Named(windowBuffer(c.args().get(i), shortName + " " + roles[i]), roles[i]));
			}
			return out;
		}

		public void extraStaticCheck(Expr.Call c, int devices) {
			if (op.equals("pld.tensor.broadcast")) {
				int root = DistKwargs.intKwarg(c.kwargs(), "root", 0);
				if (root < 0 || root >= devices) {
					throw new CodegenException("pld.tensor.broadcast root (" + root + ") must be a valid rank in [0, "
							+ devices + ") for this explicit device subset", c.span());
				}
			}
		}

		/** The builtin dispatch of this collective on one device. */
		public Expr.Call builtin(Expr.Call c, Expr device) {
			Map<String, Object> kwargs = new LinkedHashMap<>();
			Map<String, Object> attrs = new LinkedHashMap<>();
			String name;
			List<ArgDirection> dirs;
			List<Expr> args = c.args();
			switch (op) {
			case "pld.tensor.allreduce" -> {
				Type.Tensor src = distributed(args.get(0), "pld.tensor.allreduce src");
				int opValue = DistKwargs.intKwarg(c.kwargs(), "op", 0);
				boolean ring = ring(c);
				kwargs.put("op", opValue);
				kwargs.put("dtype", src.dtype());
				attrs.put("op", opValue);
				attrs.put("dtype", src.dtype());
				name = ring ? "builtin.tensor.allreduce_ring" : "builtin.tensor.allreduce";
				Type.Tensor signal = distributed(args.get(1), "pld.tensor.allreduce signal");
				if (!ring) {
					int coreNum = DistKwargs.intKwarg(c.kwargs(), "core_num", 1);
					kwargs.put("core_num", coreNum);
					attrs.put("core_num", coreNum);
					BuiltinAllReduceTypes.mesh(c, signal, coreNum);
					checkOpRange(opValue, name, c);
					if (src.dtype() != DType.FP16 && src.dtype() != DType.FP32) {
						throw new CodegenException(name + " currently supports only FP16 or FP32, got " + src.dtype().text(),
								c.span());
					}
				} else {
					BuiltinAllReduceTypes.ring(c, src, signal);
					sumFp32(opValue, src.dtype(), name, c);
				}
				dirs = List.of(ArgDirection.InOut, ArgDirection.InOut);
			}
			case "pld.tensor.barrier" -> {
				name = "builtin.tensor.barrier";
				dirs = List.of(ArgDirection.InOut);
			}
			case "pld.tensor.broadcast" -> {
				Type.Tensor target = distributed(args.get(0), "pld.tensor.broadcast target");
				int root = DistKwargs.intKwarg(c.kwargs(), "root", 0);
				kwargs.put("root", root);
				kwargs.put("dtype", target.dtype());
				attrs.put("root", root);
				attrs.put("dtype", target.dtype());
				name = "builtin.tensor.broadcast";
				fp32(target.dtype(), name, c);
				dirs = List.of(ArgDirection.InOut, ArgDirection.InOut);
			}
			case "pld.tensor.reduce_scatter" -> {
				Type.Tensor target = distributed(args.get(0), "pld.tensor.reduce_scatter target");
				int opValue = DistKwargs.intKwarg(c.kwargs(), "op", 0);
				kwargs.put("op", opValue);
				kwargs.put("dtype", target.dtype());
				attrs.put("op", opValue);
				attrs.put("dtype", target.dtype());
				name = "builtin.tensor.reduce_scatter";
				sumFp32(opValue, target.dtype(), name, c);
				dirs = List.of(ArgDirection.InOut, ArgDirection.InOut);
			}
			default -> {
				// allgather, all_to_all, all_to_all_v: (input, target, signal[, send_counts, recv_counts])
				Type.Tensor target = distributed(args.get(1), op + " target");
				kwargs.put("dtype", target.dtype());
				attrs.put("dtype", target.dtype());
				name = "builtin.tensor." + op.substring("pld.tensor.".length());
				fp32(target.dtype(), name, c);
				dirs = op.equals("pld.tensor.all_to_all_v")
						? List.of(ArgDirection.Input, ArgDirection.InOut, ArgDirection.InOut, ArgDirection.Input,
								ArgDirection.InOut)
						: List.of(ArgDirection.Input, ArgDirection.InOut, ArgDirection.InOut);
			}
			}
			attrs.put("device", device);
			attrs.put(ArgDirection.ATTR, dirs);
			Type type = args.get(aliasIndex).type();
			return new Expr.Call(new Expr.Callee.Op(name), args, kwargs, attrs, type, c.span());
		}
	}

	private static final Rule[] RULES = {
			new Rule("pld.tensor.allreduce", 1, 0, new String[] { "src", "signal" }, new int[0]),
			new Rule("pld.tensor.barrier", 0, 0, new String[] { "signal" }, new int[0]),
			new Rule("pld.tensor.broadcast", 1, 0, new String[] { "target", "signal" }, new int[0]),
			new Rule("pld.tensor.reduce_scatter", 1, 0, new String[] { "target", "signal" }, new int[0]),
			new Rule("pld.tensor.allgather", 2, 1, new String[] { "input", "target", "signal" }, new int[] { 0 }),
			new Rule("pld.tensor.all_to_all", 2, 1, new String[] { "input", "target", "signal" }, new int[] { 0 }),
			new Rule("pld.tensor.all_to_all_v", 2, 1,
					new String[] { "input", "target", "signal", "send_counts", "recv_counts" }, new int[] { 0, 3 }) };

	/** The rule of a host collective call, or null. */
	public static Rule rule(Expr e) {
		if (e instanceof Expr.Call c && c.isOp()) {
			for (Rule r : RULES) {
				if (c.name().equals(r.op())) {
					return r;
				}
			}
		}
		return null;
	}

	/** pypto's GetWindowBuffer: the name of the buffer a window-bound distributed tensor is a view of. */
	static String windowBuffer(Expr e, String context) {
		if (!(e.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("LowerHostTensorCollectives: " + context + " must be DistributedTensorType",
					e.span());
		}
		if (t.window() == null) {
			throw new CodegenException("LowerHostTensorCollectives: " + context
					+ " must have materialized WindowBuffer back-references", e.span());
		}
		return t.window();
	}

	private static Type.Tensor distributed(Expr e, String what) {
		if (!(e.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("LowerHostTensorCollectives: " + what + " must be DistributedTensorType", e.span());
		}
		return t;
	}

	private static void checkOpRange(int opValue, String name, Expr.Call c) {
		if (opValue < 0 || opValue > 3) {
			throw new CodegenException(name + " op must be ReduceOp.Sum, Max, Min, or Prod (got int " + opValue + ")",
					c.span());
		}
	}

	private static void sumFp32(int opValue, DType dtype, String name, Expr.Call c) {
		if (opValue != 0) {
			throw new CodegenException(name + " op must be ReduceOp.Sum (got int " + opValue + ")", c.span());
		}
		if (dtype != DType.FP32) {
			throw new CodegenException(name + " currently supports only (op=ReduceOp.Sum, dtype=FP32); got "
					+ "(op=ReduceOp.Sum, dtype=" + dtype.text() + ")", c.span());
		}
	}

	private static void fp32(DType dtype, String name, Expr.Call c) {
		if (dtype != DType.FP32) {
			throw new CodegenException(name + " currently supports only dtype=FP32; got " + dtype.text(), c.span());
		}
	}

	/** The allreduce schedule: the mode kwarg or attr, "mesh" when absent; anything else is an error. */
	public static boolean ring(Expr.Call c) {
		Object m = c.kwargs().containsKey("mode") ? c.kwarg("mode") : c.attr("mode");
		String mode = m == null ? "mesh" : DistKwargs.stringValue(m);
		if (!"ring".equals(mode) && !"mesh".equals(mode)) {
			throw new CodegenException("pld.tensor.allreduce mode must be \"ring\" or \"mesh\", got \"" + mode + "\"",
					c.span());
		}
		return "ring".equals(mode);
	}

	/** The AIV core count of a backend (pypto's Backend::GetCoreCount(VECTOR)). */
	public static int aivCoreCount(Backend backend) {
		return backend == Backend.ASCEND_950 ? 72 : 48;
	}

	private static final int MAX_RING_RANKS = 16;

	/** pypto's CheckAllReduceSignalCapacity; worldSize is 0 and known false for a dynamic domain. */
	public static void checkAllReduceSignalCapacity(Expr.Call c, Expr signal, int worldSize, boolean known,
			Backend backend) {
		int coreNum = DistKwargs.intKwarg(c.kwargs(), "core_num", 1);
		if (ring(c)) {
			if (coreNum != 1) {
				throw new CodegenException("HOST pld.tensor.allreduce mode=\"ring\" does not support core_num > 1, got "
						+ "core_num=" + coreNum + "; use mode=\"mesh\" for a multi-core AllReduce", c.span());
			}
			if (!known) {
				return;
			}
			checkRingSignalCapacity(c, signal, worldSize);
			if (worldSize > MAX_RING_RANKS) {
				throw new CodegenException("LowerHostTensorCollectives: ring allreduce requires " + MAX_RING_RANKS
						+ " or fewer participating devices, got " + worldSize, c.span());
			}
			checkRingChunks(c, c.args().get(0), worldSize);
			return;
		}
		if (backend != null && coreNum > aivCoreCount(backend)) {
			throw new CodegenException("pld.tensor.allreduce core_num (" + coreNum + ") exceeds the backend AIV core count ("
					+ aivCoreCount(backend) + ")", c.span());
		}
		checkStaticSignalCapacity(c, signal, worldSize, coreNum, true);
	}

	/** pypto's CheckStaticSignalCapacity. */
	public static void checkStaticSignalCapacity(Expr.Call c, Expr signal, int slots, long lanes, boolean wider) {
		if (!(signal.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("LowerHostTensorCollectives: collective signal must be DistributedTensorType",
					c.span());
		}
		List<Expr> shape = t.shape();
		if (shape.size() != 1 && shape.size() != 2) {
			throw new CodegenException("LowerHostTensorCollectives: collective signal must be rank-1 [world_size] or "
					+ "rank-2 [world_size, signal_stride]", c.span());
		}
		if (shape.size() != 2 && lanes != 1) {
			throw new CodegenException("LowerHostTensorCollectives: rank-1 signal is valid only when one signal lane is "
					+ "required", c.span());
		}
		if (shape.size() == 2) {
			if (!(shape.get(1) instanceof Expr.ConstInt second)) {
				throw new CodegenException("LowerHostTensorCollectives: collective rank-2 signal shape[1] must be constant",
						c.span());
			}
			if (wider && second.value() < lanes) {
				throw new CodegenException("LowerHostTensorCollectives: collective rank-2 signal shape[1] ("
						+ second.value() + ") must be at least the required lane count (" + lanes + ")", c.span());
			}
			if (!wider && second.value() != lanes) {
				throw new CodegenException("LowerHostTensorCollectives: collective rank-2 signal shape[1] ("
						+ second.value() + ") must equal the required lane count (" + lanes + ")", c.span());
			}
		}
		if (shape.get(0) instanceof Expr.ConstInt extent && extent.value() < slots) {
			throw new CodegenException("LowerHostTensorCollectives: collective signal shape[0] (" + extent.value()
					+ ") must be at least the participating device count (" + slots + ")", c.span());
		}
	}

	private static void checkRingSignalCapacity(Expr.Call c, Expr signal, int worldSize) {
		if (!(signal.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal must be DistributedTensorType",
					c.span());
		}
		if (t.dtype() != DType.INT32) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal dtype must be INT32, got "
					+ t.dtype().text(), c.span());
		}
		if (t.shape().size() != 2) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal must be rank-2 [2*(NR-1) + 1, "
					+ "NR], got rank " + t.shape().size(), c.span());
		}
		long required = 2L * (worldSize - 1) + 1;
		Expr.ConstInt rounds = t.shape().get(0) instanceof Expr.ConstInt x ? x : null;
		Expr.ConstInt nr = t.shape().get(1) instanceof Expr.ConstInt x ? x : null;
		if (rounds != null && rounds.value() < required) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal shape[0] (" + rounds.value()
					+ ") must be at least 2*(NR-1) + 1 = " + required + " for NR = " + worldSize, c.span());
		}
		if (nr != null && nr.value() != worldSize) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal shape[1] (" + nr.value()
					+ ") must equal the participating device count (" + worldSize + ")", c.span());
		}
		if (rounds != null && nr != null && nr.value() > 0) {
			long expected = 2 * (nr.value() - 1) + 1;
			if (rounds.value() != expected) {
				throw new CodegenException("LowerHostTensorCollectives: ring allreduce signal shape[0] (" + rounds.value()
						+ ") must equal 2*(NR-1) + 1 = " + expected + " for NR = " + nr.value(), c.span());
			}
		}
	}

	private static void checkRingChunks(Expr.Call c, Expr src, int worldSize) {
		if (!(src.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce src must be DistributedTensorType",
					c.span());
		}
		if (t.shape().isEmpty()) {
			return;
		}
		long numel = 1;
		for (Expr d : t.shape()) {
			if (!(d instanceof Expr.ConstInt e)) {
				throw new CodegenException("LowerHostTensorCollectives: ring allreduce requires a statically-known src "
						+ "shape (dynamic host-ring extents are not supported; the ring schedule partitions src into NR "
						+ "compile-time chunks)", c.span());
			}
			numel *= e.value();
		}
		if (numel % worldSize != 0) {
			throw new CodegenException("LowerHostTensorCollectives: ring allreduce requires the per-rank data size (product "
					+ "of src shape = " + numel + ") to be an exact multiple of the rank count (" + worldSize
					+ "); got a remainder of " + (numel % worldSize), c.span());
		}
	}
}
