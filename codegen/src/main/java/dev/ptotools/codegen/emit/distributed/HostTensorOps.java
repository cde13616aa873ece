package dev.ptotools.codegen.emit.distributed;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The tensor ops a host orchestrator runs itself (pypto's registered HOST lowerings): {@code tensor.create}
 * as a shared-memory {@code torch.zeros}, {@code tensor.slice} as a dict read with Python indexing, and
 * {@code tensor.assemble} as a dict write into the target's window.
 */
final class HostTensorOps {

	private HostTensorOps() {
	}

	/** A shape as a Python tuple of constants and dynamic-dim names (pypto's EmitTensorCreate shape). */
	static String shape(List<Expr> dims, Span at, String what) {
		StringBuilder b = new StringBuilder("(");
		for (int i = 0; i < dims.size(); i++) {
			b.append(i > 0 ? ", " : "");
			Expr d = dims.get(i);
			if (d instanceof Expr.ConstInt c) {
				b.append(c.value());
			} else if (d instanceof Var v) {
				b.append(DistributedCodegen.sanitize(v.name()));
			} else {
				throw new CodegenException(what + i + " must be ConstInt or Var", at);
			}
		}
		if (dims.size() == 1) {
			b.append(',');
		}
		return b.append(')').toString();
	}

	static void create(DistributedCodegen cg, Expr.Call c) {
		if (!(c.type() instanceof Type.Tensor t)) {
			throw new CodegenException("tensor.create must return TensorType", c.span());
		}
		if (cg.target.isEmpty()) {
			throw new CodegenException("tensor.create must have an assignment target", c.span());
		}
		String shape;
		try {
			shape = shape(t.shape(), c.span(), "tensor.create shape dim ");
		} catch (CodegenException e) {
			throw new CodegenException(e.getMessage() + " (dynamic shape variable), got expression of unsupported kind",
					c.span());
		}
		cg.out.line("tensors[\"" + cg.target + "\"] = torch.zeros(" + shape + ", dtype=torch."
				+ HostExprs.torchDtype(t.dtype(), c.span()) + ").share_memory_()");
	}

	private static List<Expr> tuple(Expr e, String message, Span at) {
		if (!(e instanceof Expr.MakeTuple t)) {
			throw new CodegenException(message, at);
		}
		return t.elements();
	}

	/** {@code tensors["lhs"] = tensors["x"][r, 0:16, o:o + 32]}: a dropped axis is its offset. */
	static void slice(DistributedCodegen cg, Expr.Call c) {
		int n = c.args().size();
		if (n < 3 || n > 5) {
			throw new CodegenException("tensor.slice host_orch codegen expects 3-5 args (input, shape, offset[, "
					+ "valid_shape[, drop_dims]]), got " + n, c.span());
		}
		String input = cg.exprs.render(c.args().get(0));
		if (input.isEmpty()) {
			throw new CodegenException("tensor.slice input must resolve to a non-empty Python name", c.span());
		}
		String lhs = cg.target;
		if (lhs.isEmpty()) {
			throw new CodegenException("tensor.slice in host_orch must have an assignment target", c.span());
		}
		List<Expr> shape = tuple(c.args().get(1), "tensor.slice shape must be MakeTuple", c.span());
		List<Expr> offset = tuple(c.args().get(2), "tensor.slice offset must be MakeTuple", c.span());
		if (shape.size() != offset.size()) {
			throw new CodegenException("tensor.slice offset/shape rank mismatch", c.span());
		}
		Set<Long> drop = new TreeSet<>();
		if (n == 5) {
			for (Expr e : tuple(c.args().get(4), "tensor.slice drop_dims must be MakeTuple", c.span())) {
				if (!(e instanceof Expr.ConstInt ci)) {
					throw new CodegenException("tensor.slice drop_dims entries must be ConstInt", c.span());
				}
				drop.add(ci.value());
			}
		}
		StringBuilder idx = new StringBuilder();
		for (int i = 0; i < shape.size(); i++) {
			idx.append(i > 0 ? ", " : "");
			String off = cg.exprs.render(offset.get(i));
			if (drop.contains((long) i)) {
				idx.append(off);
			} else {
				String ext = cg.exprs.render(shape.get(i));
				idx.append(range(offset.get(i), off, ext));
			}
		}
		cg.out.line("tensors[\"" + lhs + "\"] = tensors[\"" + input + "\"][" + idx + "]");
	}

	private static String range(Expr offset, String off, String ext) {
		return offset instanceof Expr.ConstInt z && z.value() == 0 ? "0:" + ext : off + ":" + off + " + " + ext;
	}

	private static boolean atomicNone(Object v) {
		if (v == null) {
			return true;
		}
		if (v instanceof Values.EnumValue e) {
			return e.member().equals("None_") || e.member().equals("None") || e.member().equals("kNone");
		}
		Integer i = dev.ptotools.codegen.passes.util.DistKwargs.intValue(v);
		return i != null && i == 0;
	}

	/** {@code tensors["t"][o:o + e, ...] = tensors["s"][0:e, ...]}, then lhs aliases the target. */
	static void assemble(DistributedCodegen cg, Expr.Call c) {
		if (c.args().size() != 3) {
			throw new CodegenException("Internal error: tensor.assemble expects 3 arguments", c.span());
		}
		if (!atomicNone(c.kwarg("atomic"))) {
			throw new CodegenException("pl.assemble(..., atomic=pl.AtomicType.Add) is only supported inside an InCore "
					+ "function. This assemble is in a HOST orchestrator, where no atomic-combine instruction exists. Move "
					+ "it inside the scope that produces the partial result.", c.span());
		}
		String targetName = cg.exprs.render(c.args().get(0));
		String sourceName = cg.exprs.render(c.args().get(1));
		String lhs = cg.target;
		if (targetName.isEmpty()) {
			throw new CodegenException("tensor.assemble target must resolve to a non-empty Python name", c.span());
		}
		if (sourceName.isEmpty()) {
			throw new CodegenException("tensor.assemble source must resolve to a non-empty Python name", c.span());
		}
		if (lhs.isEmpty()) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator must have an assignment target", c.span());
		}
		if (!(c.args().get(0).type() instanceof Type.Tensor target) || target.distributed()
				|| !(c.args().get(1).type() instanceof Type.Tensor source) || source.distributed()) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator currently supports plain Tensor operands only",
					c.span());
		}
		List<Expr> offset = tuple(c.args().get(2), "Internal error: tensor.assemble offset must be MakeTuple", c.span());
		int tr = target.shape().size();
		int sr = source.shape().size();
		if (offset.size() != tr) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator requires offset rank to match target rank",
					c.span());
		}
		if (sr > tr) {
			throw new CodegenException("tensor.assemble in a HOST orchestrator requires source rank not to exceed target "
					+ "rank", c.span());
		}
		List<Expr> valid = validShape(source);
		int lead = tr - sr;
		StringBuilder dst = new StringBuilder();
		for (int i = 0; i < tr; i++) {
			dst.append(i > 0 ? ", " : "");
			String off = cg.exprs.render(offset.get(i));
			String ext = i < lead ? "1" : cg.exprs.render(valid.get(i - lead));
			dst.append(range(offset.get(i), off, ext));
		}
		StringBuilder src = new StringBuilder();
		for (int i = 0; i < sr; i++) {
			src.append(i > 0 ? ", " : "").append("0:").append(cg.exprs.render(valid.get(i)));
		}
		String sourceExpr = "tensors[\"" + sourceName + "\"]" + (sr > 0 ? "[" + src + "]" : "");
		cg.out.line("tensors[\"" + targetName + "\"][" + dst + "] = " + sourceExpr);
		if (!lhs.equals(targetName)) {
			cg.out.line("tensors[\"" + lhs + "\"] = tensors[\"" + targetName + "\"]");
		}
	}

	/** pypto's GetValidShape: the view's valid shape when set, else the shape. */
	private static List<Expr> validShape(Type.Tensor t) {
		if (t.view() != null && t.view().validShape() != null && !t.view().validShape().isEmpty()) {
			return t.view().validShape();
		}
		return t.shape();
	}
}
