package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ScriptScope;
import dev.ptotools.analyzer.facts.jit.PyWalk;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;

/**
 * The options a module's own {@code ir.compile(Program, platform=..., backend_type=...,
 * distributed_config=DistributedConfig(device_ids=[...], num_sub_workers=N))} or
 * {@code pypto.runtime.run(Program, ..., config=RunConfig(platform=..., distributed_config=...))} call gives
 * a class program (also through a name bound to what a builder returns), folded statically ({@link ScriptScope}) at the call. pypto records them in the metadata files
 * and groups ranks by the device ids, so a compile that ignored them would write other files than
 * running the module does. They fill only what the user left at its default (flags, editor settings
 * and {@code [tool.pto]} win); a value that does not fold, or calls that disagree, leave the option
 * as it was.
 */
final class ModuleCompileCalls {

	private record Call(Expr.Call call, Script.Def def) {
	}

	private final ModuleIR module;
	private final ScriptScope scope;
	private final List<Call> calls = new ArrayList<>();

	ModuleCompileCalls(ModuleIR module, ScriptScope scope) {
		this.module = module;
		this.scope = scope;
		collect(module.script().body(), null);
		for (Script.Def d : module.script().defs()) {
			if (!d.decorated()) {
				collect(d.body(), d);
			}
		}
	}

	private void collect(List<Stmt> body, Script.Def def) {
		for (Expr.Call c : PyWalk.calls(body)) {
			String q = c.funcText() == null ? null : module.imports().qualified(c.funcText());
			if ("pypto.ir.compile".equals(q) || "pypto.ir.compile.compile".equals(q) || "pypto.runtime.run".equals(q)
					|| "pypto.runtime.runner.run".equals(q)) {
				calls.add(new Call(c, def));
			}
		}
	}

	/** The options for the class program named {@code program}. */
	CompileOptions forProgram(String program, CompileOptions options) {
		CompileOptions found = null;
		for (Call c : calls) {
			if (c.call().args().isEmpty() || !(c.call().args().get(0) instanceof Expr.Name n) || !names(n, c.def(), program)) {
				continue;
			}
			CompileOptions o = apply(c, options);
			if (found != null && !found.equals(o)) {
				return options; // two calls disagree: nothing to prefer
			}
			found = o;
		}
		return found == null ? options : found;
	}

	/**
	 * Whether the first argument of a compile or run call is the class program: its name, or a name the
	 * calling function assigned the result of a builder that returns that class
	 * ({@code program = build_program(...)}; {@code run(program, ...)}).
	 */
	private boolean names(Expr.Name n, Script.Def def, String program) {
		if (n.id().equals(program)) {
			return true;
		}
		List<Stmt> body = def == null ? module.script().body() : def.body();
		for (Object o : PyWalk.walk(body)) {
			if (o instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name t
					&& t.id().equals(n.id()) && a.value() instanceof Expr.Call built && built.funcText() != null) {
				for (Script.Def d : module.script().defs()) {
					if (d.name().equals(built.funcText()) && PyWalk.firstReturnWithValue(d.body()) != null
							&& PyWalk.firstReturnWithValue(d.body()).value() instanceof Expr.Name r && r.id().equals(program)) {
						return true;
					}
				}
			}
		}
		return false;
	}

	private CompileOptions apply(Call c, CompileOptions options) {
		Map<String, Object> env = scope.at(c.def(), c.call().span().start(), Map.of());
		dev.ptotools.analyzer.facts.ConstEval eval = scope.evaluator(env);
		CompileOptions o = options;
		for (Expr.Keyword k : c.call().keywords()) {
			if (k.name() == null) {
				continue;
			}
			switch (k.name()) {
			case "platform" -> {
				if (o.platform().equals(o.backend().defaultSimPlatform()) && eval.eval(k.value()) instanceof String p) {
					o = o.withPlatform(p);
					if (o.backend() == CompileOptions.DEFAULT.backend()) {
						o = o.withBackend(p.startsWith("a5") ? Backend.ASCEND_950 : Backend.ASCEND_910B);
					}
				}
			}
			case "backend_type" -> {
				String last = k.value().toString();
				if (o.backend() == CompileOptions.DEFAULT.backend() && last.endsWith("Ascend950")) {
					o = o.withBackend(Backend.ASCEND_950);
				}
			}
			case "distributed_config" -> o = distributedConfig(k.value(), eval, o);
			case "config" -> o = runConfig(k.value(), eval, o);
			default -> {
			}
			}
		}
		return o;
	}

	/** {@code run(..., config=RunConfig(platform=..., backend_type=..., distributed_config=...))}. */
	private static CompileOptions runConfig(Expr value, dev.ptotools.analyzer.facts.ConstEval eval, CompileOptions o) {
		if (!(value instanceof Expr.Call rc) || rc.funcText() == null || !rc.funcText().endsWith("RunConfig")) {
			return o;
		}
		for (Expr.Keyword k : rc.keywords()) {
			if ("platform".equals(k.name()) && o.platform().equals(o.backend().defaultSimPlatform())
					&& eval.eval(k.value()) instanceof String p) {
				o = o.withPlatform(p);
				if (o.backend() == CompileOptions.DEFAULT.backend()) {
					o = o.withBackend(p.startsWith("a5") ? Backend.ASCEND_950 : Backend.ASCEND_910B);
				}
			} else if ("distributed_config".equals(k.name())) {
				o = distributedConfig(k.value(), eval, o);
			}
		}
		return o;
	}

	private static CompileOptions distributedConfig(Expr value, dev.ptotools.analyzer.facts.ConstEval eval,
			CompileOptions o) {
		if (!(value instanceof Expr.Call dc) || dc.funcText() == null || !dc.funcText().endsWith("DistributedConfig")) {
			return o;
		}
		for (Expr.Keyword k : dc.keywords()) {
			if ("device_ids".equals(k.name()) && o.deviceIds().equals(CompileOptions.DEFAULT.deviceIds())
					&& eval.eval(k.value()) instanceof List<?> ids && !ids.isEmpty()) {
				List<Integer> out = new ArrayList<>();
				for (Object id : ids) {
					if (!(id instanceof Long l)) {
						return o;
					}
					out.add(l.intValue());
				}
				o = o.withDeviceIds(out);
			} else if ("num_sub_workers".equals(k.name()) && o.numSubWorkers() == CompileOptions.DEFAULT.numSubWorkers()
					&& eval.eval(k.value()) instanceof Long n) {
				o = o.withNumSubWorkers(n.intValue());
			}
		}
		return o;
	}
}
