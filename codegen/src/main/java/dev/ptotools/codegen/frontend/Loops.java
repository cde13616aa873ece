package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt.ForKind;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * Loops (pypto's {@code parse_for_loop} and {@code parse_while_loop}): {@code pl.range / parallel /
 * unroll / pipeline} as ForStmts, {@code init_values} as iter args whose post-loop names come from the
 * body's yield assignments, {@code pl.spmd} loops as Spmd + InCore scopes, {@code while} as WhileStmt.
 */
final class Loops {

	private static final List<String> ITERATORS = List.of("range", "parallel", "unroll", "pipeline", "while_", "spmd",
			"split_aiv");

	private final FunctionParser p;

	Loops(FunctionParser p) {
		this.p = p;
	}

	void forLoop(Stmt.For f, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (!(f.iter() instanceof Expr.Call call) || !(call.func() instanceof Expr.Attribute attr)
				|| !ITERATORS.contains(attr.attr())) {
			throw new CodegenException("For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), "
					+ "pl.while_(), pl.spmd(), or pl.split_aiv()", f.iter().span());
		}
		String it = attr.attr();
		switch (it) {
		case "spmd" -> {
			new WithScopes(p).spmdLoop(f, call, out);
			return;
		}
		case "while_" -> {
			whileAsFor(f, call, out);
			return;
		}
		case "split_aiv" -> {
			splitAiv(f, call, out);
			return;
		}
		default -> {
		}
		}
		String loopVarName;
		List<Expr> iterNames = null;
		if (f.target() instanceof Expr.Name n) {
			loopVarName = n.id();
		} else if (f.target() instanceof Expr.TupleExpr t && t.elts().size() == 2 && t.elts().get(0) instanceof Expr.Name n) {
			loopVarName = n.id();
			Expr second = t.elts().get(1);
			if (!(second instanceof Expr.TupleExpr inner)) {
				throw new CodegenException("Iter args must be a tuple", second.span());
			}
			iterNames = inner.elts();
		} else {
			throw new CodegenException("For loop target must be a simple name or: (loop_var, (iter_args...))",
					f.target().span());
		}
		if (call.args().isEmpty()) {
			throw new CodegenException("pl." + it + "() requires at least 1 argument (stop)", call.span());
		}
		dev.ptotools.codegen.ir.Expr start = null;
		dev.ptotools.codegen.ir.Expr stop;
		dev.ptotools.codegen.ir.Expr step = null;
		if (call.args().size() == 1) {
			stop = p.exprs.expr(call.args().get(0));
		} else {
			start = p.exprs.expr(call.args().get(0));
			stop = p.exprs.expr(call.args().get(1));
			if (call.args().size() >= 3) {
				step = p.exprs.expr(call.args().get(2));
			}
		}
		List<dev.ptotools.codegen.ir.Expr> inits = new ArrayList<>();
		Map<String, Object> attrs = new LinkedHashMap<>();
		Expr stage = null;
		for (Expr.Keyword k : call.keywords()) {
			switch (k.name() == null ? "" : k.name()) {
			case "init_values" -> {
				List<Expr> items = k.value() instanceof Expr.TupleExpr t ? t.elts()
						: k.value() instanceof Expr.ListExpr l ? l.elts() : null;
				if (items == null) {
					throw new CodegenException("init_values must be a list or tuple", k.value().span());
				}
				for (Expr x : items) {
					inits.add(p.exprs.expr(x));
				}
			}
			case "attrs" -> attrs.putAll(p.exprs.attrsDict(k.value()));
			case "stage" -> {
				if (!it.equals("pipeline")) {
					throw new CodegenException("stage= is only supported on pl.pipeline(), not pl." + it + "()", call.span());
				}
				stage = k.value();
			}
			default -> throw new CodegenException("Unknown keyword argument '" + k.name() + "' in pl." + it + "()",
					k.span());
			}
		}
		if (iterNames == null && !inits.isEmpty()) {
			throw new CodegenException("For loop target must be a tuple when init_values is provided", f.target().span());
		}
		if (iterNames != null && iterNames.size() != inits.size()) {
			throw new CodegenException("Mismatch: " + iterNames.size() + " iter_args but " + inits.size() + " init_values",
					f.target().span());
		}
		if (it.equals("unroll")) {
			if (!inits.isEmpty()) {
				throw new CodegenException("pl.unroll() cannot be combined with init_values", call.span());
			}
			for (dev.ptotools.codegen.ir.Expr b : new dev.ptotools.codegen.ir.Expr[] { start, stop, step }) {
				if (b != null && !(b instanceof dev.ptotools.codegen.ir.Expr.ConstInt)) {
					throw new CodegenException("pl.unroll() requires compile-time constant integer bounds", call.span());
				}
			}
			if (step instanceof dev.ptotools.codegen.ir.Expr.ConstInt c && c.value() == 0) {
				throw new CodegenException("pl.unroll() step cannot be zero", call.span());
			}
		}
		if (it.equals("pipeline")) {
			if (stage == null) {
				throw new CodegenException("pl.pipeline() requires stage= (positive integer)", call.span());
			}
			dev.ptotools.codegen.ir.Expr s = p.exprs.expr(stage);
			if (!(s instanceof dev.ptotools.codegen.ir.Expr.ConstInt c)) {
				throw new CodegenException("pl.pipeline() stage must be a compile-time constant integer", call.span());
			}
			if (c.value() < 1) {
				throw new CodegenException("pl.pipeline() stage must be >= 1, got " + c.value(), call.span());
			}
			attrs.put("pipeline_stages", c.value());
		}
		ForKind kind = switch (it) {
		case "parallel" -> ForKind.Parallel;
		case "unroll" -> ForKind.Unroll;
		case "pipeline" -> ForKind.Pipeline;
		default -> ForKind.Sequential;
		};
		Var loopVar = new Var(loopVarName, new Type.Scalar(loopVarDtype(start, stop, step)), f.span());
		if (start == null) {
			start = new dev.ptotools.codegen.ir.Expr.ConstInt(0, DType.INDEX, f.span());
		}
		if (step == null) {
			step = new dev.ptotools.codegen.ir.Expr.ConstInt(1, DType.INDEX, f.span());
		}
		p.scopes.enter();
		p.scopes.define(loopVarName, loopVar);
		List<IterArg> iterArgs = new ArrayList<>();
		if (iterNames != null) {
			for (int i = 0; i < iterNames.size(); i++) {
				if (!(iterNames.get(i) instanceof Expr.Name n)) {
					throw new CodegenException("Iter arg must be a simple name", iterNames.get(i).span());
				}
				IterArg a = new IterArg(n.id(), inits.get(i).type(), inits.get(i), f.span());
				iterArgs.add(a);
				p.scopes.define(n.id(), a);
			}
		}
		FunctionParser.YieldFrame frame = new FunctionParser.YieldFrame();
		p.pushYields(frame);
		boolean saved = p.expectsAssignedYield;
		p.expectsAssignedYield = !inits.isEmpty();
		p.pushLoop(kind);
		List<dev.ptotools.codegen.ir.Stmt> body;
		try {
			body = p.parseBody(f.body());
		} finally {
			p.popLoop();
			p.popYields();
			p.expectsAssignedYield = saved;
		}
		List<Var> returnVars = new ArrayList<>();
		List<String> names = new ArrayList<>(frame.names.keySet());
		if (!inits.isEmpty()) {
			if (!names.isEmpty()) {
				for (int i = 0; i < names.size() && i < iterArgs.size(); i++) {
					returnVars.add(new Var(names.get(i), iterArgs.get(i).type(), f.span()));
				}
			} else {
				for (IterArg a : iterArgs) {
					returnVars.add(new Var(a.name() + "_out", a.type(), f.span()));
				}
			}
		}
		p.scopes.exit(iterNames == null && names.isEmpty());
		if (!f.orelse().isEmpty()) {
			throw new CodegenException("for-else is not supported in DSL functions", f.span());
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.For(loopVar, start, stop, step, iterArgs,
				FunctionParser.block(body, f.span()), returnVars, kind, attrs, f.span()));
		if (iterNames != null && !names.isEmpty()) {
			for (int i = 0; i < names.size() && i < returnVars.size(); i++) {
				p.scopes.define(names.get(i), returnVars.get(i));
			}
		}
	}

