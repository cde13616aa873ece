package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.ProgramContext;

/**
 * Lowers one CHIP orchestrator from the source IR to the orchestration IR pypto's codegen reads: the
 * parser's statements (tuple unpacking through {@code _tuple_tmp}, loop carries, branch phis), then
 * MaterializeRuntimeScopes (the body, every loop body and every branch in an AUTO scope) and
 * MaterializeDistTensorCtx (a CommCtx parameter {@code <p>_ctx} per DistributedTensor parameter).
 */
final class ChipLowering {

	/** The lowered function: its parameters (CommCtx ones last), their declared directions and body. */
	record Lowered(List<OVar> params, List<Direction> directions, OStmt body, List<String> warnings) {
	}

	private final ProgramContext ctx;
	private final Function f;
	private final ChipTypes types;
	private final LoweringEnv env = new LoweringEnv();
	private final Map<OVar, OVar> ctxOfDist = new IdentityHashMap<>();
	private final List<String> warnings = new ArrayList<>();
	private final ChipExprLowering exprs;
	/** The names the innermost loop or if binds with pl.yield_, in yield order; null outside one. */
	private List<String> yieldNames;

	ChipLowering(ProgramContext ctx, Function f) {
		this.ctx = ctx;
		this.f = f;
		this.types = new ChipTypes(ctx.eval());
		this.exprs = new ChipExprLowering(ctx, types, env, ctxOfDist);
	}

	Lowered lower() {
		List<OVar> params = new ArrayList<>();
		List<Direction> dirs = new ArrayList<>();
		List<OVar> ctxParams = new ArrayList<>();
		for (Param p : f.params()) {
			if (p.type() == null) {
				throw new CodegenException("parameter '" + p.name() + "' needs a type annotation", p.span());
			}
			OVar v = new OVar(p.name(), types.of(p.type(), null));
			env.define(p.name(), v);
			params.add(v);
			dirs.add(p.direction());
			if (v.type instanceof OType.Tensor t && t.distributed()) {
				OVar c = new OVar(uniqueCtxName(p.name()), new OType.CommCtx());
				ctxOfDist.put(v, c);
				ctxParams.add(c);
			}
		}
		for (OVar c : ctxParams) {
			params.add(c);
			dirs.add(Direction.In);
		}
		OStmt body = new OStmt.Scope(false, new OStmt.Seq(block(f.body())));
		return new Lowered(List.copyOf(params), List.copyOf(dirs), body, List.copyOf(warnings));
	}

	private String uniqueCtxName(String base) {
		String name = base + "_ctx";
		for (int i = 1; f.param(name) != null; i++) {
			name = base + "_ctx_" + i;
		}
		return name;
	}

	private List<OStmt> block(List<Stmt> body) {
		List<OStmt> out = new ArrayList<>();
		for (Stmt s : body) {
			stmt(s, out);
		}
		return out;
	}

	private void stmt(Stmt s, List<OStmt> out) {
		if (s instanceof Stmt.Assign a) {
			assign(a, out);
		} else if (s instanceof Stmt.AugAssign a && a.target() instanceof Expr.Name n) {
			OVar v = env.lookup(n.id());
			if (v == null) {
				throw new CodegenException("Undefined variable '" + n.id() + "'", n.span());
			}
			OExpr value = exprs.expr(new Expr.BinOp(a.op(), n, a.value(), a.span()));
			out.add(new OStmt.Assign(v, value, a.span()));
		} else if (s instanceof Stmt.ExprStmt e) {
			exprStmt(e, out);
		} else if (s instanceof Stmt.For loop) {
			out.add(forLoop(loop));
		} else if (s instanceof Stmt.If i) {
			out.add(ifStmt(i));
		} else if (s instanceof Stmt.Return r) {
			returnStmt(r, out);
		} else if (s instanceof Stmt.Pass) {
			return;
		} else if (s instanceof Stmt.With w) {
			throw new CodegenException("with-scopes (pl.manual_scope, pl.at, pl.spmd...) are not supported by the "
					+ "orchestration codegen yet", w.headerSpan());
		} else if (s instanceof Stmt.While w) {
			throw new CodegenException("while loops are not supported by the orchestration codegen yet",
					w.headerSpan());
		} else {
			throw new CodegenException("statement not supported in an orchestration function", s.span());
		}
	}

