package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ScriptScope;
import dev.ptotools.analyzer.facts.jit.PyWalk;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.CompileOptions;

/**
 * The options a module's own {@code ir.compile(Program, platform=..., backend_type=...,
 * distributed_config=DistributedConfig(device_ids=[...], num_sub_workers=N))} or
 * {@code pypto.runtime.run(Program, ..., config=RunConfig(platform=..., distributed_config=...))} call gives
 * a class program (also through a name bound to what a builder returns), folded statically
 * ({@link ScriptScope}) at the call and applied by {@link RunConfigOptions}. pypto records them in the
 * metadata files and groups ranks by the device ids, so a compile that ignored them would write other
 * files than running the module does; a value that does not fold, or calls that disagree, leave the
 * option as it was.
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
		return forProgram(program, options, (at, what) -> {
		});
	}

	/**
	 * The options for the class program named {@code program}; {@code overridden} hears, for the call whose
	 * options are taken, what in it the settings override.
	 */
	CompileOptions forProgram(String program, CompileOptions options,
			java.util.function.BiConsumer<dev.ptotools.analyzer.ir.Span, List<String>> overridden) {
		Call taken = null;
		CompileOptions found = null;
		for (Call c : calls) {
			if (c.call().args().isEmpty() || !(c.call().args().get(0) instanceof Expr.Name n) || !names(n, c.def(), program)) {
				continue;
			}
			CompileOptions o = apply(c, options, new ArrayList<>());
			if (found != null && !found.equals(o)) {
				return options; // two calls disagree: nothing to prefer
			}
			found = o;
			taken = taken == null ? c : taken;
		}
		if (taken != null) {
			List<String> over = new ArrayList<>();
			apply(taken, options, over);
			if (!over.isEmpty()) {
				overridden.accept(taken.call().span(), over);
			}
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
		for (Stmt.Assign a : assignmentsTo(n.id(), def)) {
			if (a.value() instanceof Expr.Call built && built.funcText() != null) {
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

	private CompileOptions apply(Call c, CompileOptions options, List<String> overridden) {
		Map<String, Object> given = new LinkedHashMap<>();
		read(c.call().keywords(), c.call(), c.def(), given);
		return RunConfigOptions.apply(given, options, overridden);
	}

	/**
	 * The options the keywords of a call give (the first value of each wins): {@code platform},
	 * {@code backend_type}, and those of a {@code distributed_config=DistributedConfig(...)} or a
	 * {@code config=RunConfig(...)} among them, written there or bound to a name before
	 * ({@code run_config = RunConfig(...)}; {@code run(program, config=run_config)}). Values are folded
	 * where the call is written.
	 */
	private void read(List<Expr.Keyword> keywords, Expr.Call at, Script.Def def, Map<String, Object> given) {
		dev.ptotools.analyzer.facts.ConstEval eval = scope.evaluator(scope.at(def, at.span().start(), Map.of()));
		for (Expr.Keyword k : keywords) {
			if (k.name() == null) {
				continue;
			}
			switch (k.name()) {
			case "platform", "device_ids", "num_sub_workers" -> {
				Object v = eval.eval(k.value());
				if (v != null) {
					given.putIfAbsent(k.name(), v);
				}
			}
			case "backend_type" -> given.putIfAbsent("backend_type", k.value().toString());
			case "distributed_config", "config" -> {
				Expr.Call config = configCall(k.value(), at, def, k.name().equals("config") ? "RunConfig" : "DistributedConfig");
				if (config != null) {
					read(config.keywords(), config, def, given);
				}
			}
			default -> {
			}
			}
		}
	}

	/**
	 * The {@code RunConfig(...)} or {@code DistributedConfig(...)} call a keyword's value is: written in
	 * place, or the last one assigned to that name in the same function before {@code at}; else null.
	 */
	private Expr.Call configCall(Expr value, Expr.Call at, Script.Def def, String config) {
		if (value instanceof Expr.Call c) {
			return c.funcText() != null && c.funcText().endsWith(config) ? c : null;
		}
		if (!(value instanceof Expr.Name n)) {
			return null;
		}
		Stmt.Assign last = null; // the walk is not in source order
		for (Stmt.Assign a : assignmentsTo(n.id(), def)) {
			if (a.span().start() < at.span().start() && (last == null || a.span().start() > last.span().start())) {
				last = a;
			}
		}
		return last != null && last.value() instanceof Expr.Call c && c.funcText() != null && c.funcText().endsWith(config)
				? c : null;
	}

	/** The assignments {@code name = ...} in a function's body (the module's plain code for null), in walk order. */
	private List<Stmt.Assign> assignmentsTo(String name, Script.Def def) {
		List<Stmt.Assign> out = new ArrayList<>();
		for (Object o : PyWalk.walk(def == null ? module.script().body() : def.body())) {
			if (o instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name t
					&& t.id().equals(name)) {
				out.add(a);
			}
		}
		return out;
	}
}
