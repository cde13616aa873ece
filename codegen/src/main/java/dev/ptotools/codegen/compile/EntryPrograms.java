package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.BuilderBindings;
import dev.ptotools.analyzer.facts.ScriptScope;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/**
 * The programs a module defines for compilation, as running it would build them: every
 * {@code @pl.program} class at module level (its closure is what the module defined before it); a
 * class inside a builder function once per distinct constant binding of the builder's parameters
 * ({@link BuilderBindings}, which the analyzer folds with too: a builder neither called with constants
 * nor fully defaulted builds nothing).
 */
public final class EntryPrograms {

	private final ModuleIR module;
	private final ScriptScope scope;
	private final BuilderBindings builders;

	private EntryPrograms(ModuleIR module) {
		this.module = module;
		this.scope = new ScriptScope(module);
		this.builders = new BuilderBindings(module, scope);
	}

	public static List<Entry> of(ModuleIR module) {
		EntryPrograms e = new EntryPrograms(module);
		List<Entry> out = e.distinct(e.classEntries());
		out.addAll(e.distinct(e.functionEntries()));
		return out;
	}

	/**
	 * Output names unique within the module: a name several programs share (test modules define a
	 * {@code Prog} in every test function) is qualified with the function each is defined in,
	 * {@code <function>.<Prog>}, and, if that is still shared, numbered in source order
	 * ({@code <function>.<Prog>__2}).
	 */
	private List<Entry> distinct(List<Entry> entries) {
		Map<String, Integer> count = new HashMap<>();
		for (Entry e : entries) {
			count.merge(e.outputName(), 1, Integer::sum);
		}
		List<Entry> out = new ArrayList<>();
		Map<String, Integer> used = new HashMap<>();
		for (Entry e : entries) {
			String name = e.outputName();
			if (count.get(name) > 1) {
				Script.Def d = enclosingDef(e.span());
				if (d != null) {
					name = d.toString() + "." + name;
				}
			}
			int n = used.merge(name, 1, Integer::sum);
			if (n > 1) {
				name = name + "__" + n;
			}
			out.add(n == 1 && name.equals(e.outputName()) ? e
					: new Entry(name, e.programName(), e.source(), e.closure(), e.span(), e.origin(), e.externals(),
							e.parseOnly(), e.lenient()));
		}
		return out;
	}

	private List<Entry> classEntries() {
		List<Entry> out = new ArrayList<>();
		for (Program p : module.programs()) {
			if (p.style() != Program.Style.CLASS) {
				continue;
			}
			Script.Def builder = enclosingDef(p.span());
			if (builder == null) {
				out.add(new Entry(p.name(), p.name(), p.functions(), scope.at(null, p.span().start(), Map.of()), p.span(),
						null, externals(p.functions(), p.span(), null, null)));
				continue;
			}
			List<BuilderBindings.Binding> bindings = builders.of(builder);
			boolean parseOnly = isTest(builder) && !compiledIn(builder, p.name());
			boolean lenient = !isTest(builder) && testHelper(builder) && !compiledIn(builder, p.name())
					&& !resultCompiled(builder);
			for (int i = 0; i < bindings.size(); i++) {
				BuilderBindings.Binding b = bindings.get(i);
				Map<String, Object> closure = builders.frame(builder, b, p.span().start());
				String name = i == 0 ? p.name() : p.name() + "__" + (i + 1);
				out.add(new Entry(name, p.name(), p.functions(), closure, p.span(), b.origin(),
						externals(p.functions(), p.span(), builder, b), parseOnly, lenient));
			}
		}
		return out;
	}

	/** A function pytest runs (as {@link BuilderBindings} binds it): test_..., or a test method. */
	private static boolean isTest(Script.Def d) {
		return d.name().startsWith("test");
	}