	private void assign(Stmt.Assign a, List<OStmt> out) {
		if (a.value() == null) {
			return; // a bare annotation declares nothing pypto emits
		}
		if (a.targets().size() != 1) {
			throw new CodegenException("Unsupported assignment: chained targets", a.span());
		}
		Expr target = a.targets().get(0);
		if (isYield(a.value())) {
			yieldStmt(target, (Expr.Call) a.value(), out);
			return;
		}
		if (target instanceof Expr.Name n) {
			OExpr value = exprs.expr(a.value());
			if (value instanceof OExpr.Ref r && r.var().kind == OVar.Kind.DYN_DIM
					&& a.value() instanceof Expr.Call) {
				env.define(n.id(), r.var()); // pl.tensor.dim folded onto the symbol: bind the name to it
				return;
			}
			OType type = value.type();
			if (type instanceof OType.None && a.annotation() != null) {
				type = types.of(ModuleLowering.typeSpec(a.annotation()), a.annotation());
			}
			OVar v = env.assignOrLet(n.id(), type);
			out.add(new OStmt.Assign(v, value, a.span()));
			return;
		}
		if (target instanceof Expr.TupleExpr t) {
			OExpr value = exprs.expr(a.value());
			if (!(value.type() instanceof OType.Tuple tt)) {
				throw new CodegenException("tuple unpacking needs a call returning a tuple", a.span());
			}
			OVar tmp = new OVar("_tuple_tmp", value.type());
			out.add(new OStmt.Assign(tmp, value, a.span()));
			for (int i = 0; i < t.elts().size(); i++) {
				if (!(t.elts().get(i) instanceof Expr.Name n)) {
					throw new CodegenException("Tuple unpacking target must be a variable name", t.elts().get(i).span());
				}
				OType et = i < tt.elements().size() ? tt.elements().get(i) : new OType.None();
				OVar v = env.assignOrLet(n.id(), et);
				out.add(new OStmt.Assign(v, new OExpr.TupleGet(tmp, i, et), a.span()));
			}
			return;
		}
		if (target instanceof Expr.Subscript sub && sub.value() instanceof Expr.Name n) {
			// dst[i:j, k] = src desugars to dst = pl.assemble(dst, src, offsets)
			List<Expr> offsets = new ArrayList<>();
			for (Expr i : sub.indices()) {
				offsets.add(i instanceof Expr.SliceExpr sl
						? (sl.lower() == null ? new Expr.Literal(0L, sl.span()) : sl.lower()) : i);
			}
			OExpr target0 = exprs.expr(n);
			OExpr value = new OExpr.Call("tensor.assemble", null,
					List.of(target0, exprs.expr(a.value()), exprs.tuple(offsets)), Map.of(), List.of(),
					java.util.Set.of(), target0.type(), a.span());
			out.add(new OStmt.Assign(((OExpr.Ref) target0).var(), value, a.span()));
			return;
		}
		throw new CodegenException("Unsupported assignment", a.span());
	}

	private void exprStmt(Stmt.ExprStmt e, List<OStmt> out) {
		if (e.value() instanceof Expr.Literal) {
			return; // a docstring or a string comment
		}
		if (e.value() instanceof Expr.Call c) {
			if (isYield(c)) {
				yieldStmt(null, c, out);
				return;
			}
			if (ctx.calls().isBuiltin(c, "pl.tensor.dump_tag")) {
				if (c.args().size() == 1 && c.args().get(0) instanceof Expr.Name n && env.lookup(n.id()) != null) {
					env.dumpTagged.add(env.lookup(n.id()));
				}
				return;
			}
			String text = ctx.calls().normalize(c.funcText());
			if ("pl.static_assert".equals(text) || "pl.static_print".equals(text) || "pl.func_attr".equals(text)) {
				return;
			}
		}
		out.add(new OStmt.Eval(exprs.expr(e.value()), e.span()));
	}

