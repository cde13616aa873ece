package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.CallDirections;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.ProgramContext;
import dev.ptotools.codegen.types.DType;

/**
 * Lowers DSL expressions of an orchestration body the way pypto's parser builds IR: constant
 * sub-expressions fold, names resolve to locals before closure constants, subscripts of tensors become
 * {@code tensor.read} or {@code tensor.slice}, {@code pl.*} calls become ops with their keyword
 * arguments, {@code self.k(...)} becomes a call carrying its argument directions.
 */
final class ChipExprLowering {

	private final ProgramContext ctx;
	private final ChipTypes types;
	private final LoweringEnv env;
	/** DistributedTensor parameter -> its materialized CommCtx parameter. */
	private final Map<OVar, OVar> ctxOfDist;
	private final ChipOps ops;

	ChipExprLowering(ProgramContext ctx, ChipTypes types, LoweringEnv env, Map<OVar, OVar> ctxOfDist) {
		this.ctx = ctx;
		this.types = types;
		this.env = env;
		this.ctxOfDist = ctxOfDist;
		this.ops = new ChipOps(this, types);
	}

	ProgramContext ctx() {
		return ctx;
	}

	LoweringEnv env() {
		return env;
	}

	OExpr expr(Expr e) {
		if (foldable(e)) {
			OExpr c = constant(ctx.eval().eval(e), e);
			if (c != null) {
				return c;
			}
		}
		if (e instanceof Expr.Literal l) {
			OExpr c = constant(l.value(), e);
			if (c == null) {
				throw new CodegenException("unsupported literal in orchestration code", e.span());
			}
			return c;
		}
		if (e instanceof Expr.Name n) {
			return name(n);
		}
		if (e instanceof Expr.BinOp b) {
			return binary(b);
		}
		if (e instanceof Expr.UnaryOp u) {
			OExpr operand = expr(u.operand());
			return switch (u.op()) {
			case "+" -> operand;
			case "-" -> new OExpr.Unary("-", operand, dtypeOf(operand));
			case "not" -> new OExpr.Unary("not", operand, DType.BOOL);
			default -> new OExpr.Unary(u.op(), operand, dtypeOf(operand));
			};
		}
		if (e instanceof Expr.Compare c) {
			if (c.ops().size() != 1) {
				throw new CodegenException("Only simple comparisons supported", e.span());
			}
			return new OExpr.Binary(c.ops().get(0), expr(c.left()), expr(c.comparators().get(0)), DType.BOOL);
		}
		if (e instanceof Expr.BoolOp b) {
			OExpr acc = expr(b.values().get(0));
			for (int i = 1; i < b.values().size(); i++) {
				acc = new OExpr.Binary(b.op(), acc, expr(b.values().get(i)), DType.BOOL);
			}
			return acc;
		}
		if (e instanceof Expr.ListExpr l) {
			return tuple(l.elts());
		}
		if (e instanceof Expr.TupleExpr t) {
			return tuple(t.elts());
		}
		if (e instanceof Expr.Subscript s) {
			return ops.subscript(s);
		}
		if (e instanceof Expr.Call c) {
			return call(c);
		}
		throw new CodegenException("unsupported expression in orchestration code", e.span());
	}

	OExpr.MakeTuple tuple(List<Expr> elts) {
		List<OExpr> out = new ArrayList<>();
		for (Expr x : elts) {
			out.add(expr(x));
		}
		return new OExpr.MakeTuple(List.copyOf(out));
	}

	private OExpr name(Expr.Name n) {
		OVar v = env.lookup(n.id());
		if (v != null) {
			return new OExpr.Ref(v);
		}
		Object value = ctx.eval().eval(n);
		if (value instanceof Values.DynVar d) {
			return new OExpr.Ref(types.dynSymbol(d.name()));
		}
		OExpr c = constant(value, n);
		if (c == null) {
			throw new CodegenException("Undefined variable '" + n.id() + "'", n.span());
		}
		return c;
	}

	/** A Python value as a constant: int is INDEX, float is FP32 (pypto's closure conversion). */
	static OExpr constant(Object value, Expr at) {
		if (value instanceof Boolean b) {
			return new OExpr.ConstBool(b);
		}
		if (value instanceof Long l) {
			return new OExpr.ConstInt(l, DType.INDEX);
		}
		if (value instanceof Double d) {
			return new OExpr.ConstFloat(d, DType.FP32);
		}
		return null;
	}

	/** pypto's _can_fold_expr: arithmetic whose leaves are literals and closure names only. */
	private boolean foldable(Expr e) {
		if (!(e instanceof Expr.BinOp || (e instanceof Expr.UnaryOp u && (u.op().equals("-") || u.op().equals("+"))))) {
			return false;
		}
		return leavesConstant(e);
	}

