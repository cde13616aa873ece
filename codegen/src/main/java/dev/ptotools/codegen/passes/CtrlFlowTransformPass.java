package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Expr.BinaryOp;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.AutoNames;
import dev.ptotools.codegen.passes.util.DeepClone;
import dev.ptotools.codegen.passes.util.Stmts;
import dev.ptotools.codegen.passes.util.arith.Arith;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's ctrl_flow_transform (CtrlFlowTransform, src/ir/transforms/ctrl_flow_transform_pass.cpp): in
 * kernel functions (InCore, AIC, AIV) only, {@code continue} becomes the rest of the body moved into the
 * other branch, and {@code break} turns a sequential loop into a while loop over the index with a flag
 * ({@code break__tmp_vN}, loop counter {@code i__idx_vN}, phis {@code x__phi_vN}; one counter per
 * function). Orchestration code keeps its break and continue.
 */
public final class CtrlFlowTransformPass implements Pass {

	@Override
	public String name() {
		return "CtrlFlowTransform";
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.StructuredCtrlFlow);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			boolean kernel = f.type() == FunctionType.InCore || f.type() == FunctionType.AIC || f.type() == FunctionType.AIV;
			out.add(kernel ? new Lowering().function(f) : f);
		}
		return program.withFunctions(out);
	}

	// ── helpers ──────────────────────────────────────────────────────────────

	private static Stmt makeSeq(List<Stmt> stmts, Span span) {
		return stmts.size() == 1 ? stmts.get(0) : new Stmt.Seq(stmts, span);
	}

	private static List<Stmt> flat(Stmt s) {
		return s instanceof Stmt.Seq q ? q.stmts() : List.of(s);
	}

	private static String namingBase(String name) {
		return AutoNames.parse(name).base();
	}

	private static String exprNamingBase(Expr e) {
		return e instanceof Var v ? namingBase(v.name()) : "phi";
	}

	private record Scan(boolean hasBreak, boolean hasContinue) {
	}

	/** Break/continue of this loop level: nested loops are not entered. */
	private static Scan scan(Stmt s) {
		boolean[] found = new boolean[2];
		new IrVisitor() {
			@Override
			public void stmt(Stmt st) {
				if (st instanceof Stmt.Break) {
					found[0] = true;
				} else if (st instanceof Stmt.Continue) {
					found[1] = true;
				} else if (!(st instanceof Stmt.For) && !(st instanceof Stmt.While)) {
					super.stmt(st);
				}
			}
		}.stmt(s);
		return new Scan(found[0], found[1]);
	}

	/** The values to yield at an escape point: values not yet defined there fall back to the iter args. */
	private static List<Expr> resolveAtEscape(List<Expr> yieldValues, List<Stmt> pre, List<IterArg> iterArgs) {
		Set<Var> available = new HashSet<>();
		for (Stmt s : pre) {
			for (Stmt f : flat(s)) {
				if (f instanceof Stmt.Assign a) {
					available.add(a.var());
				}
			}
		}
		available.addAll(iterArgs);
		List<Expr> out = new ArrayList<>();
		for (int j = 0; j < yieldValues.size(); j++) {
			Expr v = yieldValues.get(j);
			if (!(v instanceof Var var) || available.contains(var)) {
				out.add(v);
			} else {
				out.add(j < iterArgs.size() ? iterArgs.get(j) : v);
			}
		}
		return out;
	}

	private record BodyResult(List<Stmt> stmts, List<Expr> yieldValues) {
	}

	private record Decomposed(List<Stmt> stmts, List<Expr> yieldValues, boolean hadYield) {
	}

	private static Stmt.Yield findTrailingYield(Stmt body) {
		if (body instanceof Stmt.Yield y) {
			return y;
		}
		if (body instanceof Stmt.Seq q && !q.stmts().isEmpty()) {
			return findTrailingYield(q.stmts().get(q.stmts().size() - 1));
		}
		return null;
	}

	private static Decomposed decompose(Stmt body) {
		Stmt.Yield trailing = findTrailingYield(body);
		List<Stmt> stmts = new ArrayList<>(flat(body));
		if (!stmts.isEmpty() && stmts.get(stmts.size() - 1) instanceof Stmt.Yield) {
			stmts.remove(stmts.size() - 1);
		}
		return new Decomposed(stmts, trailing != null ? trailing.values() : List.of(), trailing != null);
	}

	private static Stmt finalBody(BodyResult r, boolean hadYield, Span span) {
		List<Stmt> stmts = new ArrayList<>(r.stmts());
		if (!r.yieldValues().isEmpty() || hadYield) {
			stmts.add(new Stmt.Yield(r.yieldValues(), span));
		}
		return makeSeq(stmts, span);
	}

	private static boolean endsWith(Stmt branch, Class<? extends Stmt> kind) {
		List<Stmt> f = flat(branch);
		return !f.isEmpty() && kind.isInstance(f.get(f.size() - 1));
	}

	private static List<Stmt> normalPath(Stmt.If i, boolean escapeInThen, List<Stmt> post) {
		List<Stmt> out = new ArrayList<>();
		if (escapeInThen) {
			if (i.orelse() != null) {
				out.addAll(flat(i.orelse()));
			}
		} else {
			out.addAll(flat(i.then()));
		}
		out.addAll(post);
		return out;
	}

	private static List<Expr> asExprs(List<Var> vars) {
		return new ArrayList<>(vars);
	}

	private static final class Lowering extends IrMutator {
		private int counter;

		private String fresh(String base, String role) {
			return AutoNames.build(base, role, counter++);
		}

		private List<Var> phis(List<Expr> values, Span span) {
			List<Var> out = new ArrayList<>();
			for (Expr v : values) {
				out.add(new Var(AutoNames.build(exprNamingBase(v), "phi", counter++), v.type(), span));
			}
			return out;
		}

		@Override
		public Stmt seq(Stmt.Seq q) {
			List<Stmt> out = new ArrayList<>();
			boolean changed = false;
			for (Stmt s : q.stmts()) {
				Stmt n = stmt(s);
				changed |= n != s;
				out.add(n);
			}
			return changed ? Stmts.flatten(out, q.span()) : q;
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			Stmt body = stmt(f.body());
			if (f.kind() != Stmt.ForKind.Sequential) {
				return body == f.body() ? f : f.withBody(body);
			}
			Scan sc = scan(body);
			if (!sc.hasBreak() && !sc.hasContinue()) {
				return body == f.body() ? f : f.withBody(body);
			}
			if (sc.hasBreak()) {
				return forWithBreak(f, body, sc.hasContinue());
			}
			Decomposed d = decompose(body);
			BodyResult r = forContinue(d.stmts(), f.iterArgs(), d.yieldValues(), f.span());
			return f.withBody(finalBody(r, d.hadYield(), f.span()));
		}

		@Override
		public Stmt whileStmt(Stmt.While w) {
			Stmt body = stmt(w.body());
			Scan sc = scan(body);
			if (!sc.hasBreak() && !sc.hasContinue()) {
				return body == w.body() ? w : new Stmt.While(w.condition(), w.iterArgs(), body, w.returnVars(), w.span());
			}
			Span span = w.span();
			if (sc.hasBreak()) {
				Var brk = new Var(fresh("break", "tmp"), new Type.Scalar(DType.BOOL), span);
				Expr cond = new Expr.Binary(BinaryOp.And, w.condition(), Arith.not(brk), DType.BOOL, span);
				Decomposed d = decompose(body);
				BodyResult r = breakAndContinue(d, w.iterArgs(), brk, sc.hasContinue(), span);
				Stmt fb = finalBody(r, d.hadYield(), span);
				return new Stmt.Seq(List.of(new Stmt.Assign(brk, new Expr.ConstBool(false, span), span),
						new Stmt.While(cond, w.iterArgs(), fb, w.returnVars(), span)), span);
			}
			Decomposed d = decompose(body);
			BodyResult r = forContinue(d.stmts(), w.iterArgs(), d.yieldValues(), span);
			return new Stmt.While(w.condition(), w.iterArgs(), finalBody(r, d.hadYield(), span), w.returnVars(), span);
		}

		private BodyResult breakAndContinue(Decomposed d, List<IterArg> iterArgs, Var brk, boolean alsoContinue, Span span) {
			if (alsoContinue) {
				BodyResult c = forContinue(d.stmts(), iterArgs, d.yieldValues(), span);
				return forBreak(c.stmts(), brk, iterArgs, c.yieldValues(), span);
			}
			return forBreak(d.stmts(), brk, iterArgs, d.yieldValues(), span);
		}

		private Stmt forWithBreak(Stmt.For f, Stmt body, boolean alsoContinue) {
			Span span = f.span();
			Var brk = new Var(fresh("break", "tmp"), new Type.Scalar(DType.BOOL), span);
			Var lv = new Var(fresh(namingBase(f.loopVar().name()), "idx"), f.loopVar().type(), span);
			Stmt substituted = DeepClone.substitute(body, Map.of(f.loopVar(), lv));
			boolean negStep = f.step() instanceof Expr.ConstInt c && c.value() < 0;
			Expr bound = Arith.make(negStep ? BinaryOp.Gt : BinaryOp.Lt, lv, f.stop(), span);
			Expr cond = new Expr.Binary(BinaryOp.And, bound, Arith.not(brk), DType.BOOL, span);
			Decomposed d = decompose(substituted);
			BodyResult r = breakAndContinue(d, f.iterArgs(), brk, alsoContinue, span);
			List<Stmt> stmts = new ArrayList<>(r.stmts());
			List<Expr> trailing = new ArrayList<>();
			for (Expr v : r.yieldValues()) {
				if (v instanceof Var) {
					trailing.add(v);
					continue;
				}
				Var tmp = new Var(fresh("yield", "tmp"), v.type(), span);
				stmts.add(new Stmt.Assign(tmp, v, span));
				trailing.add(tmp);
			}
			Stmt adv = new Stmt.Assign(lv, Arith.make(BinaryOp.Add, lv, f.step(), span), span);
			stmts.add(new Stmt.If(Arith.not(brk), adv, null, List.of(), span));
			if (!trailing.isEmpty() || d.hadYield()) {
				stmts.add(new Stmt.Yield(trailing, span));
			}
			Stmt fb = makeSeq(stmts, span);
			return new Stmt.Seq(List.of(new Stmt.Assign(lv, f.start(), span),
					new Stmt.Assign(brk, new Expr.ConstBool(false, span), span),
					new Stmt.While(cond, f.iterArgs(), fb, f.returnVars(), span)), span);
		}

		private BodyResult escapeIf(Stmt.If i, boolean escapeInThen, List<Stmt> pre, List<Stmt> escapePrefix,
				List<Expr> escapeValues, BodyResult normal, Span span) {
			List<Var> phiVars = phis(escapeValues, span);
			List<Stmt> escapeParts = new ArrayList<>(escapePrefix);
			escapeParts.add(new Stmt.Yield(escapeValues, i.span()));
			Stmt escapeBody = makeSeq(escapeParts, i.span());
			List<Stmt> normalParts = new ArrayList<>(normal.stmts());
			normalParts.add(new Stmt.Yield(normal.yieldValues(), i.span()));
			Stmt normalBody = makeSeq(normalParts, i.span());
			Stmt.If n = new Stmt.If(i.condition(), escapeInThen ? escapeBody : normalBody,
					escapeInThen ? normalBody : escapeBody, phiVars, i.span());
			List<Stmt> out = new ArrayList<>(pre);
			out.add(n);
			return new BodyResult(out, asExprs(phiVars));
		}

		private BodyResult forContinue(List<Stmt> stmts, List<IterArg> iterArgs, List<Expr> yieldValues, Span span) {
			for (int i = 0; i < stmts.size(); i++) {
				Stmt s = stmts.get(i);
				if (s instanceof Stmt.Continue) {
					List<Stmt> pre = new ArrayList<>(stmts.subList(0, i));
					return new BodyResult(pre, resolveAtEscape(yieldValues, pre, iterArgs));
				}
				if (!(s instanceof Stmt.If ifs)) {
					continue;
				}
				boolean thenHas = scan(ifs.then()).hasContinue();
				boolean elseHas = ifs.orelse() != null && scan(ifs.orelse()).hasContinue();
				if (!thenHas && !elseHas) {
					continue;
				}
				boolean thenEnds = endsWith(ifs.then(), Stmt.Continue.class);
				boolean elseEnds = ifs.orelse() != null && endsWith(ifs.orelse(), Stmt.Continue.class);
				List<Stmt> pre = new ArrayList<>(stmts.subList(0, i));
				List<Stmt> post = new ArrayList<>(stmts.subList(i + 1, stmts.size()));
				if (thenEnds || elseEnds) {
					boolean escapeInThen = thenEnds;
					List<Expr> continueValues = resolveAtEscape(yieldValues, pre, iterArgs);
					List<Stmt> normal = normalPath(ifs, escapeInThen, post);
					List<Stmt> scope = new ArrayList<>(pre);
					scope.addAll(normal);
					List<Expr> normalValues = resolveAtEscape(yieldValues, scope, iterArgs);
					BodyResult normalResult = forContinue(normal, iterArgs, normalValues, span);
					if (yieldValues.isEmpty()) {
						Stmt empty = new Stmt.Seq(List.of(), ifs.span());
						Stmt filled = makeSeq(normalResult.stmts(), ifs.span());
						pre.add(new Stmt.If(ifs.condition(), escapeInThen ? empty : filled, escapeInThen ? filled : empty,
								List.of(), ifs.span()));
						return new BodyResult(pre, List.of());
					}
					return escapeIf(ifs, escapeInThen, pre, List.of(), continueValues, normalResult, span);
				}
				BodyResult thenR = branch(ifs.then(), thenHas, pre, iterArgs, yieldValues, span, null);
				BodyResult elseR;
				if (ifs.orelse() != null) {
					elseR = branch(ifs.orelse(), elseHas, pre, iterArgs, yieldValues, span, null);
				} else {
					elseR = new BodyResult(new ArrayList<>(), resolveAtEscape(yieldValues, pre, iterArgs));
				}
				if (!thenR.yieldValues().isEmpty() || !elseR.yieldValues().isEmpty()) {
					List<Expr> ref = thenR.yieldValues().isEmpty() ? elseR.yieldValues() : thenR.yieldValues();
					List<Var> phiVars = phis(ref, span);
					List<Stmt> t = new ArrayList<>(thenR.stmts());
					t.add(new Stmt.Yield(thenR.yieldValues(), span));
					List<Stmt> e = new ArrayList<>(elseR.stmts());
					e.add(new Stmt.Yield(elseR.yieldValues(), span));
					pre.add(new Stmt.If(ifs.condition(), makeSeq(t, span), makeSeq(e, span), phiVars, ifs.span()));
					if (!post.isEmpty()) {
						BodyResult pr = forContinue(post, iterArgs, asExprs(phiVars), span);
						pre.addAll(pr.stmts());
						return new BodyResult(pre, pr.yieldValues());
					}
					return new BodyResult(pre, asExprs(phiVars));
				}
				Stmt newThen = makeSeq(thenR.stmts(), span);
				Stmt newElse = ifs.orelse() != null ? makeSeq(elseR.stmts(), span) : null;
				pre.add(new Stmt.If(ifs.condition(), newThen, newElse, List.of(), ifs.span()));
				if (!post.isEmpty()) {
					BodyResult pr = forContinue(post, iterArgs, yieldValues, span);
					pre.addAll(pr.stmts());
					return new BodyResult(pre, pr.yieldValues());
				}
				return new BodyResult(pre, yieldValues);
			}
			return new BodyResult(new ArrayList<>(stmts), yieldValues);
		}

		/** One branch of an if that holds a break/continue somewhere inside (brk null: continue). */
		private BodyResult branch(Stmt b, boolean hasTarget, List<Stmt> pre, List<IterArg> iterArgs,
				List<Expr> yieldValues, Span span, Var brk) {
			Decomposed d = decompose(b);
			List<Expr> vals = d.hadYield() ? d.yieldValues() : yieldValues;
			if (!hasTarget) {
				return new BodyResult(new ArrayList<>(d.stmts()), resolveAtEscape(vals, pre, iterArgs));
			}
			return brk == null ? forContinue(d.stmts(), iterArgs, vals, span) : forBreak(d.stmts(), brk, iterArgs, vals, span);
		}

		private List<Expr> breakValues(List<Expr> yieldValues, List<Stmt> pre, List<IterArg> iterArgs) {
			List<Expr> r = new ArrayList<>(resolveAtEscape(yieldValues, pre, iterArgs));
			for (int j = 0; j < r.size() && j < iterArgs.size(); j++) {
				if (!(r.get(j) instanceof Var)) {
					r.set(j, iterArgs.get(j));
				}
			}
			return r;
		}

		private BodyResult forBreak(List<Stmt> stmts, Var brk, List<IterArg> iterArgs, List<Expr> yieldValues, Span span) {
			for (int i = 0; i < stmts.size(); i++) {
				Stmt s = stmts.get(i);
				if (s instanceof Stmt.Break) {
					List<Stmt> pre = new ArrayList<>(stmts.subList(0, i));
					pre.add(new Stmt.Assign(brk, new Expr.ConstBool(true, span), span));
					return new BodyResult(pre, breakValues(yieldValues, pre, iterArgs));
				}
				if (!(s instanceof Stmt.If ifs)) {
					continue;
				}
				boolean thenHas = scan(ifs.then()).hasBreak();
				boolean elseHas = ifs.orelse() != null && scan(ifs.orelse()).hasBreak();
				if (!thenHas && !elseHas) {
					continue;
				}
				boolean thenEnds = endsWith(ifs.then(), Stmt.Break.class);
				boolean elseEnds = ifs.orelse() != null && endsWith(ifs.orelse(), Stmt.Break.class);
				List<Stmt> pre = new ArrayList<>(stmts.subList(0, i));
				List<Stmt> post = new ArrayList<>(stmts.subList(i + 1, stmts.size()));
				if (thenEnds || elseEnds) {
					boolean escapeInThen = thenEnds;
					List<Expr> bv = breakValues(yieldValues, pre, iterArgs);
					List<Stmt> normal = normalPath(ifs, escapeInThen, post);
					List<Stmt> scope = new ArrayList<>(pre);
					scope.addAll(normal);
					List<Expr> normalValues = resolveAtEscape(yieldValues, scope, iterArgs);
					BodyResult normalResult = forBreak(normal, brk, iterArgs, normalValues, span);
					return escapeIf(ifs, escapeInThen, pre, List.of(new Stmt.Assign(brk, new Expr.ConstBool(true, span), span)),
							bv, normalResult, span);
				}
				BodyResult thenR = branch(ifs.then(), thenHas, pre, iterArgs, yieldValues, span, brk);
				BodyResult elseR;
				if (ifs.orelse() != null) {
					elseR = branch(ifs.orelse(), elseHas, pre, iterArgs, yieldValues, span, brk);
				} else {
					elseR = new BodyResult(new ArrayList<>(), resolveAtEscape(yieldValues, pre, iterArgs));
				}
				List<Expr> ref = thenR.yieldValues().isEmpty() ? elseR.yieldValues() : thenR.yieldValues();
				List<Var> phiVars = phis(ref, span);
				List<Stmt> t = new ArrayList<>(thenR.stmts());
				if (!thenR.yieldValues().isEmpty()) {
					t.add(new Stmt.Yield(thenR.yieldValues(), span));
				}
				List<Stmt> e = new ArrayList<>(elseR.stmts());
				if (!elseR.yieldValues().isEmpty()) {
					e.add(new Stmt.Yield(elseR.yieldValues(), span));
				}
				pre.add(new Stmt.If(ifs.condition(), makeSeq(t, span), makeSeq(e, span), phiVars, ifs.span()));
				if (!post.isEmpty()) {
					BodyResult pr = forBreak(post, brk, iterArgs, asExprs(phiVars), span);
					List<Stmt> guarded = new ArrayList<>(pr.stmts());
					guarded.add(new Stmt.Yield(pr.yieldValues(), span));
					Stmt guardElse = new Stmt.Yield(asExprs(phiVars), span);
					List<Var> guardPhis = phis(asExprs(phiVars), span);
					pre.add(new Stmt.If(Arith.not(brk), makeSeq(guarded, span), guardElse, guardPhis, span));
					return new BodyResult(pre, asExprs(guardPhis));
				}
				return new BodyResult(pre, asExprs(phiVars));
			}
			return new BodyResult(new ArrayList<>(stmts), yieldValues);
		}
	}
}