	private void returnStmt(Stmt.Return r, List<OStmt> out) {
		List<OExpr> values = new ArrayList<>();
		if (r.value() != null) {
			List<Expr> items = r.value() instanceof Expr.TupleExpr t ? t.elts() : List.of(r.value());
			for (Expr item : items) {
				OExpr v = exprs.expr(item);
				if (v instanceof OExpr.Call call && call.callee() != null && isTask(call.callee())) {
					// `return self.k(...)`: pypto's FlattenCallExpr binds the task to a temporary first, so the
					// task runs (a bare ReturnStmt would emit nothing). Calls of other functions stay as pypto's
					// raw codegen has them: a return emits nothing.
					OVar tmp = new OVar("ret", v.type());
					out.add(new OStmt.Assign(tmp, v, r.span()));
					v = new OExpr.Ref(tmp);
				} else if (v instanceof OExpr.Call call && call.callee() != null) {
					warnings.add("'" + f.name() + "' returns a call of " + ctx.info(call.callee()).type() + " function '"
							+ call.callee().name() + "': like pypto's orchestration codegen this emits no task (pypto "
							+ "splits InCore kernels into AIC/AIV ones before codegen; declare the kernel with "
							+ "type=pl.FunctionType.AIV or AIC to dispatch it)");
				}
				values.add(v);
			}
		}
		out.add(new OStmt.Return(List.copyOf(values), r.span()));
	}

	private boolean isTask(Function callee) {
		dev.ptotools.analyzer.ir.FunctionType t = ctx.info(callee).type();
		return t == dev.ptotools.analyzer.ir.FunctionType.AIC || t == dev.ptotools.analyzer.ir.FunctionType.AIV
				|| t == dev.ptotools.analyzer.ir.FunctionType.Group;
	}

	private void yieldStmt(Expr target, Expr.Call c, List<OStmt> out) {
		if (yieldNames == null) {
			throw new CodegenException("pl.yield_ outside a loop or if", c.span());
		}
		List<OExpr> values = new ArrayList<>();
		for (Expr a : c.args()) {
			values.add(exprs.expr(a));
		}
		if (target != null && yieldNames.isEmpty()) {
			if (target instanceof Expr.TupleExpr t) {
				for (Expr x : t.elts()) {
					yieldNames.add(((Expr.Name) x).id());
				}
			} else if (target instanceof Expr.Name n) {
				yieldNames.add(n.id());
			}
		}
		out.add(new OStmt.Yield(List.copyOf(values), c.span()));
	}

	private boolean isYield(Expr e) {
		return e instanceof Expr.Call c && ctx.calls().isBuiltin(c, "pl.yield_");
	}

