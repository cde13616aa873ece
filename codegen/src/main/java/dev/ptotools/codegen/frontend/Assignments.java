package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Assignment statements (pypto's {@code parse_assignment} / {@code parse_annotated_assignment}):
 * plain and annotated bindings, tuple unpacking through {@code _tuple_tmp}, yield assignments,
 * {@code pl.submit}, window-buffer allocations and subscript writes.
 */
final class Assignments {

	private final FunctionParser p;

	Assignments(FunctionParser p) {
		this.p = p;
	}

	void assign(Stmt.Assign a, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (a.value() == null) {
			return; // a bare annotation declares nothing
		}
		if (a.targets().size() != 1) {
			throw new CodegenException("Unsupported assignment: " + Render.stmt(a), a.span());
		}
		Expr target = a.targets().get(0);
		Expr value = a.value();
		String callee = value instanceof Expr.Call c && c.funcText() != null ? p.ctx.normalize(c.funcText()) : null;
		if (callee != null && callee.endsWith(".yield_")) {
			yieldAssign(target, (Expr.Call) value, a, out);
			return;
		}
		if (callee != null && (callee.equals("pld.alloc_window_buffer") || callee.equals("pld.tensor.alloc_window_buffer"))) {
			windowBuffer(target, (Expr.Call) value, out);
			return;
		}
		if (callee != null && (callee.equals("pl.submit") || callee.equals("pl.spmd_submit"))) {
			new Submits(p).submit(target, (Expr.Call) value, a.span(), out);
			return;
		}
		if (target instanceof Expr.Name n) {
			dev.ptotools.codegen.ir.Expr x = p.exprs.expr(value);
			Type override = null;
			if (a.annotation() != null) {
				Type ann = p.types.assigned(a.annotation());
				AnnotationConsistency.check(ann, x, n.id(), a.span());
				override = override(ann, x);
				if (override != null && x instanceof dev.ptotools.codegen.ir.Expr.ConstInt c
						&& override instanceof Type.Scalar s) {
					x = new dev.ptotools.codegen.ir.Expr.ConstInt(c.value(), s.dtype(), c.span());
					override = null;
				} else if (override != null && x instanceof dev.ptotools.codegen.ir.Expr.Call call) {
					x = call.withType(override);
				}
			}
			p.assignOrLet(n.id(), x, a.span(), override, out);
			return;
		}
		if (target instanceof Expr.TupleExpr || target instanceof Expr.ListExpr) {
			List<Expr> names = target instanceof Expr.TupleExpr t ? t.elts() : ((Expr.ListExpr) target).elts();
			dev.ptotools.codegen.ir.Expr x = p.exprs.expr(value);
			unpack(names, x, a.span(), out);
			return;
		}
		if (target instanceof Expr.Subscript s) {
			new SubscriptWrites(p).write(s, value, a.span(), out);
			return;
		}
		throw new CodegenException("Unsupported assignment: " + Render.stmt(a), a.span());
	}

	/** {@code a, b = v}: {@code _tuple_tmp = v}, then each name from its element. */
	void unpack(List<Expr> names, dev.ptotools.codegen.ir.Expr value, Span span, List<dev.ptotools.codegen.ir.Stmt> out) {
		Var tmp = new Var("_tuple_tmp", value.type(), span);
		out.add(new dev.ptotools.codegen.ir.Stmt.Assign(tmp, value, span));
		for (int i = 0; i < names.size(); i++) {
			Expr n = names.get(i);
			dev.ptotools.codegen.ir.Expr item = new dev.ptotools.codegen.ir.Expr.TupleGetItem(tmp, i, span);
			if (n instanceof Expr.Name name) {
				p.assignOrLet(name.id(), item, span, null, out);
			} else if (n instanceof Expr.TupleExpr inner) {
				unpack(inner.elts(), item, span, out);
			} else {
				throw new CodegenException("Tuple unpacking target must be a variable name, got " + Render.expr(n), n.span());
			}
		}
	}

	/**
	 * The annotation's type when pypto lets it override the inferred one: the inferred type is
	 * unknown, or a scalar inferred as INDEX is annotated with another dtype.
	 */
	private static Type override(Type ann, dev.ptotools.codegen.ir.Expr x) {
		Type inferred = x.type();
		if (inferred instanceof Type.Unknown) {
			return ann;
		}
		if (inferred instanceof Type.Scalar s && s.dtype() == DType.INDEX && ann instanceof Type.Scalar a
				&& a.dtype() != DType.INDEX) {
			return ann;
		}
		return null;
	}

	/** {@code x = pl.yield_(v)} / {@code a, b = pl.yield_(...)}: a YieldStmt; the names bind after the block. */
	private void yieldAssign(Expr target, Expr.Call call, Stmt.Assign a, List<dev.ptotools.codegen.ir.Stmt> out) {
		List<dev.ptotools.codegen.ir.Expr> values = p.exprs.args(call.args());
		FunctionParser.YieldFrame f = p.currentYields();
		List<Expr> names = target instanceof Expr.TupleExpr t ? t.elts()
				: target instanceof Expr.ListExpr l ? l.elts() : List.of(target);
		if (names.size() > 1 && values.size() == 1 && values.get(0).type() instanceof Type.Tuple) {
			// (a, b) = pl.yield_(t) of a tuple value: not a DSL form pypto accepts
			throw new CodegenException("Multiple yields should use tuple unpacking assignment", call.span());
		}
		Type annotated = a.annotation() != null ? p.types.assigned(a.annotation()) : null;
		if (f != null) {
			for (int i = 0; i < names.size(); i++) {
				if (!(names.get(i) instanceof Expr.Name n)) {
					throw new CodegenException("Tuple unpacking target must be a variable name, got "
							+ Render.expr(names.get(i)), names.get(i).span());
				}
				Type t = i < values.size() ? values.get(i).type() : Type.UNKNOWN;
				f.names.putIfAbsent(n.id(), t);
				if (annotated != null && names.size() == 1) {
					f.annotated.putIfAbsent(n.id(), annotated);
				}
			}
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.Yield(values, a.span()));
	}

	/**
	 * The byte size of the shape+dtype form {@code pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)} (pypto's
	 * _compute_window_buffer_bytes): the product times the element size as one INT64 constant when every
	 * dimension is static, else a chain of products from the first dimension, times the element size.
	 */
	private dev.ptotools.codegen.ir.Expr windowBufferBytes(List<Expr> dims, DType dtype, Span span) {
		if (dims.isEmpty()) {
			throw new CodegenException("pld.tensor.alloc_window_buffer shape must be non-empty", span);
		}
		List<dev.ptotools.codegen.ir.Expr> shape = new ArrayList<>();
		for (int i = 0; i < dims.size(); i++) {
			dev.ptotools.codegen.ir.Expr d = p.exprs.expr(dims.get(i));
			if (d instanceof dev.ptotools.codegen.ir.Expr.ConstInt c && c.value() <= 0) {
				throw new CodegenException("pld.tensor.alloc_window_buffer shape dimension[" + i + "] is " + c.value()
						+ "; all dimensions must be positive", span);
			}
			shape.add(d);
		}
		long total = 1;
		boolean allStatic = true;
		for (dev.ptotools.codegen.ir.Expr d : shape) {
			if (d instanceof dev.ptotools.codegen.ir.Expr.ConstInt c) {
				total *= c.value();
			} else {
				allStatic = false;
				break;
			}
		}
		if (allStatic) {
			return new dev.ptotools.codegen.ir.Expr.ConstInt(total * dtype.bytes(), DType.INT64, span);
		}
		dev.ptotools.codegen.ir.Expr acc = int64(shape.get(0), span);
		for (int i = 1; i < shape.size(); i++) {
			acc = new dev.ptotools.codegen.ir.Expr.Binary(dev.ptotools.codegen.ir.Expr.BinaryOp.Mul, acc,
					int64(shape.get(i), span), DType.INT64, span);
		}
		return new dev.ptotools.codegen.ir.Expr.Binary(dev.ptotools.codegen.ir.Expr.BinaryOp.Mul, acc,
				new dev.ptotools.codegen.ir.Expr.ConstInt(dtype.bytes(), DType.INT64, span), DType.INT64, span);
	}

	private static dev.ptotools.codegen.ir.Expr int64(dev.ptotools.codegen.ir.Expr d, Span span) {
		return d instanceof dev.ptotools.codegen.ir.Expr.ConstInt c
				? new dev.ptotools.codegen.ir.Expr.ConstInt(c.value(), DType.INT64, span)
				: d;
	}

	/** {@code buf = pld.alloc_window_buffer(size)}: the LHS name becomes the buffer's name= (program-unique). */
	private void windowBuffer(Expr target, Expr.Call call, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (p.level != Level.HOST && (p.level == null || p.level.ordinal() < Level.HOST.ordinal()) || p.inDeviceScope()) {
			throw new CodegenException("pld.tensor.alloc_window_buffer() can only be called in HOST orchestration "
					+ "context (not inside InCore / SPMD scopes); current function level: " + p.levelText(), call.span());
		}
		if (!(target instanceof Expr.Name n)) {
			throw new CodegenException("pld.tensor.alloc_window_buffer must be assigned to a single variable name (got '"
					+ Render.expr(target) + "')", call.span());
		}
		if (p.ctx.windowBuffers.containsKey(n.id())) {
			throw new CodegenException("pld.tensor.alloc_window_buffer name '" + n.id()
					+ "' is already declared in this program", call.span());
		}
		if (call.keyword("name") != null) {
			throw new CodegenException("pld.tensor.alloc_window_buffer 'name' kwarg cannot be passed explicitly — it is "
					+ "auto-derived from the assignment LHS ('" + n.id() + "')", call.span());
		}
		p.ctx.windowBuffers.put(n.id(), call.span());
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		Map<String, Object> kwargs = new LinkedHashMap<>();
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() != null) {
				kwargs.put(k.name(), p.exprs.kwargValue(k.value()));
			}
		}
		Object dtype = kwargs.remove("dtype");
		Expr first = call.args().isEmpty() ? null : call.args().get(0);
		if (first instanceof Expr.ListExpr || first instanceof Expr.TupleExpr) {
			if (!(dtype instanceof DType d)) {
				throw new CodegenException("pld.tensor.alloc_window_buffer requires dtype= when the first argument is a "
						+ "shape (list / tuple of per-rank dimensions)", call.span());
			}
			List<Expr> dims = first instanceof Expr.ListExpr l ? l.elts() : ((Expr.TupleExpr) first).elts();
			args.add(windowBufferBytes(dims, d, call.span()));
			for (int i = 1; i < call.args().size(); i++) {
				args.add(p.exprs.expr(call.args().get(i)));
			}
		} else {
			if (dtype != null) {
				throw new CodegenException("pld.tensor.alloc_window_buffer dtype= is only valid when the first argument is "
						+ "a shape (list / tuple), not a scalar byte size", call.span());
			}
			for (Expr x : call.args()) {
				args.add(p.exprs.expr(x));
			}
		}
		kwargs.put("name", n.id());
		dev.ptotools.codegen.ir.Expr alloc = dev.ptotools.codegen.ir.Expr.Call.op("pld.tensor.alloc_window_buffer", args,
				kwargs, new Type.WindowBuffer(n.id()), call.span());
		p.let(n.id(), alloc, call.span(), null, out);
	}
}
