package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistCtxAliases;
import dev.ptotools.codegen.passes.util.DistCtxAliases.Plan;
import dev.ptotools.codegen.passes.util.DistCtxLineage;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.passes.util.DistMutator;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's materialize_dist_tensor_ctx (MaterializeDistTensorCtx,
 * src/ir/transforms/materialize_dist_tensor_ctx_pass.cpp): every function with distributed tensor
 * parameters gets one trailing {@code CommCtx} parameter per such parameter ({@code <base>_ctx}, In), and
 * every call of it passes the caller's context of each of those arguments: the caller's own ctx
 * parameter, or one reached through aliases, loop carries, branch merges, writebacks, views and returned
 * parameters. A HOST orchestrator has no such parameter: it binds
 * {@code <base>_ctx = pld.system.get_comm_ctx(<view>)} right before the dispatch (host codegen turns the
 * argument into {@code __comm_dN[<rank>].device_ctx}). Outside host orchestration
 * {@code pld.system.get_comm_ctx(t)} is replaced by the context it resolves to.
 */
public final class MaterializeDistTensorCtxPass implements Pass {

	@Override
	public String name() {
		return "MaterializeDistTensorCtx";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CommDomainScopesMaterialized, IrProperty.ReturnParamsExplicit);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CommDomainScopesMaterialized, IrProperty.DistTensorCtxMaterialized);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	static boolean isDist(Type t) {
		return DistCtxAliases.isDist(t);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Map<String, Plan> plans = new HashMap<>();
		for (Function f : program.functions()) {
			Plan p = plan(f);
			if (!p.distParams().isEmpty()) {
				plans.put(f.name(), p);
			}
		}
		if (plans.isEmpty()) {
			return program;
		}
		List<Function> extended = new ArrayList<>();
		for (Function f : program.functions()) {
			Plan p = plans.get(f.name());
			extended.add(p == null ? f : extend(f, p));
		}
		Program withSignatures = program.withFunctions(extended);
		List<Function> out = new ArrayList<>();
		for (Function f : withSignatures.functions()) {
			out.add(new CtxMutator(withSignatures, plans, f).run());
		}
		return withSignatures.withFunctions(out);
	}

	/** Every name a function uses: its parameters, assignment targets and variable uses. */
	static Set<String> localNames(Function f) {
		Set<String> names = new HashSet<>();
		f.params().forEach(p -> names.add(p.name()));
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a) {
					names.add(a.var().name());
				}
				super.stmt(s);
			}

			@Override
			public void use(Var v) {
				names.add(v.name());
			}
		}.stmt(f.body());
		return names;
	}

	/** pypto's MakeUniqueName: base, else base_1, base_2, ... */
	static String uniqueName(String base, Set<String> used) {
		String name = base;
		int suffix = 1;
		while (used.contains(name)) {
			name = base + "_" + suffix++;
		}
		used.add(name);
		return name;
	}

	private static Plan plan(Function f) {
		List<Integer> dist = new ArrayList<>();
		Map<Var, Var> toCtx = new LinkedHashMap<>();
		if (f.params().stream().noneMatch(p -> isDist(p.type()))) {
			return new Plan(dist, toCtx, List.of());
		}
		Set<String> used = localNames(f);
		for (int i = 0; i < f.params().size(); i++) {
			Var p = f.params().get(i);
			if (!isDist(p.type())) {
				continue;
			}
			Var ctx = new Var(uniqueName(DistCtxLineage.baseName(p.name()) + "_ctx", used), new Type.CommCtx(), p.span());
			dist.add(i);
			toCtx.put(p, ctx);
		}
		return new Plan(dist, toCtx, DistCtxLineage.returnedParamIndices(f));
	}

	private static Function extend(Function f, Plan p) {
		List<Var> params = new ArrayList<>(f.params());
		List<Direction> dirs = new ArrayList<>(f.directions());
		for (int i : p.distParams()) {
			params.add(p.paramToCtx().get(f.params().get(i)));
			dirs.add(Direction.In);
		}
		return f.withSignature(params, dirs, f.returnTypes());
	}

	/** One function's rewrite (pypto's MaterializeDistTensorCtxMutator). */
	private static final class CtxMutator extends DistMutator {
		private final Program program;
		private final Map<String, Plan> plans;
		private final Function f;
		private final Plan plan;
		private final boolean hostOrch;
		private final DistCtxAliases aliases;
		private final Set<String> localNames;
		private final List<Stmt> prefix = new ArrayList<>();
		private boolean canEmitPrefix;

		CtxMutator(Program program, Map<String, Plan> plans, Function f) {
			this.program = program;
			this.plans = plans;
			this.f = f;
			this.plan = plans.get(f.name());
			this.hostOrch = DistFunctions.isHostOrch(f);
			this.localNames = localNames(f);
			this.aliases = plan == null ? null : DistCtxAliases.collect(f.body(), program, plans, plan);
		}

		Function run() {
			Stmt body = stmt(f.body());
			if (!prefix.isEmpty()) {
				throw new CodegenException("MaterializeDistTensorCtx: generated get_comm_ctx prefix was not attached to a "
						+ "statement", f.span());
			}
			return body == f.body() ? f : f.withBody(body);
		}

		@Override
		public Stmt stmt(Stmt s) {
			if (s instanceof Stmt.Eval e) {
				prefix.clear();
				Expr x = withPrefix(e.expr());
				Stmt n = x == e.expr() ? e : new Stmt.Eval(x, e.span());
				return attachPrefix(n, e.span());
			}
			if (s instanceof Stmt.Return r) {
				prefix.clear();
				List<Expr> values = new ArrayList<>();
				boolean changed = false;
				for (Expr v : r.values()) {
					Expr n = withPrefix(v);
					changed |= n != v;
					values.add(n);
				}
				Stmt n = changed ? new Stmt.Return(values, r.span()) : r;
				return attachPrefix(n, r.span());
			}
			return super.stmt(s);
		}

		@Override
		public Stmt assign(Stmt.Assign a) {
			prefix.clear();
			Expr v = withPrefix(a.value());
			Stmt n = v == a.value() ? a : new Stmt.Assign(a.var(), v, a.span());
			return attachPrefix(n, a.span());
		}

		private Stmt attachPrefix(Stmt s, Span span) {
			if (prefix.isEmpty()) {
				return s;
			}
			List<Stmt> stmts = new ArrayList<>(prefix);
			prefix.clear();
			stmts.add(s);
			return flatten(stmts, span);
		}

		private Expr withPrefix(Expr e) {
			boolean previous = canEmitPrefix;
			canEmitPrefix = true;
			try {
				return expr(e);
			} finally {
				canEmitPrefix = previous;
			}
		}

		@Override
		public Expr call(Expr.Call c0) {
			Expr base = super.call(c0);
			if (!(base instanceof Expr.Call c)) {
				return base;
			}
			if (c.isOp("pld.system.get_comm_ctx")) {
				if (c.args().size() != 1) {
					throw new CodegenException("MaterializeDistTensorCtx: pld.system.get_comm_ctx expects exactly one "
							+ "argument", c.span());
				}
				if (hostOrch) {
					return c;
				}
				Var ctx = existingCtx(c.args().get(0));
				if (ctx == null) {
					String what = describe(c.args().get(0));
					throw new CodegenException("Cannot resolve pld.system.get_comm_ctx(" + what + ") in '" + f.name()
							+ "'. Outside host orchestration the query has no runtime representation, so the context must be "
							+ "reachable from a parameter of this function. Take " + what + " as a parameter (or return it "
							+ "from a callee that does) instead of producing it locally.", c.span());
				}
				return ctx;
			}
			String callee = c.functionName();
			Plan p = callee == null || program.function(callee) == null ? null : plans.get(callee);
			if (p == null) {
				return c;
			}
			List<Expr> args = new ArrayList<>(c.args());
			appendCtxArgs(p, c.args(), c.span(), args);
			Map<String, Object> attrs = withCtxDirections(c.attrs(), p);
			return new Expr.Call(c.callee(), args, c.kwargs(), attrs, c.type(), c.span());
		}

		@Override
		public Expr submit(Expr.Submit s0) {
			Expr base = super.submit(s0);
			if (!(base instanceof Expr.Submit s) || !(s.callee() instanceof Expr.Callee.Function fn)) {
				return base;
			}
			Plan p = program.function(fn.name()) == null ? null : plans.get(fn.name());
			if (p == null) {
				return s;
			}
			List<Expr> args = new ArrayList<>(s.args());
			appendCtxArgs(p, s.args(), s.span(), args);
			return new Expr.Submit(s.callee(), args, s.deps(), s.coreNum(), s.syncStart(), withCtxDirections(s.attrs(), p),
					s.type(), s.span());
		}

		/** arg_directions, when present, get Scalar for each appended context. */
		private static Map<String, Object> withCtxDirections(Map<String, Object> attrs, Plan p) {
			if (!(attrs.get(ArgDirection.ATTR) instanceof List<?> old)) {
				return attrs;
			}
			List<Object> dirs = new ArrayList<>(old);
			for (int i = 0; i < p.distParams().size(); i++) {
				dirs.add(ArgDirection.Scalar);
			}
			Map<String, Object> out = new LinkedHashMap<>(attrs);
			out.put(ArgDirection.ATTR, List.copyOf(dirs));
			return out;
		}

		private void appendCtxArgs(Plan p, List<Expr> oldArgs, Span span, List<Expr> newArgs) {
			for (int i : p.distParams()) {
				if (i >= oldArgs.size()) {
					throw new CodegenException("MaterializeDistTensorCtx: call-like expression does not provide "
							+ "DistributedTensor arg at callee param index " + i, span);
				}
				Expr ctx = ctxForArg(oldArgs.get(i), span);
				if (ctx == null) {
					throw new CodegenException("MaterializeDistTensorCtx: expected DistributedTensor arg at callee param "
							+ "index " + i, span);
				}
				newArgs.add(ctx);
			}
		}

		private Var existingCtx(Expr arg) {
			if (!isDist(arg.type()) || plan == null) {
				return null;
			}
			return aliases.lookup(arg);
		}

		private Expr ctxForArg(Expr arg, Span span) {
			if (!isDist(arg.type())) {
				return null;
			}
			Var existing = existingCtx(arg);
			if (existing != null) {
				return existing;
			}
			if (!hostOrch) {
				String what = describe(arg);
				throw new CodegenException("Cannot determine the communication context of DistributedTensor " + what
						+ " passed from '" + f.name() + "'. Only host orchestration can query a context at runtime; a "
						+ "chip-orchestration or device function must reach its DistributedTensor from one of its own "
						+ "parameters. Take " + what + " as a parameter of this function (or return it from a callee that "
						+ "does) instead of producing it locally.", span);
			}
			if (!canEmitPrefix) {
				throw new CodegenException("MaterializeDistTensorCtx: cannot synthesize get_comm_ctx prefix in this "
						+ "expression context", span);
			}
			String base = arg instanceof Var v ? DistCtxLineage.baseName(v.name()) : "dist";
			Var ctx = new Var(uniqueName(base + "_ctx", localNames), new Type.CommCtx(), span);
			Expr.Call query = Expr.Call.op("pld.system.get_comm_ctx", List.of(arg), Map.of(), new Type.CommCtx(), span);
			prefix.add(new Stmt.Assign(ctx, query, span));
			return ctx;
		}

		private static String describe(Expr e) {
			return e instanceof Var v ? "'" + v.name() + "'" : "a DistributedTensor value";
		}
	}
}