	/** INDEX unless a constant bound has another dtype (INT64 when only INT64 bounds appear). */
	private static DType loopVarDtype(dev.ptotools.codegen.ir.Expr... bounds) {
		boolean sawIndex = false;
		boolean sawInt64 = false;
		for (dev.ptotools.codegen.ir.Expr b : bounds) {
			if (b instanceof dev.ptotools.codegen.ir.Expr.ConstInt c) {
				if (c.dtype() == DType.INDEX) {
					sawIndex = true;
				} else if (c.dtype() == DType.INT64) {
					sawInt64 = true;
				} else {
					return c.dtype();
				}
			}
		}
		return sawInt64 && !sawIndex ? DType.INT64 : DType.INDEX;
	}

	/**
	 * {@code for (a, b) in pl.while_(init_values=(x, y)):} with {@code pl.cond(c)} first: a WhileStmt whose
	 * iter args are a, b, whose condition is c (parsed with them in scope) and whose return vars are the
	 * body's yield names (else {@code <a>_out}).
	 */
	private void whileAsFor(Stmt.For f, Expr.Call call, List<dev.ptotools.codegen.ir.Stmt> out) {
		List<dev.ptotools.codegen.ir.Expr> inits = new ArrayList<>();
		for (Expr.Keyword k : call.keywords()) {
			if (!"init_values".equals(k.name())) {
				throw new CodegenException("Unknown keyword argument '" + k.name() + "' in pl.while_()", k.span());
			}
			List<Expr> items = k.value() instanceof Expr.TupleExpr t ? t.elts()
					: k.value() instanceof Expr.ListExpr l ? l.elts() : null;
			if (items == null) {
				throw new CodegenException("init_values must be a list or tuple", k.value().span());
			}
			for (Expr x : items) {
				inits.add(p.exprs.expr(x));
			}
		}
		if (!call.args().isEmpty() || inits.isEmpty()) {
			throw new CodegenException("pl.while_() requires init_values=(...) and no positional arguments", call.span());
		}
		List<Expr> names = f.target() instanceof Expr.TupleExpr t ? t.elts() : null;
		if (names == null || names.size() != inits.size()) {
			throw new CodegenException("pl.while_() target must be a tuple of " + inits.size() + " names", f.target().span());
		}
		if (f.body().isEmpty() || !(f.body().get(0) instanceof Stmt.ExprStmt first) || !(first.value() instanceof Expr.Call cond)
				|| !(cond.func() instanceof Expr.Attribute ca) || !ca.attr().equals("cond") || cond.args().size() != 1) {
			throw new CodegenException("First statement in pl.while_() body must be pl.cond(condition)",
					f.body().isEmpty() ? f.span() : f.body().get(0).span());
		}
		p.scopes.enter();
		List<IterArg> iterArgs = new ArrayList<>();
		for (int i = 0; i < names.size(); i++) {
			if (!(names.get(i) instanceof Expr.Name n)) {
				throw new CodegenException("Iter arg must be a simple name", names.get(i).span());
			}
			IterArg a = new IterArg(n.id(), inits.get(i).type(), inits.get(i), f.span());
			iterArgs.add(a);
			p.scopes.define(n.id(), a);
		}
		dev.ptotools.codegen.ir.Expr condition = p.exprs.expr(cond.args().get(0));
		FunctionParser.YieldFrame frame = new FunctionParser.YieldFrame();
		p.pushYields(frame);
		boolean saved = p.expectsAssignedYield;
		p.expectsAssignedYield = true;
		p.pushLoop(ForKind.Sequential);
		List<dev.ptotools.codegen.ir.Stmt> body;
		try {
			body = p.parseBody(f.body().subList(1, f.body().size()));
		} finally {
			p.popLoop();
			p.popYields();
			p.expectsAssignedYield = saved;
		}
		p.scopes.exit(false);
		Branches.checkBool(condition, "while", f.body().get(0).span());
		List<String> yielded = new ArrayList<>(frame.names.keySet());
		List<Var> returnVars = new ArrayList<>();
		for (int i = 0; i < iterArgs.size(); i++) {
			String rv = i < yielded.size() ? yielded.get(i) : iterArgs.get(i).name() + "_out";
			returnVars.add(new Var(rv, iterArgs.get(i).type(), f.span()));
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.While(condition, iterArgs, FunctionParser.block(body, f.span()),
				returnVars, f.span()));
		for (int i = 0; i < yielded.size() && i < returnVars.size(); i++) {
			p.scopes.define(yielded.get(i), returnVars.get(i));
		}
	}