	private OStmt forLoop(Stmt.For loop) {
		if (!(loop.iter() instanceof Expr.Call it)) {
			throw new CodegenException("For loop must use pl.range() or pl.parallel()", loop.headerSpan());
		}
		String kind = ctx.calls().normalize(it.funcText());
		if (!"pl.range".equals(kind) && !"pl.parallel".equals(kind)) {
			throw new CodegenException((kind == null ? "this iterator" : kind)
					+ " is not supported by the orchestration codegen (use pl.range or pl.parallel)", loop.headerSpan());
		}
		List<Expr> bounds = it.args();
		if (bounds.isEmpty()) {
			throw new CodegenException(kind + "() requires at least 1 argument (stop)", it.span());
		}
		OExpr start = bounds.size() >= 2 ? exprs.expr(bounds.get(0)) : zero();
		OExpr stop = exprs.expr(bounds.size() >= 2 ? bounds.get(1) : bounds.get(0));
		OExpr step = bounds.size() >= 3 ? exprs.expr(bounds.get(2)) : one();
		List<Expr> inits = new ArrayList<>();
		Expr.Keyword iv = it.keyword("init_values");
		if (iv != null) {
			inits.addAll(iv.value() instanceof Expr.TupleExpr t ? t.elts()
					: iv.value() instanceof Expr.ListExpr l ? l.elts() : List.of(iv.value()));
		}
		Expr loopTarget = loop.target();
		List<String> carried = new ArrayList<>();
		if (loopTarget instanceof Expr.TupleExpr t && t.elts().size() == 2 && t.elts().get(1) instanceof Expr.TupleExpr c) {
			loopTarget = t.elts().get(0);
			for (Expr x : c.elts()) {
				carried.add(((Expr.Name) x).id());
			}
		}
		if (!(loopTarget instanceof Expr.Name lv)) {
			throw new CodegenException("Loop variable must be a simple name", loop.target().span());
		}
		if (carried.size() != inits.size()) {
			throw new CodegenException("Mismatch: " + carried.size() + " iter_args but " + inits.size()
					+ " init_values", loop.headerSpan());
		}
		List<OExpr> initValues = new ArrayList<>();
		for (Expr e : inits) {
			initValues.add(exprs.expr(e));
		}
		OVar loopVar = new OVar(lv.id(), new OType.Scalar(dev.ptotools.codegen.types.DType.INDEX));
		env.define(lv.id(), loopVar);
		boolean scoped = !carried.isEmpty() || hasYield(loop.body());
		List<String> savedYields = yieldNames;
		yieldNames = new ArrayList<>();
		if (scoped) {
			env.push();
		}
		List<OVar> iterArgs = new ArrayList<>();
		for (int i = 0; i < carried.size(); i++) {
			OVar a = new OVar(carried.get(i), initValues.get(i).type(), OVar.Kind.ITER_ARG, initValues.get(i));
			env.define(carried.get(i), a);
			iterArgs.add(a);
		}
		List<OStmt> body = block(loop.body());
		List<String> names = yieldNames;
		yieldNames = savedYields;
		if (scoped) {
			env.pop();
		}
		if (!carried.isEmpty() && names.size() != carried.size()) {
			throw new CodegenException("Loop with init_values requires an assignment-form pl.yield_(...) — the LHS "
					+ "supplies the post-loop binding name.", loop.headerSpan());
		}
		List<OVar> returnVars = new ArrayList<>();
		for (int i = 0; i < names.size() && i < iterArgs.size(); i++) {
			OVar rv = new OVar(names.get(i), iterArgs.get(i).type);
			env.define(names.get(i), rv);
			returnVars.add(rv);
		}
		return new OStmt.For(loopVar, start, stop, step, "pl.parallel".equals(kind), List.copyOf(iterArgs),
				List.copyOf(returnVars), new OStmt.Scope(false, new OStmt.Seq(body)), loop.span());
	}

	private OStmt ifStmt(Stmt.If i) {
		OExpr cond = exprs.expr(i.test());
		boolean scoped = hasYield(i.body()) || hasYield(i.orelse());
		List<String> savedYields = yieldNames;
		yieldNames = new ArrayList<>();
		if (scoped) {
			env.push();
		}
		List<OStmt> then = block(i.body());
		if (scoped) {
			env.pop();
		}
		List<String> names = yieldNames;
		List<OStmt> orelse = null;
		if (!i.orelse().isEmpty()) {
			yieldNames = new ArrayList<>();
			if (scoped) {
				env.push();
			}
			orelse = block(i.orelse());
			if (scoped) {
				env.pop();
			}
			if (names.isEmpty()) {
				names = yieldNames;
			}
		}
		yieldNames = savedYields;
		List<OVar> phis = new ArrayList<>();
		OStmt.Yield first = lastYield(then);
		for (int k = 0; k < names.size(); k++) {
			OType t = first != null && k < first.values().size() ? first.values().get(k).type() : new OType.None();
			OVar phi = new OVar(names.get(k), t);
			env.define(names.get(k), phi);
			phis.add(phi);
		}
		OStmt thenScope = new OStmt.Scope(false, new OStmt.Seq(then));
		OStmt elseScope = orelse == null ? null : new OStmt.Scope(false, new OStmt.Seq(orelse));
		return new OStmt.If(cond, thenScope, elseScope, List.copyOf(phis), i.span());
	}

	private static OStmt.Yield lastYield(List<OStmt> body) {
		for (int k = body.size() - 1; k >= 0; k--) {
			if (body.get(k) instanceof OStmt.Yield y) {
				return y;
			}
		}
		return null;
	}

	private boolean hasYield(List<Stmt> body) {
		for (Stmt s : body) {
			if (s instanceof Stmt.Assign a && isYield(a.value())) {
				return true;
			}
			if (s instanceof Stmt.ExprStmt e && isYield(e.value())) {
				return true;
			}
		}
		return false;
	}

	private static OExpr zero() {
		return new OExpr.ConstInt(0, dev.ptotools.codegen.types.DType.INDEX);
	}

	private static OExpr one() {
		return new OExpr.ConstInt(1, dev.ptotools.codegen.types.DType.INDEX);
	}

}
