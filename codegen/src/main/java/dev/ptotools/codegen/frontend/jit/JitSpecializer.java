package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.facts.jit.DynDim;
import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.facts.jit.JitKind;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.passes.JitSamplesPass;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.support.CodegenException;

/**
 * One specialization of a {@code @pl.jit} entry as the {@code @pl.program} pypto's {@code Specializer}
 * generates and {@code pl.parse} reads: program {@code _jit_<entry>}; the entry and the jit functions it
 * reaches by bare-name calls (leaf first, entry last), each with pypto's decorator, concrete parameter
 * annotations, inferred return annotation and transformed body; and the closure the generated text is
 * parsed in, which holds only the {@code pl.dynamic} symbols it declares at module level. The functions
 * are analyzer IR with the user's spans, so {@link #parse} gives what pypto's parser gives for the
 * generated text and errors point at the user's lines.
 */
public final class JitSpecializer {

	/**
	 * A specialized program before parsing: its name, functions in order, the closure it is parsed in, the
	 * aliases the renaming made (alias to the user's name) and its module-level {@code pl.dynamic} symbols
	 * (Python name to string literal).
	 */
	public record JitProgram(String name, List<Function> functions, Closure closure, Map<String, String> renames,
			Map<String, String> dynvarLiterals, List<Imported> imported) {

		public JitProgram(String name, List<Function> functions, Closure closure, Map<String, String> renames,
				Map<String, String> dynvarLiterals) {
			this(name, functions, closure, renames, dynvarLiterals, List.of());
		}

		/** A message with the specializer's aliases ({@code x_v1}) put back to the user's names. */
		public String restoreNames(String message) {
			List<String> aliases = new ArrayList<>(renames.keySet());
			aliases.sort((a, b) -> b.length() - a.length());
			String out = message;
			for (String alias : aliases) {
				out = out.replaceAll("\\b" + java.util.regex.Pattern.quote(alias) + "\\b",
						java.util.regex.Matcher.quoteReplacement(renames.get(alias)));
			}
			return out;
		}
	}

	/**
	 * A function of the program that comes from another module: its name and span there (its spans are
	 * offsets into its own file), its file and line, and the call in this module that reaches it.
	 */
	public record Imported(String name, dev.ptotools.analyzer.ir.Span span, String file,
			java.util.function.IntUnaryOperator lines, dev.ptotools.analyzer.ir.Span callSite) {

		/** Where an offset of its spans is: "rmsnorm.py:42". */
		public String where(dev.ptotools.analyzer.ir.Span at) {
			return file + ":" + lines.applyAsInt(at.start());
		}
	}

	private JitSpecializer() {
	}

	/** The program IR of a specialization: {@link #specialize} then {@link ProgramParser}. */
	public static dev.ptotools.codegen.ir.Program parse(JitProgram p) {
		try {
			return ProgramParser.parse(p.name(), p.functions(), p.closure(), "pl", "pld");
		} catch (CodegenException e) {
			Imported in = importedAt(p, e.span());
			if (in != null) {
				// the error is in another module's function: said at the call of it here, with where it is
				String msg = "in '" + in.name() + "' (" + in.where(e.span()) + "): " + p.restoreNames(e.getMessage());
				CodegenException r = e.isUnsupported() ? CodegenException.unsupported(msg, in.callSite())
						: new CodegenException(msg, in.callSite());
				r.initCause(e);
				throw r;
			}
			String restored = p.restoreNames(e.getMessage());
			if (restored.equals(e.getMessage())) {
				throw e;
			}
			CodegenException r = new CodegenException(restored, e.span());
			r.initCause(e);
			throw r;
		}
	}

	/**
	 * The imported function whose span holds an error's (imported functions' spans lie past the analyzed
	 * file's, each module in its own range: {@link dev.ptotools.analyzer.project.SpanBases}), or null.
	 */
	public static Imported importedAt(JitProgram p, dev.ptotools.analyzer.ir.Span at) {
		if (at == null) {
			return null;
		}
		for (Imported i : p.imported()) {
			if (i.span().contains(at)) {
				return i;
			}
		}
		return null;
	}

	public static JitProgram specialize(ModuleIR module, Constants constants, JitSamples.Specialization spec) {
		return specialize(module, constants, spec, null, null);
	}