	/**
	 * {@code for aiv in pl.split_aiv(2, mode=pl.SplitMode.X):} — an explicit AIV-split region binding the
	 * lane index; outside an InCore scope or function the region is wrapped in one.
	 */
	private void splitAiv(Stmt.For f, Expr.Call call, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (p.splitAivMode != null) {
			throw new CodegenException("nested 'for ... in pl.split_aiv(...)' is not allowed: a split_aiv body already "
					+ "represents the two AIV lanes, so it cannot contain another split_aiv loop", f.headerSpan());
		}
		if (p.incoreUserSplit != null) {
			// _reject_user_split_with_split_aiv_region: the AUTO split and explicit regions are exclusive
			throw new CodegenException("scope combines a function-level pl.split(pl.SplitMode."
					+ dev.ptotools.codegen.ir.IrPrinter.splitMember(p.incoreUserSplit) + ") (optimizations=[pl.split(...)]) with a pl.split_aiv region; these "
					+ "are mutually exclusive AIV-split mechanisms — the function-level split would be silently dropped (the "
					+ "per-region split governs the lanes)", f.span());
		}
		if (!(f.target() instanceof Expr.Name n)) {
			throw new CodegenException("for ... in pl.split_aiv(...) must use a single loop variable", f.target().span());
		}
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() != null && WithScopes.LOOP_ONLY_KEYWORDS.contains(k.name())) {
				throw new CodegenException("pl.split_aiv() loop form does not accept '" + k.name() + "='", k.value().span());
			}
			if ("optimizations".equals(k.name())) {
				throw new CodegenException("pl.split_aiv() does not accept 'optimizations=' — pl.split_aiv() IS the split "
						+ "declaration; a co-present pl.split(...) is a conflicting split spec", k.value().span());
			}
		}
		if (call.args().size() != 1) {
			throw new CodegenException("pl.split_aiv() takes exactly one positional argument (n, the AIV sub-core count)",
					call.span());
		}
		dev.ptotools.codegen.ir.Expr count = p.exprs.expr(call.args().get(0));
		if (!(count instanceof dev.ptotools.codegen.ir.Expr.ConstInt c && c.value() == 2)) {
			throw new CodegenException("pl.split_aiv(n) requires n == 2 (AIV sub-core count is hardware-fixed at 2)",
					call.args().get(0).span());
		}
		String mode = null;
		for (Expr.Keyword k : call.keywords()) {
			if (k.name() == null) {
				throw new CodegenException("pl.split_aiv() does not accept **kwargs; pass n (positional) and mode= explicitly",
						k.value().span());
			}
			if ("mode".equals(k.name())) {
				mode = WithScopes.splitMode(k.value());
			} else {
				throw new CodegenException("pl.split_aiv() got unexpected keyword argument '" + k.name() + "'", k.span());
			}
		}
		if (mode == null) {
			throw new CodegenException("pl.split_aiv() requires mode= (e.g. mode=pl.SplitMode.NONE for task-parallel, or "
					+ "pl.SplitMode.UP_DOWN / pl.SplitMode.LEFT_RIGHT for data-parallel halving)", call.span());
		}
		p.scopes.enter();
		Var lane = new Var(n.id(), new Type.Scalar(DType.INDEX), f.span());
		p.scopes.define(n.id(), lane);
		List<dev.ptotools.codegen.ir.Stmt> body = new ArrayList<>();
		body.add(new dev.ptotools.codegen.ir.Stmt.Assign(lane, dev.ptotools.codegen.ir.Expr.Call.op("tile.get_subblock_idx",
				List.of(), java.util.Map.of(), lane.type(), f.span()), f.span()));
		p.splitAivMode = mode;
		int outerDepth = p.splitAivLoopDepth;
		p.splitAivLoopDepth = p.loopDepth();
		try {
			body.addAll(p.parseBody(f.body()));
		} finally {
			p.splitAivMode = null;
			p.splitAivLoopDepth = outerDepth;
		}
		p.scopes.exit(true);
		dev.ptotools.codegen.ir.Stmt region = new dev.ptotools.codegen.ir.Stmt.SplitAivScope("", mode, 2,
				FunctionParser.block(body, f.span()), f.span());
		if (p.incoreDepth > 0 || p.functionType == dev.ptotools.analyzer.ir.FunctionType.InCore) {
			out.add(region);
		} else {
			out.add(new dev.ptotools.codegen.ir.Stmt.InCoreScope("", "None", java.util.Map.of(), region, f.span()));
		}
	}

	void whileLoop(Stmt.While w, List<dev.ptotools.codegen.ir.Stmt> out) {
		dev.ptotools.codegen.ir.Expr cond = p.exprs.expr(w.test());
		Branches.checkBool(cond, "while", w.headerSpan());
		p.scopes.enter();
		p.pushLoop(ForKind.Sequential);
		List<dev.ptotools.codegen.ir.Stmt> body;
		try {
			body = p.parseBody(w.body());
		} finally {
			p.popLoop();
		}
		p.scopes.exit(true);
		if (!w.orelse().isEmpty()) {
			throw new CodegenException("while-else is not supported in DSL functions: " + Render.expr(w.test()), w.span());
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.While(cond, List.of(), FunctionParser.block(body, w.span()), List.of(),
				w.span()));
	}
}