	private boolean leavesConstant(Expr e) {
		if (e instanceof Expr.Literal l) {
			return l.value() instanceof Long || l.value() instanceof Double || l.value() instanceof Boolean;
		}
		if (e instanceof Expr.Name n) {
			Object v = ctx.eval().eval(n);
			return env.lookup(n.id()) == null && (v instanceof Long || v instanceof Double || v instanceof Boolean);
		}
		if (e instanceof Expr.BinOp b) {
			return leavesConstant(b.left()) && leavesConstant(b.right());
		}
		if (e instanceof Expr.UnaryOp u) {
			return (u.op().equals("-") || u.op().equals("+")) && leavesConstant(u.operand());
		}
		return false;
	}

	private OExpr binary(Expr.BinOp b) {
		OExpr l = expr(b.left());
		OExpr r = expr(b.right());
		String op = b.op();
		if (!List.of("+", "-", "*", "//", "%").contains(op)) {
			throw new CodegenException("operator '" + op + "' is not supported in orchestration code", b.span());
		}
		return new OExpr.Binary(op, l, r, promote(dtypeOf(l), dtypeOf(r)));
	}

	static DType dtypeOf(OExpr e) {
		return e.type() instanceof OType.Scalar s ? s.dtype() : DType.INDEX;
	}

	static DType promote(DType a, DType b) {
		if (a.isFloat() || b.isFloat()) {
			return a.isFloat() ? a : b;
		}
		if (a == DType.INDEX) {
			return b;
		}
		return a;
	}

	private OExpr call(Expr.Call c) {
		Callee callee = ctx.calls().of(c);
		if (callee instanceof Callee.ProgramFunction pf) {
			return functionCall(c, pf.function());
		}
		if (callee instanceof Callee.BuiltinCall b) {
			if (c.args().isEmpty() && b.builtin().name().endsWith(".get_byte")) {
				OExpr bytes = constant(ctx.eval().eval(c), c);
				if (bytes != null) {
					return bytes; // pl.FP32.get_byte() is a closure value: ConstInt
				}
			}
			return ops.builtin(c, b.builtin().name());
		}
		String text = c.funcText();
		if (("min".equals(text) || "max".equals(text)) && c.args().size() == 2) {
			OExpr l = expr(c.args().get(0));
			OExpr r = expr(c.args().get(1));
			return new OExpr.Binary(text, l, r, promote(dtypeOf(l), dtypeOf(r)));
		}
		if (("int".equals(text) || "float".equals(text) || "bool".equals(text)) && c.args().size() == 1) {
			DType to = text.equals("int") ? DType.INDEX : text.equals("float") ? DType.FP32 : DType.BOOL;
			return new OExpr.Cast(expr(c.args().get(0)), to);
		}
		throw new CodegenException("call of '" + text + "' is not supported in orchestration code", c.span());
	}

	/** {@code self.k(args)}: a task of a kernel, or of another function of the program. */
	OExpr.Call functionCall(Expr.Call c, Function callee) {
		List<CallDirections.Arg> derived = ctx.directions().of(c);
		List<OExpr> args = new ArrayList<>();
		List<CallDirections.Arg> dirs = new ArrayList<>();
		Set<OVar> dumps = new LinkedHashSet<>();
		for (int i = 0; i < c.args().size(); i++) {
			Expr a = c.args().get(i);
			if (a instanceof Expr.Call nd && ctx.calls().isBuiltin(nd, "pl.tensor.no_dep") && nd.args().size() == 1) {
				a = nd.args().get(0);
			}
			OExpr arg = expr(a);
			args.add(arg);
			dirs.add(derived != null && i < derived.size() ? derived.get(i) : CallDirections.Arg.INPUT);
			if (arg instanceof OExpr.Ref r && env.dumpTagged.contains(r.var())) {
				dumps.add(r.var());
			}
		}
		// pypto's MaterializeDistTensorCtx: a callee's DistributedTensor params gain trailing CommCtx params.
		for (int i = 0; i < callee.params().size() && i < c.args().size(); i++) {
			Param p = callee.params().get(i);
			if (p.type() instanceof TypeSpec.Tensor t && t.kind() == TypeSpec.TensorKind.DISTRIBUTED) {
				OVar ctxVar = args.get(i) instanceof OExpr.Ref r ? ctxOfDist.get(r.var()) : null;
				if (ctxVar == null) {
					throw new CodegenException("Cannot determine the communication context of DistributedTensor "
							+ "passed from '" + ctx.program().name() + "'; take it as a parameter of this function",
							c.args().get(i).span());
				}
				args.add(new OExpr.Ref(ctxVar));
				dirs.add(CallDirections.Arg.SCALAR);
			}
		}
		OType type = types.returnType(callee.returnAnnotation());
		return new OExpr.Call(callee.name(), callee, List.copyOf(args), new HashMap<>(), List.copyOf(dirs),
				java.util.Collections.unmodifiableSet(dumps), type, c.span());
	}
}
