package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.facts.jit.JitParams;
import dev.ptotools.analyzer.facts.jit.PyWalk;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Decl;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The {@code @pl.function} header pypto's specializer writes for a jit function: the decorator of its
 * kind ({@code _build_decorator}), the parameters with concrete annotations ({@code _build_params}) and the
 * return annotation it infers ({@code _infer_return_type}).
 */
final class Signatures {

	private Signatures() {
	}

	/** The decorator as the parser reads it. */
	static Decl decorator(Function f, JitKind kind) {
		Span span = f.decl().decoratorSpan() != null ? f.decl().decoratorSpan() : f.nameSpan();
		boolean noAutoScope = f.decl().keyword("auto_scope") instanceof Expr.Literal l && Boolean.FALSE.equals(l.value());
		Map<String, Expr> keywords = new LinkedHashMap<>();
		FunctionType type;
		Level level = null;
		Role role = null;
		boolean scoped = kind == JitKind.HOST || kind == JitKind.ORCHESTRATION || kind == JitKind.INLINE;
		switch (kind) {
		case HOST -> {
			type = FunctionType.Opaque;
			level = Level.HOST;
			role = Role.Orchestrator;
			keywords.put("level", Synth.dotted("pl.Level.HOST", span));
			keywords.put("role", Synth.dotted("pl.Role.Orchestrator", span));
		}
		case ORCHESTRATION -> type = FunctionType.Orchestration;
		case INLINE -> type = FunctionType.Inline;
		case OPAQUE -> type = FunctionType.Opaque;
		case INCORE -> type = FunctionType.InCore;
		default -> throw new CodegenException("@pl.jit.extern functions are not supported by this compiler yet", span);
		}
		if (kind != JitKind.HOST) {
			keywords.put("type", Synth.dotted("pl.FunctionType." + type.name(), span));
		}
		if (kind == JitKind.INCORE && f.decl().level() != null) {
			level = f.decl().level();
			keywords.put("level", Synth.dotted("pl.Level." + level.name(), span));
		}
		if (noAutoScope && scoped) {
			keywords.put("auto_scope", Synth.literal(Boolean.FALSE, span));
		}
		StringBuilder text = new StringBuilder("@pl.function(");
		List<String> parts = new ArrayList<>();
		for (Map.Entry<String, Expr> e : keywords.entrySet()) {
			parts.add(e.getKey() + "=" + dev.ptotools.analyzer.ir.Render.expr(e.getValue()));
		}
		text.append(String.join(", ", parts)).append(')');
		return new Decl(type, null, level, null, role, null, span, text.toString(), List.of(),
				java.util.Collections.unmodifiableMap(keywords));
	}

	/** The parameters with the annotations the specializer writes. */
	static List<Param> params(Function f, JitKind kind, Map<String, TensorMeta> meta, ConstEval eval) {
		List<Param> out = new ArrayList<>();
		boolean inline = kind == JitKind.INLINE;
		for (JitParams.ParamClass c : JitParams.of(f)) {
			Param p = c.param();
			Span span = p.annotation() != null ? p.annotation().span() : p.span();
			Expr ann;
			Direction dir = Direction.In;
			if (c.kind() == JitParams.Kind.TENSOR) {
				TensorMeta m = meta.get(c.name());
				if (m == null) {
					throw new CodegenException("@pl.jit: missing inferred tensor metadata for parameter '" + c.name()
							+ "'. This usually means the tensor's shape/dtype could not be statically determined. Pass the"
							+ " tensor directly as a function argument, or ensure any intermediate pl.create_tensor() used"
							+ " for this parameter has a statically inferable shape and dtype.", p.nameSpan());
				}
				ann = Synth.tensorType(m, c.distributed(), span);
				if (!inline && (c.out() || c.inout())) {
					dir = c.inout() ? Direction.InOut : Direction.Out;
				}
			} else if (c.kind() == JitParams.Kind.SCALAR) {
				ann = Synth.subscript(Synth.dotted("pl.Scalar", span), List.of(c.scalarDtype()), span);
			} else {
				ann = array(p, eval);
			}
			out.add(new Param(p.name(), ModuleLowering.typeSpec(ann), dir, p.span(), p.nameSpan(), ann));
		}
		return out;
	}

	/** {@code pl.Array[N, dt]} with its extent folded, or null (the parameter is written bare). */
	private static Expr array(Param p, ConstEval eval) {
		if (!(p.annotation() instanceof Expr.Subscript s) || s.indices().size() != 2
				|| !"Array".equals(last(ExprLowering.dotted(s.value())))) {
			return null;
		}
		Object extent = eval.eval(s.indices().get(0));
		Object dtype = eval.eval(s.indices().get(1));
		if (!(extent instanceof Long n) || !(dtype instanceof Values.DType d)) {
			return null;
		}
		Span span = s.span();
		return Synth.subscript(Synth.dotted("pl.Array", span), List.of(Synth.literal(n, span), Synth.dotted("pl." + d.name(),
				span)), span);
	}