	/**
	 * As above, the jit functions the module imports from its project's other modules read through
	 * {@code imported}, their spans placed by {@code bases}.
	 */
	public static JitProgram specialize(ModuleIR module, Constants constants, JitSamples.Specialization spec,
			dev.ptotools.analyzer.project.ImportedModules imported, dev.ptotools.analyzer.project.SpanBases bases) {
		Function entry = spec.entry();
		JitGraph.Names names = JitSamplesPass.names(module, imported, bases);
		Program owner = owner(module, entry);
		ConstEval eval = constants.evaluator(owner);
		Map<String, Object> lookup = new HashMap<>(constants.env(owner));
		lookup.putAll(spec.globals());
		JitGraph graph = JitGraph.of(entry, names);
		Map<Function, Map<String, Map<Integer, DynDim>>> dyn = graph.dynamicDims(eval::eval);

		Map<Function, DepMetadata.Meta> resolved = new IdentityHashMap<>();
		Map<String, TensorMeta> entryTensors = new LinkedHashMap<>();
		Map<String, Object> entryScalars = new LinkedHashMap<>();
		for (Map.Entry<String, JitSamples.Arg> a : spec.args().entrySet()) {
			if (a.getValue() instanceof JitSamples.TensorArg t) {
				entryTensors.put(a.getKey(), t.meta());
			} else if (a.getValue() instanceof JitSamples.ScalarArg s) {
				entryScalars.put(a.getKey(), s.value());
			}
		}
		resolved.put(entry, new DepMetadata.Meta(entryTensors, entryScalars));
		List<Function> deps = graph.depsTopo();
		for (int i = deps.size() - 1; i >= 0; i--) {
			Function dep = deps.get(i);
			Function caller = graph.callers(dep).get(0);
			resolved.put(dep, DepMetadata.resolve(graph, dep, caller, names.kind(caller), resolved.get(caller),
					dyn.getOrDefault(dep, Map.of()), lookup, names));
		}
		List<Function> order = new ArrayList<>(deps);
		order.add(entry);
		Map<String, List<String>> depParams = new HashMap<>();
		for (Function f : order) {
			depParams.put(f.name(), JitGraph.paramNames(f));
		}

		List<Function> out = new ArrayList<>();
		Map<String, String> renames = new LinkedHashMap<>();
		Map<String, Object> dynVars = new LinkedHashMap<>();
		for (Function f : order) {
			JitKind kind = names.kind(f);
			DepMetadata.Meta meta = resolved.get(f);
			dev.ptotools.analyzer.project.ImportedFunction from = JitSamplesPass.imported(names, f);
			Map<String, Object> globals = from == null ? spec.globals() : scalars(from.globals());
			ConstEval fEval = from == null ? eval : new ConstEval(from.globals(), "pl", "pld");
			List<Param> params = Signatures.params(f, kind, meta.tensors(), fEval);
			Expr ret = Signatures.returnAnnotation(f, meta.tensors(), globals);
			Set<String> depNames = new LinkedHashSet<>();
			for (Function c : graph.callees(f)) {
				depNames.add(c.name());
			}
			BodyTransformer t = new BodyTransformer(meta.tensors(), meta.scalars(), depNames, JitGraph.paramNames(f),
					PyNames.allStores(f.body()), globals, depParams);
			List<Stmt> body = t.body(f.body(), f.span());
			for (Map.Entry<String, String> r : t.renameMap().entrySet()) {
				renames.putIfAbsent(r.getKey(), r.getValue());
			}
			Map<String, String> literals = new LinkedHashMap<>();
			for (TensorMeta m : meta.tensors().values()) {
				for (Object d : m.shape()) {
					if (d instanceof DynDim dd) {
						literals.put(dd.name(), dd.literal());
					}
				}
			}
			for (Map.Entry<String, String> l : literals.entrySet()) {
				dynVars.putIfAbsent(l.getKey(), new Values.DynVar(l.getValue()));
			}
			out.add(new Function(f.name(), Signatures.decorator(f, kind), params, ret, body, out.size(), f.span(),
					f.nameSpan(), f.headerSpan()));
		}
		Map<String, String> literals = new LinkedHashMap<>();
		dynVars.forEach((k, v) -> literals.put(k, ((Values.DynVar) v).name()));
		List<Imported> importedFns = new ArrayList<>();
		for (Function f : order) {
			dev.ptotools.analyzer.project.ImportedFunction from = JitSamplesPass.imported(names, f);
			if (from != null) {
				importedFns.add(new Imported(f.name(), f.span(), String.valueOf(from.file().getFileName()), from::line,
						callSite(order, names, f, entry)));
			}
		}
		return new JitProgram(spec.programName(), List.copyOf(out), new Closure(dynVars, "pl", "pld"),
				java.util.Collections.unmodifiableMap(renames), java.util.Collections.unmodifiableMap(literals),
				List.copyOf(importedFns));
	}

	/** The int, float and bool constants of a module (what pypto inlines into a jit body from its globals). */
	private static Map<String, Object> scalars(Map<String, Object> values) {
		Map<String, Object> out = new java.util.TreeMap<>();
		values.forEach((k, v) -> {
			if (v instanceof Long || v instanceof Double || v instanceof Boolean) {
				out.put(k, v);
			}
		});
		return out;
	}

	/**
	 * The first call in this module's functions that reaches an imported function (directly, or through
	 * other imported ones): where an error in it is reported.
	 */
	private static dev.ptotools.analyzer.ir.Span callSite(List<Function> order, JitGraph.Names names, Function target,
			Function entry) {
		java.util.Set<Function> reaches = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		reaches.add(target);
		boolean grew = true;
		while (grew) {
			grew = false;
			for (Function f : order) {
				if (JitSamplesPass.imported(names, f) == null || reaches.contains(f)) {
					continue;
				}
				for (dev.ptotools.analyzer.ir.Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(f.body())) {
					if (c.func() instanceof Expr.Name n && reaches.contains(names.lookup(f, n.id()))) {
						grew |= reaches.add(f);
						break;
					}
				}
			}
		}
		for (Function f : order) {
			if (JitSamplesPass.imported(names, f) != null) {
				continue;
			}
			for (dev.ptotools.analyzer.ir.Expr.Call c : dev.ptotools.analyzer.ir.Walk.allCalls(f.body())) {
				if (c.func() instanceof Expr.Name n && reaches.contains(names.lookup(f, n.id()))) {
					return c.span();
				}
			}
		}
		return entry.headerSpan();
	}

	private static Program owner(ModuleIR module, Function f) {
		for (Program p : module.programs()) {
			if (p.functions().contains(f)) {
				return p;
			}
		}
		throw new IllegalArgumentException("not a function of the module: " + f.name());
	}
}
