package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ExprLowering;

/**
 * The nodes pypto's specializer writes into the generated source, built directly as the analyzer IR the
 * DSL parser reads (what parsing the generated text would give), each with the span of the user's code it
 * stands for.
 */
final class Synth {

	private Synth() {
	}

	static Expr.Name name(String id, Span span) {
		return new Expr.Name(id, span);
	}

	static Expr.Attribute attr(Expr base, String attr, Span span) {
		return new Expr.Attribute(base, attr, span, span);
	}

	/** {@code a.b.c} from a dotted name. */
	static Expr dotted(String dotted, Span span) {
		String[] parts = dotted.split("\\.");
		Expr e = name(parts[0], span);
		for (int i = 1; i < parts.length; i++) {
			e = attr(e, parts[i], span);
		}
		return e;
	}

	static Expr.Literal literal(Object value, Span span) {
		return new Expr.Literal(value, span);
	}

	static Expr.Call call(Expr func, List<Expr> args, List<Expr.Keyword> keywords, Span span) {
		return new Expr.Call(func, ExprLowering.dotted(func), List.copyOf(args), List.copyOf(keywords), span, span);
	}

	/** {@code pl.tensor.dim(param, k)}: how a body reads a dynamic dim. */
	static Expr tensorDim(String param, int k, Span span) {
		return call(dotted("pl.tensor.dim", span), List.of(name(param, span), literal((long) k, span)), List.of(), span);
	}

	static Expr.Subscript subscript(Expr base, List<Expr> indices, Span span) {
		return new Expr.Subscript(base, List.copyOf(indices), span);
	}

	/** A Python value pypto writes as a constant ({@code ast.Constant}). */
	static Expr constant(Object value, Span span) {
		return literal(value, span);
	}

	/**
	 * {@code pl.Tensor[[d0, d1], pl.DT(, pl.LAYOUT)]} (or {@code pld.DistributedTensor[...]}), as
	 * {@code _build_tensor_annotation} writes it: a dynamic dim is its symbol's name; no ND slot.
	 */
	static Expr tensorType(TensorMeta meta, boolean distributed, Span span) {
		List<Expr> dims = new ArrayList<>();
		for (Object d : meta.shape()) {
			dims.add(d instanceof DynDim dd ? name(dd.name(), span) : literal(d, span));
		}
		List<Expr> slots = new ArrayList<>();
		slots.add(new Expr.ListExpr(dims, span));
		slots.add(dotted("pl." + meta.dtype(), span));
		if (meta.layout() != null && !meta.layout().equals("ND")) {
			slots.add(dotted("pl." + meta.layout(), span));
		}
		return subscript(dotted(distributed ? "pld.DistributedTensor" : "pl.Tensor", span), slots, span);
	}

	/** {@code pl.Out[inner]} / {@code pl.InOut[inner]}. */
	static Expr wrap(String wrapper, Expr inner, Span span) {
		return subscript(dotted("pl." + wrapper, span), List.of(inner), span);
	}
}
