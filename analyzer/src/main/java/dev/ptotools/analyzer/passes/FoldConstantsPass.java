package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.BuilderBindings;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.ScriptScope;
import dev.ptotools.analyzer.facts.UnknownValue;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;
import dev.ptotools.analyzer.project.ImportKinds;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.project.ProjectModules;

/**
 * Folds the module and closure constants each program sees, in source order, so that
 * {@code SIZE * pl.FP32.get_byte()} is 1024 wherever SIZE is 256. A program defined inside a builder
 * function sees the builder's parameters as the module's calls of the builder bind them, the same
 * bindings the compiler builds the program with ({@link BuilderBindings}): a value all of them agree on
 * is a constant; the others, and values nothing binds or computed when the module runs, are unknown,
 * recorded with their cause.
 */
public final class FoldConstantsPass implements Pass {

	@Override
	public String name() {
		return "fold-constants";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.CONSTANTS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		ImportedModules imported = facts.has(Keys.IMPORTED_MODULES) ? facts.get(Keys.IMPORTED_MODULES)
				: ImportedModules.NONE;
		IdentityHashMap<Program, Map<String, Object>> envs = new IdentityHashMap<>();
		IdentityHashMap<Program, Map<String, UnknownValue>> unknowns = new IdentityHashMap<>();
		BuilderBindings builders = null;
		for (Program p : module.programs()) {
			Map<String, Object> env = new HashMap<>();
			Map<String, UnknownValue> unknown = new HashMap<>();
			ConstEval eval = new ConstEval(env, module.imports());
			for (Program.Binding b : p.bindings()) {
				if (b.isParameter()) {
					env.remove(b.name()); // its value is the call's; bound below where the calls say
					unknown.put(b.name(), UnknownValue.parameter(b.name(), b.parameterOf()));
					continue;
				}
				if (b.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.STAR)) {
					// from .config import *: every name the project's module exports
					String from = o.kind().substring(ImportKinds.STAR.length());
					imported.star(from).forEach((n, v) -> {
						if (Values.known(v)) {
							env.put(n, v);
							unknown.remove(n);
						} else {
							env.remove(n);
							unknown.put(n, UnknownValue.imported(n, from));
						}
					});
					continue;
				}
				Object v = isImport(b.value()) ? ProjectModules.fold(b, env, module.imports(), imported) : eval.eval(b.value());
				if (Values.known(v)) {
					env.put(b.name(), v);
					unknown.remove(b.name());
				} else {
					env.remove(b.name()); // a later non-constant binding hides an earlier constant
					unknown.put(b.name(), cause(b.name(), b.value(), unknown));
				}
			}
			if (p.bindings().stream().anyMatch(Program.Binding::isParameter)) {
				if (builders == null) {
					builders = new BuilderBindings(module, new ScriptScope(module));
				}
				Script.Def builder = builders.enclosingDef(p.span());
				if (builder != null) {
					bindFromCalls(builders, builder, p, env, unknown);
				}
			}
			envs.put(p, Map.copyOf(env));
			unknowns.put(p, Map.copyOf(unknown));
		}
		facts.put(Keys.CONSTANTS, new Constants(envs, unknowns, module.imports()));
	}

	private static boolean isImport(Expr value) {
		return value instanceof Expr.Opaque o && (o.kind().startsWith(ImportKinds.FROM) || o.kind().startsWith(ImportKinds.MODULE));
	}

	/** Why a binding does not fold: an unknown name it reads, or else something only running computes. */
	private static UnknownValue cause(String name, Expr value, Map<String, UnknownValue> unknown) {
		if (value instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.FROM)) {
			return UnknownValue.imported(name, ImportKinds.module(o.kind().substring(ImportKinds.FROM.length())));
		}
		if (value instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.MODULE)) {
			return UnknownValue.imported(name, o.kind().substring(ImportKinds.MODULE.length()));
		}
		if (value != null) {
			for (String n : Walk.names(value)) {
				UnknownValue u = unknown.get(n);
				if (u != null) {
					return UnknownValue.derived(name, u);
				}
			}
		}
		return UnknownValue.runtime(name);
	}

	/**
	 * The frame values of the builder at the program, for each binding the compiler builds it with: a
	 * value every binding agrees on is known, one they disagree on is unknown. Without any binding the
	 * parameters stay unknown.
	 */
	private static void bindFromCalls(BuilderBindings builders, Script.Def builder, Program p, Map<String, Object> env,
			Map<String, UnknownValue> unknown) {
		List<Map<String, Object>> frames = builders.closures(builder, p.span().start());
		if (frames.isEmpty()) {
			return;
		}
		Set<String> names = new LinkedHashSet<>();
		frames.forEach(f -> names.addAll(f.keySet()));
		for (String name : names) {
			List<Object> values = new ArrayList<>();
			for (Map<String, Object> f : frames) {
				values.add(f.get(name));
			}
			if (values.contains(null) || values.get(0) instanceof ScriptScope.FunctionValue) {
				continue; // unknown in some binding (or a kernel a factory made): the module's folding stands
			}
			List<Object> distinct = values.stream().distinct().toList();
			if (distinct.size() == 1) {
				env.put(name, distinct.get(0));
				unknown.remove(name);
			} else {
				env.remove(name);
				unknown.put(name, UnknownValue.differing(name, builder.name(), distinct));
			}
		}
	}
}
