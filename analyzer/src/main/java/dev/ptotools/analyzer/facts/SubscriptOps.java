package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;

import dev.ptotools.analyzer.ir.Expr;

/**
 * What pypto's parser makes of each subscript read in a DSL body (ast_parser.py, parse_subscript and
 * _parse_tensor_subscript / _parse_tile_subscript): on a tensor or a tile, an all-scalar subscript
 * with as many indices as the operand has dims is an element read ({@code tensor.read} /
 * {@code tile.read}, a call), and every other one (fewer indices, or a slice among them) is a
 * {@code tensor.slice} / {@code tile.slice} view; on a tuple it is an item (no call); on an array
 * {@code array.get_element} (a call). Subscripts whose operand type the analyzer cannot know (a bare
 * {@code pl.Tensor} of a jit function, whose shape comes from the sample tensors at call time) are
 * {@link Op#UNKNOWN}. A subscript assignment target ({@code y[r] = ...}) is a write, always a call
 * (_parse_subscript_assignment: tensor.assemble, tile.assemble or array.update_element).
 */
public final class SubscriptOps {

	/** The IR a subscript read becomes. */
	public enum Op {
		TENSOR_SLICE("tensor.slice"), TILE_SLICE("tile.slice"), TENSOR_READ("tensor.read"), TILE_READ("tile.read"),
		ARRAY_READ("array.get_element"), TUPLE_ITEM(null), UNKNOWN(null),
		/** Subscript writes {@code y[...] = v}: y is rebound to the call's result. */
		TENSOR_ASSEMBLE("tensor.assemble"), TILE_ASSEMBLE("tile.assemble"), ARRAY_UPDATE("array.update_element"),
		/** A subscript write to an operand of unknown type: one of the three, a call in any case. */
		WRITE(null);

		private final String irOp;

		Op(String irOp) {
			this.irOp = irOp;
		}

		/** The op id pypto builds ("tensor.read"), or null for a tuple item or an unknown operand. */
		public String irOp() {
			return irOp;
		}

		/** Whether pypto's IR has a call here other than a view. */
		public boolean isCall() {
			return this == TENSOR_READ || this == TILE_READ || this == ARRAY_READ || isWrite();
		}

		public boolean isWrite() {
			return this == TENSOR_ASSEMBLE || this == TILE_ASSEMBLE || this == ARRAY_UPDATE || this == WRITE;
		}

		/** A view (tensor.slice / tile.slice); unknown operands count as views, as before types were known. */
		public boolean isView() {
			return this == TENSOR_SLICE || this == TILE_SLICE || this == UNKNOWN;
		}
	}

	/** One classified subscript, with the rank of its operand (-1 when not known). */
	public record Info(Op op, int operandRank) {
	}

	private static final Info UNKNOWN = new Info(Op.UNKNOWN, -1);

	private final IdentityHashMap<Expr.Subscript, Info> infos;

	public SubscriptOps(IdentityHashMap<Expr.Subscript, Info> infos) {
		this.infos = infos;
	}

	public Info info(Expr.Subscript s) {
		Info i = infos.get(s);
		return i != null ? i : UNKNOWN;
	}

	public Op of(Expr.Subscript s) {
		return info(s).op();
	}
}
