package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.PyptoVisitor;
import dev.ptotools.codegen.passes.util.RemapMutator;
import dev.ptotools.codegen.passes.util.ScopeOutliner;
import dev.ptotools.codegen.passes.util.VarCollectors;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's OutlineClusterScopes (src/ir/transforms/outline_cluster_scopes_pass.cpp), for Opaque and
 * Orchestration functions: first every {@code with pl.cluster()} becomes a Group function
 * {@code <parent>_cluster_<k>} (a {@code pl.spmd} inside it is unwrapped; its core count moves to the
 * Group's call as {@code core_num}/{@code sync_start} attrs and the Group gets {@code spmd_unwrapped});
 * then every remaining {@code pl.spmd} scope becomes a Spmd function {@code <parent>_spmd_<k>} whose call
 * carries the launch spec. Both wrappers take their inner callees' parameter directions.
 */
public final class OutlineClusterScopesPass implements Pass {

	@Override
	public String name() {
		return "OutlineClusterScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.ClusterOutlined);
	}

	/** The launch spec of a pl.spmd unwrapped from a Group, in the Group's Var space. */
	private record LaunchSpec(Expr coreNum, boolean syncStart, Function group, Set<Var> bound) {
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Set<String> reserved = new HashSet<>();
		program.functions().forEach(f -> reserved.add(f.name()));
		List<Function> outlined = new ArrayList<>();
		List<Function> rest = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.sortedByName()) {
			if (f.type() != FunctionType.Opaque && !OutlineIncoreScopesPass.orchestrationLike(f.type())) {
				rest.add(f);
				continue;
			}
			ScopeOutliner clusters = new ScopeOutliner(f.name(), VarCollectors.Symbols.of(f.params(), f.body()),
					ScopeOutliner.Kind.Cluster, FunctionType.Group, "_cluster_", program, reserved);
			Stmt body = clusters.stmt(f.body());
			List<Function> groups = new ArrayList<>();
			Map<String, LaunchSpec> specs = new HashMap<>();
			for (Function g : clusters.outlined()) {
				LaunchSpec spec = unwrapNestedSpmd(g);
				if (spec != null) {
					g = spec.group();
					specs.put(g.name(), spec);
				}
				groups.add(g);
			}
			if (!specs.isEmpty()) {
				body = stampLaunchSpecs(body, specs);
			}
			outlined.addAll(groups);

			List<Function> lookup = new ArrayList<>(program.functions());
			lookup.addAll(groups);
			ScopeOutliner spmds = new ScopeOutliner(f.name(), VarCollectors.Symbols.of(f.params(), body),
					ScopeOutliner.Kind.Spmd, FunctionType.Spmd, "_spmd_", program.withFunctions(lookup), reserved);
			body = spmds.stmt(body);
			outlined.addAll(spmds.outlined());
			if (body != f.body()) {
				changed = true;
			}
			rest.add(f.withBody(body));
		}
		if (!changed && outlined.isEmpty()) {
			return program;
		}
		outlined.addAll(rest);
		return program.withFunctions(outlined);
	}

	/** Replaces the one pl.spmd scope of a Group body by its body; null when there is none. */
	private static LaunchSpec unwrapNestedSpmd(Function group) {
		Stmt.SpmdScope[] found = { null };
		Stmt body = new IrMutator() {
			@Override
			public Stmt scope(Stmt.Scope s) {
				if (s instanceof Stmt.SpmdScope sp) {
					if (found[0] != null) {
						throw new CodegenException("Only one pl.spmd() block is allowed per cluster scope", sp.span());
					}
					if (sp.attrs().containsKey("task_id_var") || sp.attrs().containsKey("manual_dep_edges")
							|| Boolean.TRUE.equals(sp.attrs().get("allow_early_resolve")) || sp.attrs().containsKey("predicate")) {
						throw new CodegenException("a pl.spmd() nested inside pl.cluster() cannot carry a task id, dependency "
								+ "edges, allow_early_resolve or a dispatch predicate", sp.span());
					}
					found[0] = sp;
					return stmt(sp.body());
				}
				return super.scope(s);
			}
		}.stmt(group.body());
		if (found[0] == null) {
			return null;
		}
		Function g = group.withBody(body).withAttr("spmd_unwrapped", true);
		Set<Var> bound = VarCollectors.identitySet();
		bound.addAll(g.params());
		bound.addAll(VarCollectors.DefUse.of(g.body()).defs);
		return new LaunchSpec(found[0].coreNum(), found[0].syncStart(), g, bound);
	}

	/** Puts each unwrapped Group's core count (translated params → args) on the calls of that Group. */
	private static Stmt stampLaunchSpecs(Stmt body, Map<String, LaunchSpec> specs) {
		return new IrMutator() {
			@Override
			public Expr call(Expr.Call c) {
				Expr v = super.call(c);
				if (v instanceof Expr.Call n && n.functionName() != null && specs.containsKey(n.functionName())) {
					LaunchSpec spec = specs.get(n.functionName());
					Expr.Call out = n.withAttr("core_num", toCallerScope(spec, n.args()));
					return spec.syncStart() ? out.withAttr("sync_start", true) : out;
				}
				return v;
			}

			@Override
			public Expr submit(Expr.Submit s) {
				Expr v = super.submit(s);
				if (v instanceof Expr.Submit n && specs.containsKey(n.callee().name())) {
					LaunchSpec spec = specs.get(n.callee().name());
					return new Expr.Submit(n.callee(), n.args(), n.deps(), toCallerScope(spec, n.args()), spec.syncStart(),
							n.attrs(), n.type(), n.span());
				}
				return v;
			}
		}.stmt(body);
	}

	private static Expr toCallerScope(LaunchSpec spec, List<Expr> args) {
		Map<Var, Var> paramToArg = new IdentityHashMap<>();
		List<Var> params = spec.group().params();
		for (int i = 0; i < Math.min(params.size(), args.size()); i++) {
			if (args.get(i) instanceof Var a) {
				paramToArg.put(params.get(i), a);
			}
		}
		Expr translated = paramToArg.isEmpty() ? spec.coreNum() : new RemapMutator(paramToArg).expr(spec.coreNum());
		new PyptoVisitor() {
			@Override
			protected void varUse(Var v) {
				if (spec.bound().contains(v)) {
					throw new CodegenException("pl.spmd() block count references '" + v.name()
							+ "', which is defined inside the enclosing pl.cluster(). The block count is evaluated at the "
							+ "cluster's launch site, so it must be computed before `with pl.cluster():` and captured",
							spec.group().span());
				}
			}
		}.expr(translated);
		return translated;
	}
}
