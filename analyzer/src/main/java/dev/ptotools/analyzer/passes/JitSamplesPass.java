package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.project.ImportKinds;
import dev.ptotools.analyzer.project.ImportedFunction;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.project.SpanBases;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.passes.jit.SampleBinder;
import dev.ptotools.analyzer.passes.jit.ScriptInterpreter;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Finds what each {@code @pl.jit} / {@code @pl.jit.host} entry is specialized to: runs the module's plain
 * Python statically ({@link ScriptInterpreter}) to collect its sample calls, binds each as pypto does, and
 * keeps the distinct specializations in the order the module would compile them (see {@link JitSamples}).
 */
public final class JitSamplesPass implements Pass {

	@Override
	public String name() {
		return "jit-samples";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CONSTANTS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.JIT_SAMPLES);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		Constants constants = facts.get(Keys.CONSTANTS);
		JitGraph.Names names = names(module, facts.has(Keys.IMPORTED_MODULES) ? facts.get(Keys.IMPORTED_MODULES) : null,
				new SpanBases(facts.has(Keys.PARSED) ? facts.get(Keys.PARSED).text().length() : 0));
		List<Function> jit = new ArrayList<>();
		Map<Function, Program> owners = new IdentityHashMap<>();
		for (Program p : module.programs()) {
			if (p.style() != Program.Style.JIT) {
				continue;
			}
			for (Function f : p.functions()) {
				if (names.kind(f) != null) {
					jit.add(f);
					owners.put(f, p);
				}
			}
		}
		Map<Function, JitSamples.Entry> entries = new IdentityHashMap<>();
		if (jit.isEmpty()) {
			facts.put(Keys.JIT_SAMPLES, new JitSamples(entries));
			return;
		}
		ScriptInterpreter interp = new ScriptInterpreter(module.script(), jit)
				.withImportedModules(facts.has(Keys.IMPORTED_MODULES) ? facts.get(Keys.IMPORTED_MODULES) : null);
		List<ScriptInterpreter.SampleCall> calls = interp.run();
		// A @pl.jit function a @pl.jit.host entry dispatches is compiled as part of that entry's program.
		java.util.Set<Function> hostDeps = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		for (Function f : jit) {
			if (names.kind(f) == JitKind.HOST) {
				hostDeps.addAll(JitGraph.of(f, names).depsTopo());
			}
		}
		java.util.Set<Function> called = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		for (ScriptInterpreter.SampleCall c : calls) {
			called.add(c.function());
		}
		for (Function f : jit) {
			if (!names.kind(f).entry() || hostDeps.contains(f) && !called.contains(f)) {
				continue;
			}
			Program p = owners.get(f);
			ConstEval eval = constants.evaluator(p);
			JitGraph graph = JitGraph.of(f, names);
			Map<String, Map<Integer, DynDim>> dyn = graph.dynamicDims(eval::eval).get(f);
			SampleBinder binder = new SampleBinder(f, def(module.script(), f), dyn, eval::eval);
			List<JitSamples.Specialization> specs = new ArrayList<>();
			Map<Object, Boolean> seen = new LinkedHashMap<>();
			List<JitSamples.Problem> problems = new ArrayList<>();
			List<dev.ptotools.analyzer.ir.Span> spans = new ArrayList<>();
			for (ScriptInterpreter.SampleCall c : calls) {
				if (c.function() != f) {
					continue;
				}
				if (!spans.contains(c.span())) {
					spans.add(c.span());
				}
				for (SampleBinder.Result r : binder.bind(c)) {
					problems.addAll(r.problems());
					if (r.specialization() != null && seen.put(r.specialization().key(), true) == null) {
						specs.add(number(r.specialization(), specs.size() + 1));
					}
				}
			}
			if (!called.contains(f)) {
				SampleBinder.Result r = binder.unCalled(interp.scalarGlobals());
				problems.addAll(r.problems());
				if (r.specialization() != null) {
					specs.add(number(r.specialization(), 1));
				}
			}
			entries.put(f, new JitSamples.Entry(f, p, List.copyOf(specs), dedupe(problems), List.copyOf(spans)));
		}
		facts.put(Keys.JIT_SAMPLES, new JitSamples(entries));
	}

	private static JitSamples.Specialization number(JitSamples.Specialization s, int ordinal) {
		return new JitSamples.Specialization(s.entry(), s.signature(), s.args(), s.globals(), s.kind(), s.call(), ordinal,
				s.runConfig());
	}

	private static List<JitSamples.Problem> dedupe(List<JitSamples.Problem> problems) {
		List<JitSamples.Problem> out = new ArrayList<>();
		for (JitSamples.Problem p : problems) {
			if (!out.contains(p)) {
				out.add(p);
			}
		}
		return List.copyOf(out);
	}

	/** The plain-Python definition of a DSL function (its parameters' defaults live there). */
	private static Script.Def def(Script script, Function f) {
		for (Script.Def d : script.defs()) {
			if (d.span().equals(f.span())) {
				return d;
			}
		}
		return null;
	}

	/**
	 * Bare names in a jit body resolve to the jit functions of the same scope first, then to those of the
	 * module (what the function's globals and closure hold).
	 */
	public static JitGraph.Names names(ModuleIR module) {
		return names(module, null, null);
	}

	/**
	 * The same, a name the module imports from another module of the project resolving to that module's
	 * jit function ({@link ImportedModules#jitFunction}), whose own body's names resolve in its module;
	 * {@link #imported} gives what such a function came with.
	 */
	public static JitGraph.Names names(ModuleIR module, ImportedModules imported, SpanBases bases) {
		JitGraph.Names local = localNames(module);
		if (imported == null) {
			return local;
		}
		return new ProjectNames(module, local, imported, bases);
	}

	/** The imported jit function {@code f} is, when {@code names} resolved it from another module; else null. */
	public static ImportedFunction imported(JitGraph.Names names, Function f) {
		return names instanceof ProjectNames p ? p.found.get(f) : null;
	}

	/** Local names first, then the module's imports of the project's jit functions (and theirs, in turn). */
	private static final class ProjectNames implements JitGraph.Names {
		private final ModuleIR module;
		private final JitGraph.Names local;
		private final ImportedModules imported;
		private final SpanBases bases;
		private final Map<Function, ImportedFunction> found = new IdentityHashMap<>();

		ProjectNames(ModuleIR module, JitGraph.Names local, ImportedModules imported, SpanBases bases) {
			this.module = module;
			this.local = local;
			this.imported = imported;
			this.bases = bases;
		}

		@Override
		public Function lookup(Function from, String name) {
			ImportedFunction home = found.get(from);
			if (home != null) {
				// a name in an imported function's body: its module's, and what that module imports
				Function f = home.names().lookup(from, name);
				if (f != null && !found.containsKey(f)) {
					ImportedFunction nested = nested(home, f);
					if (nested != null) {
						found.put(f, nested);
					}
				}
				return f;
			}
			Function f = local.lookup(from, name);
			if (f != null) {
				return f;
			}
			List<Program.Binding> bindings = new ArrayList<>();
			module.programs().forEach(p -> bindings.addAll(p.bindings()));
			ImportKinds.Source source = ImportKinds.fromImport(bindings, name);
			if (source == null) {
				return null;
			}
			ImportedFunction i = imported.jitFunction(source.module(), source.name(), bases);
			if (i == null) {
				return null;
			}
			found.putIfAbsent(i.function(), i);
			return i.function();
		}

		/** What a function reached from an imported one came with (its own module's, when it is imported too). */
		private static ImportedFunction nested(ImportedFunction home, Function f) {
			ImportedFunction deeper = imported(home.names(), f);
			return deeper != null ? deeper : new ImportedFunction(f, home.names().kind(f), home.names(), home.globals(),
					home.file(), home.text(), home.base());
		}

		@Override
		public JitKind kind(Function f) {
			ImportedFunction i = found.get(f);
			return i != null ? i.kind() : local.kind(f);
		}
	}

	private static JitGraph.Names localNames(ModuleIR module) {
		Map<Function, Program> owner = new IdentityHashMap<>();
		Program moduleLevel = null;
		for (Program p : module.programs()) {
			if (p.style() == Program.Style.JIT) {
				for (Function f : p.functions()) {
					owner.put(f, p);
				}
				boolean nested = false;
				for (Script.Def d : module.script().defs()) {
					nested |= !d.decorated() && d.span().contains(p.span());
				}
				if (!nested) {
					moduleLevel = p;
				}
			}
		}
		final Program top = moduleLevel;
		return new JitGraph.Names() {
			@Override
			public Function lookup(Function from, String name) {
				Program p = owner.get(from);
				Function f = p == null ? null : p.function(name);
				if (f == null && top != null) {
					f = top.function(name);
				}
				return f != null && kind(f) != null ? f : null;
			}

			@Override
			public JitKind kind(Function f) {
				return JitKind.of(f, module.pl());
			}
		};
	}
}
