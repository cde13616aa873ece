package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.ir.Expr.Call;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The tile memory ops of pypto's DSL (pl.load, pl.store, pl.move, pl.tile.create) with their operand
 * order, keyword attributes and result types as pypto's IR builder gives them, and the bounds a load
 * and a store must keep ({@link WindowBounds}).
 */
final class TileMemoryCalls {

	private final FunctionParser p;
	private final OpCalls ops;

	TileMemoryCalls(FunctionParser p, OpCalls ops) {
		this.p = p;
		this.ops = ops;
	}

	dev.ptotools.codegen.ir.Expr load(Expr.Call c, String written, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr t = ops.ir(OpCalls.require(a, "tensor", c));
		if (t.type() instanceof Type.Tile || t.type() instanceof Type.Scalar) {
			throw OpCalls.atCall(written, new IrTypeError("The operator tile.load requires first argument to be a TensorType "
					+ "or DistributedTensorType, but got " + ScalarOps.typeName(t.type())), c);
		}
		dev.ptotools.codegen.ir.Expr.MakeTuple offs = ops.tuple(OpCalls.require(a, "offsets", c));
		dev.ptotools.codegen.ir.Expr.MakeTuple shapes = ops.tuple(OpCalls.require(a, "shapes", c));
		dev.ptotools.codegen.ir.Expr.MakeTuple valid = a.containsKey("valid_shape")
				&& !(a.get("valid_shape") instanceof Expr.Literal l && l.value() == null) ? ops.tuple(a.get("valid_shape"))
						: shapes;
		MemorySpace m = ops.memory(a.get("target_memory"), MemorySpace.Vec);
		if (m != MemorySpace.Vec && m != MemorySpace.Mat) {
			throw new CodegenException("tile operation 'load': target_memory for tile.load must be MemorySpace.Vec or "
					+ "MemorySpace.Mat, got MemorySpace." + m, c.span());
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		kw.put("target_memory", m);
		if (a.containsKey("clamp") && Boolean.TRUE.equals(p.ctx.closure.eval(a.get("clamp")))) {
			kw.put("clamp", true);
		}
		if (t.type() instanceof Type.Tensor src && src.shape().size() == shapes.elements().size()) {
			try {
				WindowBounds.read("tile.load", src.shape(), offs.elements(), valid.elements(), kw.containsKey("clamp"),
						WindowBounds.LOAD_REMEDY);
			} catch (IrTypeError e) {
				throw OpCalls.atCall(written, e, c);
			}
		}
		DType d = t.type() instanceof Type.Tensor tt ? tt.dtype() : DType.FP32;
		return Call.op("tile.load", List.of(t, offs, shapes, valid), kw,
				new Type.Tile(shapes.elements(), d, m, valid.elements()), c.span());
	}

	dev.ptotools.codegen.ir.Expr store(Expr.Call c, String written, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr tile = ops.ir(OpCalls.require(a, "tile", c));
		dev.ptotools.codegen.ir.Expr.MakeTuple offs = ops.tuple(OpCalls.require(a, "offsets", c));
		dev.ptotools.codegen.ir.Expr out = ops.ir(OpCalls.require(a, "output_tensor", c));
		if (tile.type() instanceof Type.Tensor || tile.type() instanceof Type.Scalar) {
			throw OpCalls.atCall(written, new IrTypeError("The operator tile.store requires first argument to be a TileType, "
					+ "but got " + ScalarOps.typeName(tile.type())), c);
		}
		if (out.type() instanceof Type.Tile || out.type() instanceof Type.Scalar) {
			throw OpCalls.atCall(written, new IrTypeError("The operator tile.store requires third argument to be a "
					+ "TensorType or DistributedTensorType, but got " + ScalarOps.typeName(out.type())), c);
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>(List.of(tile, offs, out));
		if (a.containsKey("shapes") && !(a.get("shapes") instanceof Expr.Literal l && l.value() == null)) {
			args.add(ops.tuple(a.get("shapes")));
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		if (a.containsKey("atomic")) {
			Object v = p.exprs.kwargValue(a.get("atomic"));
			if (!(v instanceof Long l && l == 0)) {
				kw.put("atomic", v);
			}
			if (tile.type() instanceof Type.Tile t) {
				try {
					OpTypeChecks.atomicStore("tile.store", t, v);
				} catch (IrTypeError e) {
					throw OpCalls.atCall(written, e, c);
				}
			}
		}
		// judged only where the tile's valid shape is known here (a load's or a slice's): a tile typed by
		// an annotation's TileView or by an op this compiler types loosely may move less than its shape
		if (args.size() == 3 && tile.type() instanceof Type.Tile t && t.validShape() != null && !t.validShape().isEmpty()
				&& out.type() instanceof Type.Tensor dst && t.shape().size() == dst.shape().size()) {
			try {
				WindowBounds.write("tile.store", dst.shape(), offs.elements(), t.validShape(), WindowBounds.STORE_REMEDY);
			} catch (IrTypeError e) {
				throw OpCalls.atCall(written, e, c);
			}
		}
		return Call.op("tile.store", args, kw, out.type(), c.span());
	}

	dev.ptotools.codegen.ir.Expr move(Expr.Call c, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr tile = ops.ir(OpCalls.require(a, "tile", c));
		Map<String, Object> kw = new LinkedHashMap<>();
		MemorySpace m = ops.memory(a.get("target_memory"), MemorySpace.Vec);
		kw.put("target_memory", m);
		for (String k : List.of("blayout", "slayout", "transpose")) {
			if (a.containsKey(k)) {
				kw.put(k, p.exprs.kwargValue(a.get(k)));
			}
		}
		Type t = tile.type() instanceof Type.Tile tt ? tt.withMemory(m) : Type.UNKNOWN;
		return Call.op("tile.move", List.of(tile), kw, t, c.span());
	}

	dev.ptotools.codegen.ir.Expr create(Expr.Call c, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr.MakeTuple shape = ops.tuple(OpCalls.require(a, "shape", c));
		DType d = ops.dtype(OpCalls.require(a, "dtype", c));
		MemorySpace m = ops.memory(a.get("target_memory"), MemorySpace.Vec);
		Map<String, Object> kw = new LinkedHashMap<>();
		kw.put("dtype", d);
		kw.put("target_memory", m);
		for (String k : List.of("transpose", "flat_layout")) {
			if (a.containsKey(k)) {
				kw.put(k, p.exprs.kwargValue(a.get(k)));
			}
		}
		// DeduceTileCreateType: the transposed (ZN) layout is a 2-D Mat operand layout, flat_layout a Mat one
		boolean transpose = Boolean.TRUE.equals(kw.get("transpose"));
		if (transpose && (shape.elements().size() != 2 || m != MemorySpace.Mat)) {
			throw OpCalls.atCall(c.funcText() == null ? "pl.tile.create" : p.ctx.normalize(c.funcText()),
					new IrTypeError("The operator tile.create supports transpose=true only for a 2D tile with target_memory=Mat "
							+ "(L1)"), c);
		}
		if (Boolean.TRUE.equals(kw.get("flat_layout")) && (m != MemorySpace.Mat || transpose)) {
			throw OpCalls.atCall(c.funcText() == null ? "pl.tile.create" : p.ctx.normalize(c.funcText()),
					new IrTypeError("The operator tile.create supports flat_layout=true only for target_memory=Mat (L1) without "
							+ "transpose"), c);
		}
		try {
			OpTypeChecks.check("tile.create", List.of(shape), kw);
		} catch (IrTypeError e) {
			throw OpCalls.atCall("pl.tile.create", e, c);
		}
		return Call.op("tile.create", List.of(shape), kw, new Type.Tile(shape.elements(), d, m, null), c.span());
	}
}