	/** pypto's {@code _infer_return_type}, from the untransformed function. */
	static Expr returnAnnotation(Function f, Map<String, TensorMeta> meta, Map<String, Object> globals) {
		List<JitParams.ParamClass> classes = JitParams.of(f);
		Stmt.Return ret = PyWalk.firstReturnWithValue(f.body());
		Expr declared = f.returnAnnotation();
		Span span = declared != null ? declared.span() : ret != null ? ret.span() : f.nameSpan();
		if (ret != null && ret.value() instanceof Expr.TupleExpr tuple) {
			List<Expr> elts = tuple.elts();
			List<Expr> explicit = null;
			if (declared instanceof Expr.Subscript ds && isTuple(ds.value())) {
				explicit = ds.indices().size() == 1 && ds.indices().get(0) instanceof Expr.TupleExpr t ? t.elts() : ds.indices();
				if (explicit.size() != elts.size()) {
					explicit = null;
				}
			}
			boolean required = false;
			if (explicit != null) {
				for (int i = 0; i < elts.size(); i++) {
					required |= !(elts.get(i) instanceof Expr.Name n && meta.containsKey(n.id()))
							&& explicit.get(i) instanceof Expr.Subscript;
				}
			}
			List<Expr> items = new ArrayList<>();
			boolean bare = false;
			for (int i = 0; i < elts.size(); i++) {
				Expr e = elts.get(i);
				if (e instanceof Expr.Name n && meta.containsKey(n.id())) {
					items.add(Synth.tensorType(meta.get(n.id()), distributed(classes, n.id()), span));
				} else if (explicit != null && explicit.get(i) instanceof Expr.Subscript) {
					items.add(fold(explicit.get(i), globals));
				} else if (explicit != null) {
					items.add(explicit.get(i));
					bare = true;
				} else {
					return null;
				}
			}
			if (bare && !required) {
				return null;
			}
			return Synth.subscript(Synth.name("tuple", span), items, span);
		}
		if (ret != null && declared instanceof Expr.Subscript ds && "Scalar".equals(last(ExprLowering.dotted(ds.value())))
				&& (ds.value() instanceof Expr.Name || ds.value() instanceof Expr.Attribute)) {
			return fold(declared, globals);
		}
		if (ret != null && ret.value() instanceof Expr.Call) {
			return null;
		}
		if (ret != null && ret.value() instanceof Expr.Name n && meta.containsKey(n.id())) {
			return Synth.tensorType(meta.get(n.id()), distributed(classes, n.id()), span);
		}
		for (JitParams.ParamClass c : classes) {
			if (c.out()) {
				TensorMeta m = meta.get(c.name());
				return m == null ? null : Synth.tensorType(m, c.distributed(), span);
			}
		}
		return null;
	}

	private static boolean isTuple(Expr e) {
		String head = e instanceof Expr.Name || e instanceof Expr.Attribute ? last(ExprLowering.dotted(e)) : null;
		return "tuple".equals(head) || "Tuple".equals(head);
	}

	private static boolean distributed(List<JitParams.ParamClass> classes, String name) {
		for (JitParams.ParamClass c : classes) {
			if (c.name().equals(name)) {
				return c.distributed();
			}
		}
		return false;
	}

	/** Names bound to module int/float/bool values replaced by the values ({@code _fold_const_names}). */
	static Expr fold(Expr e, Map<String, Object> globals) {
		if (e instanceof Expr.Name n) {
			Object v = globals.get(n.id());
			return v instanceof Long || v instanceof Double || v instanceof Boolean ? Synth.literal(v, n.span()) : n;
		}
		if (e instanceof Expr.Subscript s) {
			return new Expr.Subscript(fold(s.value(), globals), s.indices().stream().map(x -> fold(x, globals)).toList(),
					s.span());
		}
		if (e instanceof Expr.Attribute a) {
			return new Expr.Attribute(fold(a.value(), globals), a.attr(), a.span(), a.attrSpan());
		}
		if (e instanceof Expr.ListExpr l) {
			return new Expr.ListExpr(l.elts().stream().map(x -> fold(x, globals)).toList(), l.span());
		}
		if (e instanceof Expr.TupleExpr t) {
			return new Expr.TupleExpr(t.elts().stream().map(x -> fold(x, globals)).toList(), t.span());
		}
		if (e instanceof Expr.BinOp b) {
			return new Expr.BinOp(b.op(), fold(b.left(), globals), fold(b.right(), globals), b.span());
		}
		return e;
	}

	static String last(String dotted) {
		if (dotted == null) {
			return null;
		}
		int dot = dotted.lastIndexOf('.');
		return dot < 0 ? dotted : dotted.substring(dot + 1);
	}
}