	/**
	 * Whether a test compiles the program it builds: passes it to a call whose name says so
	 * ({@code ir.compile(P)}, {@code pl.compile(P, ...)}, a helper {@code _compile_and_check(P)}). A program a
	 * test only parses, prints or runs one pass on is what pypto's front end makes of it, not a build: the
	 * test stands for the program pypto accepts, whatever a full compile would say.
	 */
	private static boolean compiledIn(Script.Def test, String program) {
		for (Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(test.body())) {
			if (c.funcText() == null || !c.funcText().toLowerCase(java.util.Locale.ROOT).contains("compile")) {
				continue;
			}
			for (Expr a : c.args()) {
				if (a instanceof Expr.Name n && n.id().equals(program)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * A helper of a test module (one that defines pytest tests) that builds a program for them: its tests
	 * may compile the program (a system test runs it) or only parse it (a unit test of the front end), so
	 * unless a compile call is given its result, a refusal after the front end is not reported.
	 */
	private boolean testHelper(Script.Def builder) {
		return module.script().defs().stream().anyMatch(EntryPrograms::isTest);
	}

	/**
	 * Whether some call whose name says compile is given the builder's result: the builder's call itself
	 * ({@code ir.compile(_make())}) or a name the same function bound to it ({@code p = _make();
	 * ir.compile(p)}).
	 */
	private boolean resultCompiled(Script.Def builder) {
		List<List<Stmt>> bodies = new ArrayList<>();
		bodies.add(module.script().body());
		for (Script.Def d : module.script().defs()) {
			bodies.add(d.body());
		}
		for (List<Stmt> body : bodies) {
			java.util.Set<String> results = new java.util.HashSet<>();
			Walk.statements(body, st -> {
				if (st instanceof Stmt.Assign a && calls(a.value(), builder)) {
					a.targets().forEach(t -> results.addAll(Walk.boundNames(t)));
				}
			});
			for (Expr.Call c : Walk.allCalls(body)) {
				if (c.funcText() == null || !c.funcText().toLowerCase(java.util.Locale.ROOT).contains("compile")) {
					continue;
				}
				for (Expr a : c.args()) {
					if (calls(a, builder) || a instanceof Expr.Name n && results.contains(n.id())) {
						return true;
					}
				}
			}
		}
		return false;
	}

	private static boolean calls(Expr e, Script.Def builder) {
		return e instanceof Expr.Call c && builder.name().equals(c.funcText());
	}

	private boolean plInline(dev.ptotools.analyzer.ir.Function f) {
		String deco = f.decl().decoratorText();
		return deco != null && (deco.equals("@" + module.pl() + ".inline") || deco.equals("@inline"));
	}

	/**
	 * The {@code @pl.function}s outside any class, each parsed by itself as pypto's decorator parses it
	 * where it is defined: at module level once, in a function body once per binding that runs the body
	 * (a test function, a builder called with constants). The functions each one calls by bare name are its
	 * externals, as for a program.
	 */
	private List<Entry> functionEntries() {
		List<Entry> out = new ArrayList<>();
		for (dev.ptotools.analyzer.ir.Function f : standaloneFunctions()) {
			Script.Def home = enclosingDef(f.span());
			if (home == null) {
				out.add(new Entry(f.name(), f.name(), List.of(f), scope.at(null, f.span().start(), Map.of()), f.span(), null,
						externals(List.of(f), f.span(), null, null), true));
				continue;
			}
			List<BuilderBindings.Binding> bindings = builders.of(home);
			for (int i = 0; i < bindings.size(); i++) {
				BuilderBindings.Binding b = bindings.get(i);
				String name = i == 0 ? f.name() : f.name() + "__" + (i + 1);
				out.add(new Entry(name, f.name(), List.of(f), builders.frame(home, b, f.span().start()), f.span(), b.origin(),
						externals(List.of(f), f.span(), home, b), true));
			}
		}
		return out;
	}

	/** The functions decorated {@code @pl.function} that no class holds, in source order. */
	private List<dev.ptotools.analyzer.ir.Function> standaloneFunctions() {
		List<dev.ptotools.analyzer.ir.Function> out = new ArrayList<>();
		for (Program q : module.programs()) {
			if (q.style() != Program.Style.JIT) {
				continue;
			}
			for (dev.ptotools.analyzer.ir.Function f : q.functions()) {
				if (plFunction(f)) {
					out.add(f);
				}
			}
		}
		out.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
		return out;
	}

	private boolean plFunction(dev.ptotools.analyzer.ir.Function f) {
		String deco = f.decl().decoratorText();
		return deco != null && (deco.startsWith("@" + module.pl() + ".function") || deco.startsWith("@function"));
	}

	/**
	 * The {@code @pl.function}s outside any class (module level, or in the builder before the class) that
	 * the program calls by bare name, transitively, in the order they are first called.
	 */
	private List<Entry.ExternalSource> externals(List<dev.ptotools.analyzer.ir.Function> functions, Span at,
			Script.Def builder, BuilderBindings.Binding binding) {
		Map<String, dev.ptotools.analyzer.ir.Function> candidates = new LinkedHashMap<>();
		for (Program q : module.programs()) {
			if (q.style() != Program.Style.JIT) {
				continue;
			}
			for (dev.ptotools.analyzer.ir.Function f : q.functions()) {
				Script.Def home = enclosingDef(f.span());
				boolean visible = f.span().start() < at.start() && (home == null || home == builder);
				if ((plFunction(f) || plInline(f)) && visible) {
					candidates.put(f.name(), f);
				}
			}
		}
		Map<String, Object> programClosure = builder == null ? scope.at(null, at.start(), Map.of())
				: builders.frame(builder, binding, at.start());
		List<Entry.ExternalSource> out = new ArrayList<>();
		java.util.Deque<dev.ptotools.analyzer.ir.Function> work = new java.util.ArrayDeque<>(functions);
		java.util.Set<String> taken = new java.util.HashSet<>();
		while (!work.isEmpty()) {
			dev.ptotools.analyzer.ir.Function f = work.poll();
			for (Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(f.body())) {
				if (!(c.func() instanceof Expr.Name n) || !taken.add(n.id())) {
					continue;
				}
				if (programClosure.get(n.id()) instanceof ScriptScope.FunctionValue fv) {
					// _qk = make_kernel_qk(...): a kernel a factory built, called through the closure name
					out.add(new Entry.ExternalSource(n.id(), fv.function(), fv.closure()));
					work.add(fv.function());
					continue;
				}
				dev.ptotools.analyzer.ir.Function ext = candidates.get(n.id());
				if (ext != null) {
					Script.Def home = enclosingDef(ext.span());
					Map<String, Object> closure = home != null && home == builder ? builders.frame(builder, binding, ext.span().start())
							: scope.at(home, ext.span().start(), Map.of());
					out.add(new Entry.ExternalSource(n.id(), ext, closure, plInline(ext)));
					work.add(ext);
				}
			}
		}
		return out;
	}

	/** The innermost plain def whose body holds the span, or null at module level. */
	private Script.Def enclosingDef(Span span) {
		return builders.enclosingDef(span);
	}
}
