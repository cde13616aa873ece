package dev.ptotools.codegen.passes.util;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.MemorySpace;

/**
 * Which tensor ops pypto's ConvertTensorToTileOps converts inside kernels, and how their operands are
 * staged (src/ir/transforms/op_conversion_registry.cpp): the one-to-one renames, the ops with their own
 * converter, the operands that must be loaded into a given memory space first (matmul operands into
 * {@code Mat}) and the ops that load their tensor operands themselves.
 */
public final class TensorToTileOps {

	private TensorToTileOps() {
	}

	/** An operand that is staged into a memory space; transKwarg names the kwarg that transposes it. */
	public record InputReq(MemorySpace space, String transKwarg) {
	}

	/** pypto's RegisterSimple table. */
	static final Map<String, String> SIMPLE = new HashMap<>();

	/** Ops with a custom converter (pypto's RegisterCustom). */
	static final Set<String> CUSTOM = Set.of("tensor.xor", "tensor.xors", "tensor.add", "tensor.sub", "tensor.mul",
			"tensor.div", "tensor.maximum", "tensor.minimum", "tensor.scatter_update", "tile.scatter_update",
			"tensor.row_max", "tensor.row_sum", "tensor.row_min", "tensor.row_prod", "tensor.row_argmax",
			"tensor.row_argmin", "tensor.col_argmax", "tensor.col_argmin", "tensor.cmp", "tensor.aiv_shard",
			"tensor.aic_gather", "tensor.rsqrt", "tensor.transpose", "tensor.slice", "tensor.assemble", "tensor.create",
			"tensor.fillpad", "tensor.fillpad_expand", "tensor.read", "tensor.write", "tensor.expand_clone",
			"tensor.matmul", "tensor.matmul_acc", "tensor.mrgsort_format2", "tensor.gather", "tensor.gather_compare",
			"tensor.paged_gather", "tensor.create_l1", "tensor.gather_row", "tensor.scatter", "tensor.scatter_mask",
			"pld.tensor.put", "pld.tensor.get");

	/** Ops whose converter stages its tensor operands itself (no entry load of those params). */
	static final Set<String> SELF_LOADING = Set.of("tensor.slice", "tensor.assemble", "tensor.read", "tensor.write",
			"tensor.expand_clone", "tensor.gather", "tensor.paged_gather", "tensor.create_l1", "tensor.gather_row");

	/** Ops this port does not convert (their converters build multi-statement kernels of their own). */
	static final Set<String> UNSUPPORTED = Set.of("tensor.expand_clone", "tensor.paged_gather", "tensor.create_l1",
			"tensor.gather_row");

	static {
		String[] pairs = ("tensor.adds,tile.adds;tensor.subs,tile.subs;tensor.muls,tile.muls;tensor.divs,tile.divs;"
				+ "tensor.fmod,tile.fmod;tensor.fmods,tile.fmods;tensor.neg,tile.neg;tensor.abs,tile.abs;"
				+ "tensor.recip,tile.recip;tensor.exp,tile.exp;tensor.log,tile.log;tensor.sin,tile.sin;tensor.cos,tile.cos;"
				+ "tensor.sqrt,tile.sqrt;tensor.cast,tile.cast;tensor.and,tile.and;tensor.ands,tile.ands;tensor.or,tile.or;"
				+ "tensor.ors,tile.ors;tensor.not,tile.not;tensor.shl,tile.shl;tensor.shls,tile.shls;tensor.shr,tile.shr;"
				+ "tensor.shrs,tile.shrs;tensor.row_expand_mul,tile.row_expand_mul;tensor.row_expand_div,tile.row_expand_div;"
				+ "tensor.col_expand_mul,tile.col_expand_mul;tensor.col_expand_add,tile.col_expand_add;"
				+ "tensor.row_expand,tile.row_expand;tensor.row_expand_add,tile.row_expand_add;"
				+ "tensor.row_expand_sub,tile.row_expand_sub;tensor.col_expand,tile.col_expand;"
				+ "tensor.col_expand_sub,tile.col_expand_sub;tensor.col_expand_div,tile.col_expand_div;"
				+ "tensor.row_expand_max,tile.row_expand_max;tensor.row_expand_min,tile.row_expand_min;"
				+ "tensor.row_expand_expdif,tile.row_expand_expdif;tensor.col_expand_max,tile.col_expand_max;"
				+ "tensor.col_expand_min,tile.col_expand_min;tensor.col_expand_expdif,tile.col_expand_expdif;"
				+ "tensor.expands,tile.expands;tensor.reshape,tile.reshape;tensor.reinterpret_view,tile.reinterpret_view;"
				+ "tensor.concat,tile.concat;tensor.set_validshape,tile.set_validshape;tensor.full,tile.full;"
				+ "tensor.ci,tile.ci;tensor.random,tile.random;tensor.part_add,tile.part_add;tensor.part_mul,tile.part_mul;"
				+ "tensor.part_max,tile.part_max;tensor.part_min,tile.part_min;tensor.get_block_idx,tile.get_block_idx;"
				+ "tensor.get_subblock_idx,tile.get_subblock_idx;tensor.get_block_num,tile.get_block_num;"
				+ "tensor.col_sum,tile.col_sum;tensor.col_max,tile.col_max;tensor.col_min,tile.col_min;"
				+ "tensor.col_prod,tile.col_prod;tensor.sort32,tile.sort32;tensor.mrgsort_format1,tile.mrgsort_format1;"
				+ "tensor.gather_mask,tile.gather_mask;pld.tensor.remote_store,pld.tile.remote_store").split(";");
		for (String p : pairs) {
			String[] kv = p.split(",");
			SIMPLE.put(kv[0], kv[1]);
		}
	}

	/** Whether ConvertTensorToTileOps has a conversion for the op. */
	public static boolean converted(String op) {
		return SIMPLE.containsKey(op) || CUSTOM.contains(op);
	}

	/** The operands a conversion stages into a memory space first, by argument index. */
	public static Map<Integer, InputReq> inputReqs(String op) {
		switch (op) {
		case "tensor.matmul":
			return Map.of(0, new InputReq(MemorySpace.Mat, "a_trans"), 1, new InputReq(MemorySpace.Mat, "b_trans"));
		case "tensor.matmul_acc":
			return Map.of(1, new InputReq(MemorySpace.Mat, "a_trans"), 2, new InputReq(MemorySpace.Mat, "b_trans"));
		case "tensor.scatter_update", "tile.scatter_update", "tensor.scatter":
			return Map.of(0, vec(), 1, vec(), 2, vec());
		case "tensor.scatter_mask":
			return Map.of(0, vec(), 1, vec());
		case "pld.tensor.remote_store":
			return Map.of(0, vec());
		default:
			return Map.of();
		}
	}

	private static InputReq vec() {
		return new InputReq(MemorySpace.Vec, null);
	}

	/** The tile op a tensor op becomes when its converter is a rename (custom ones included here). */
	static String tileName(String op) {
		String s = SIMPLE.get(op);
		if (s != null) {
			return s;
		}
		return op.startsWith("tensor.") ? "tile." + op.substring("tensor.".length()) : op;
	}

	/** Ops that are never converted but may stay in a kernel (pypto's IsPassthroughTensorOp). */
	static boolean passthrough(String op) {
		return op.equals("tensor.dim") || op.equals("tensor.view");
	}
}
