package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.graph.TaskGraph;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.facts.ScriptScope;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.frontend.Closure;
import dev.ptotools.codegen.frontend.ProgramParser;
import dev.ptotools.codegen.frontend.jit.JitSpecializer;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.project.SpanBases;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.passes.PassContext;
import dev.ptotools.codegen.verify.InOutUseDiscipline;
import dev.ptotools.codegen.verify.LoopBoundsTypeCheck;
import dev.ptotools.codegen.passes.PassPipeline;
import dev.ptotools.codegen.support.CodegenException;

/**
 * One module compiled: every entry program through the front end, pypto's default pass pipeline and
 * the emitters. A program that does not compile gets a finding at the construct that stops it and no
 * files; the others are unaffected.
 *
 * @param programs the programs that compiled, with their files (paths relative to the output folder)
 * @param findings why the others did not, in source order
 * @param options what it was compiled with
 * @param types the type of every value the programs' front end bound, where it is bound (for hover)
 * @param parsedOnly where the entries are that were only parsed ({@link Entry#parseOnly()})
 */
public record Compilation(List<CompiledProgram> programs, List<CompileFindings.Finding> findings,
		CompileOptions options, List<ValueTypes.ValueType> types, List<Span> parsedOnly) {

	public Compilation(List<CompiledProgram> programs, List<CompileFindings.Finding> findings, CompileOptions options) {
		this(programs, findings, options, List.of(), List.of());
	}

	/**
	 * A program that compiled: its entry (output name, where it is defined), its files, and the task graph
	 * of each orchestration function it writes (host first, then the chip ones by name).
	 */
	public record CompiledProgram(Entry entry, List<GeneratedFile> files, List<TaskGraph> graphs) {

		public CompiledProgram {
			files = List.copyOf(files);
			graphs = List.copyOf(graphs);
		}
	}

	/**
	 * Compiles a module from the analyzer's facts: the module, its constants and jit samples (for the
	 * {@code @pl.jit} entries) and its rank-loop verdicts (for grouped dispatch); any of the last three may
	 * be null.
	 */
	public static Compilation of(ModuleIR module, Constants constants, JitSamples samples, RankLoops loops,
			CompileOptions options) {
		return of(module, null, constants, samples, loops, options);
	}

	/**
	 * Compiles a module lowered from {@code text}, which pypto reads some constructs from (a HOST
	 * SubWorker's body); null when the text is not at hand.
	 */
	public static Compilation of(ModuleIR module, String text, Constants constants, JitSamples samples, RankLoops loops,
			CompileOptions options) {
		return of(module, text, constants, samples, loops, options, () -> false);
	}

	/**
	 * As {@link #of(ModuleIR, String, Constants, JitSamples, RankLoops, CompileOptions)}, stopping between
	 * programs once {@code superseded} holds (the editor has a newer version of the text): then it throws
	 * {@link java.util.concurrent.CancellationException} and the caller drops the analysis.
	 */
	public static Compilation of(ModuleIR module, String text, Constants constants, JitSamples samples, RankLoops loops,
			CompileOptions options, java.util.function.BooleanSupplier superseded) {
		return of(module, text, constants, samples, loops, options, superseded, null);
	}

	/**
	 * As above; a jit entry reaches the jit functions the module imports from the project's other modules
	 * through {@code imported} (null: none are read).
	 */
	public static Compilation of(ModuleIR module, String text, Constants constants, JitSamples samples, RankLoops loops,
			CompileOptions options, java.util.function.BooleanSupplier superseded, ImportedModules imported) {
		List<CompiledProgram> programs = new ArrayList<>();
		List<CompileFindings.Finding> findings = new ArrayList<>();
		List<ValueTypes.ValueType> types = new ArrayList<>();
		if (!module.importsPypto()) {
			return new Compilation(programs, findings, options);
		}
		ModuleCompileCalls compileCalls = new ModuleCompileCalls(module, new ScriptScope(module));
		List<Span> parsedOnly = new ArrayList<>();
		for (Entry e : EntryPrograms.of(module)) {
			stopIf(superseded);
			if (e.parseOnly()) {
				parsedOnly.add(e.span());
			}
			UnknownReads.Read unknown = UnknownReads.first(module, constants, e);
			if (unknown != null && e.parseOnly()) {
				// a function this compiler cannot see as running the module would build it: pypto's answer on it
				// is unknown, and it writes nothing of its own
				continue;
			}
			if (unknown != null) {
				findings.add(new CompileFindings.Finding(CompileFindings.Kind.UNSUPPORTED, unknown.span(), unknown.message(),
						e.outputName()));
				continue;
			}
			CompileOptions own = compileCalls.forProgram(e.programName(), options,
					(at, what) -> findings.add(overridden(at, what, e.outputName())));
			compile(e, () -> parse(module, e, text), text, own, loops, programs, findings, types);
		}
		if (samples != null && constants != null) {
			for (JitSamples.Entry entry : samples.entries()) {
				unspecializedCalls(entry, findings);
				ImportedKernelCalls.Call unresolved = entry.specializations().isEmpty() ? null
						: ImportedKernelCalls.first(module, entry.function(), imported, new SpanBases(text == null ? 0 : text.length()));
				if (unresolved != null) {
					findings.add(new CompileFindings.Finding(CompileFindings.Kind.UNSUPPORTED, unresolved.call().span(),
							unresolved.message(), entry.specializations().get(0).programName()));
					continue;
				}
				for (JitSamples.Specialization spec : entry.specializations()) {
					stopIf(superseded);
					Entry e = new Entry(spec.folderName(), spec.programName(), List.of(spec.entry()), java.util.Map.of(),
							spec.entry().span(), spec.call() == null ? null : "sample call at offset " + spec.call().start(),
							List.of());
					List<String> over = new ArrayList<>();
					CompileOptions own = RunConfigOptions.apply(spec.runConfig(), options, over);
					if (!over.isEmpty() && spec.call() != null) {
						findings.add(overridden(spec.call(), over, e.outputName()));
					}
					JitSpecializer.JitProgram[] made = new JitSpecializer.JitProgram[1];
					int before = findings.size();
					int typesBefore = types.size();
					int programsBefore = programs.size();
					compile(e, () -> JitSpecializer.parse(made[0] = JitSpecializer.specialize(module, constants, spec, imported,
							new SpanBases(text == null ? 0 : text.length()))), text, own, loops, programs, findings, types);
					if (made[0] != null && !made[0].imported().isEmpty()) {
						relocate(findings.subList(before, findings.size()), made[0]);
						// the types of another module's values have no place in this file's text
						types.subList(typesBefore, types.size()).removeIf(t -> JitSpecializer.importedAt(made[0], t.at()) != null);
						// the task graph's tasks of another module's kernels: at the call here that reaches them
						JitSpecializer.JitProgram jp = made[0];
						java.util.function.UnaryOperator<Span> here = s0 -> {
							JitSpecializer.Imported i = JitSpecializer.importedAt(jp, s0);
							return i == null ? s0 : i.callSite();
						};
						for (int k = programsBefore; k < programs.size(); k++) {
							CompiledProgram cp = programs.get(k);
							programs.set(k, new CompiledProgram(cp.entry(), cp.files(), cp.graphs().stream()
									.map(g -> g.mapSpans(here)).toList()));
						}
					}
				}
			}
		}
		findings.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
		// a function several entries parse (a standalone @pl.function, then the programs that call it) fails
		// in each the same way: pypto raises it once, where the function is defined
		java.util.Set<String> raised = new java.util.HashSet<>();
		findings.removeIf(f -> f.frontEnd() && !raised.add(f.span().start() + ":" + f.span().end() + ":" + f.message()));
		types.sort((a, b) -> Integer.compare(a.at().start(), b.at().start()));
		return new Compilation(programs, findings, options, List.copyOf(types), List.copyOf(parsedOnly));
	}

	/**
	 * Findings of a specialization that lie in a function of another module (a later pass's, whose spans
	 * are that module's, moved past this file's: SpanBases): said at the call here that reaches it, with
	 * where it is in its own file.
	 */
	private static void relocate(List<CompileFindings.Finding> made, JitSpecializer.JitProgram p) {
		for (int k = 0; k < made.size(); k++) {
			CompileFindings.Finding f = made.get(k);
			JitSpecializer.Imported i = JitSpecializer.importedAt(p, f.span());
			if (i != null) {
				made.set(k, new CompileFindings.Finding(f.kind(), i.callSite(), "in '" + i.name() + "' (" + i.where(f.span())
						+ "): " + f.message(), f.program(), f.frontEnd()));
			}
		}
	}

	/** The note that the settings override what a compile or sample call asks for. */
	private static CompileFindings.Finding overridden(Span at, List<String> what, String program) {
		return new CompileFindings.Finding(CompileFindings.Kind.OVERRIDDEN, at, "compiled for " + String.join("; ", what)
				+ " this call asks for: the settings (flags, [tool.pto] or the editor's) win over the call, which"
				+ " running the module follows", program);
	}

	private static void stopIf(java.util.function.BooleanSupplier superseded) {
		if (superseded.getAsBoolean()) {
			throw new java.util.concurrent.CancellationException("superseded by a newer version of the text");
		}
	}

	/**
	 * A sample call whose arguments the analyzer cannot resolve is a program pypto builds when the module
	 * runs and this compiler does not: an error at the call (one per call, naming what is unknown), never a
	 * silently missing output folder. Entries nothing calls build nothing in pypto either; PTO410 covers them.
	 */
	private static void unspecializedCalls(JitSamples.Entry entry, List<CompileFindings.Finding> findings) {
		java.util.Map<Span, List<String>> byCall = new java.util.LinkedHashMap<>();
		for (JitSamples.Problem p : entry.problems()) {
			if (p.call() != null) {
				List<String> reasons = byCall.computeIfAbsent(p.call(), k -> new ArrayList<>());
				String reason = (p.param() != null ? "'" + p.param() + "': " : "") + p.reason();
				if (!reasons.contains(reason)) {
					reasons.add(reason);
				}
			}
		}
		for (java.util.Map.Entry<Span, List<String>> c : byCall.entrySet()) {
			List<String> reasons = c.getValue();
			String shown = String.join("; ", reasons.subList(0, Math.min(3, reasons.size())))
					+ (reasons.size() > 3 ? "; and " + (reasons.size() - 3) + " more" : "");
			findings.add(new CompileFindings.Finding(CompileFindings.Kind.UNSUPPORTED, c.getKey(),
					"cannot specialize @pl.jit '" + entry.function().name() + "' for this call, which pypto compiles when "
							+ "the module runs: " + shown,
					entry.function().name()));
		}
	}

	private static void compile(Entry e, java.util.function.Supplier<Program> front, String text, CompileOptions options,
			RankLoops loops, List<CompiledProgram> programs, List<CompileFindings.Finding> findings,
			List<ValueTypes.ValueType> types) {
		Program input;
		try {
			input = front.get();
		} catch (CodegenException ex) {
			if (ex.isUnsupported() && e.parseOnly()) {
				return; // nothing of a standalone function is written: what this compiler lacks does not show
			}
			findings.add(new CompileFindings.Finding(
					ex.isUnsupported() ? CompileFindings.Kind.UNSUPPORTED : CompileFindings.Kind.REJECTED,
					ex.span() == Span.NONE ? e.span() : ex.span(), ex.getMessage(), e.outputName(), true));
			return;
		} catch (RuntimeException | StackOverflowError ex) {
			findings.add(internalError(e, ex));
			return;
		}
		try {
			types.addAll(ValueTypes.of(input, e.outputName()));
			if (e.parseOnly()) {
				return;
			}
			// the structural properties pypto's pass manager verifies before the first pass
			LoopBoundsTypeCheck.check(input);
			InOutUseDiscipline.check(input, position(text));
			PassPipeline pipeline = PassPipeline.defaults();
			List<GeneratedFile> dumps = new ArrayList<>();
			java.util.function.BiConsumer<dev.ptotools.codegen.passes.Pass, Program> afterEach = null;
			if (options.dumpPasses()) {
				// pypto's passes_dump/: the front end's program, then the program after each pass, numbered as
				// pypto numbers them (PassPipeline.dumpName)
				String dir = e.outputName() + "/passes_dump/";
				dumps.add(new GeneratedFile(dir + "00_frontend.py", IrPrinter.print(input)));
				int[] n = { 0 };
				afterEach = (pass, p) -> dumps.add(new GeneratedFile(dir + pipeline.dumpName(n[0]++), IrPrinter.print(p)));
			}
			Program lowered = pipeline.run(input, new PassContext(options.backend()), afterEach);
			ProgramBuild.Built built = ProgramBuild.files(e.outputName(), input, lowered, options, loops);
			List<GeneratedFile> files = new ArrayList<>(built.files());
			files.addAll(dumps);
			programs.add(new CompiledProgram(e, List.copyOf(files), built.graphs()));
			// pypto's post-pipeline performance hints, on a program that compiles
			findings.addAll(dev.ptotools.codegen.verify.TileInnermostDimGranularity.hints(lowered, options.backend(),
					e.outputName()));
		} catch (CodegenException ex) {
			if (e.lenient() && !ex.isUnsupported()) {
				return; // a test helper's program its tests may only parse: pypto's later stages may never see it
			}
			findings.add(new CompileFindings.Finding(
					ex.isUnsupported() ? CompileFindings.Kind.UNSUPPORTED : CompileFindings.Kind.REJECTED,
					ex.span() == Span.NONE ? e.span() : ex.span(), ex.getMessage(), e.outputName()));
		} catch (RuntimeException | StackOverflowError ex) {
			findings.add(internalError(e, ex));
		}
	}

	private static CompileFindings.Finding internalError(Entry e, Throwable ex) {
		return new CompileFindings.Finding(CompileFindings.Kind.UNSUPPORTED, e.span(),
				"internal error in the compiler: " + ex + " (please report)", e.outputName());
	}

	/** A span as pypto's messages name a position: line:column, 1-based (the offset without the text). */
	private static java.util.function.Function<Span, String> position(String text) {
		if (text == null) {
			return s -> "offset " + s.start();
		}
		// the text's lines are counted only for a message: every compile asks for the function, few use it
		return s -> {
			dev.ptotools.language.source.LineMap lines = dev.ptotools.language.source.LineMap.of(text);
			return lines.line(s.start()) + ":" + lines.column(s.start());
		};
	}

	/** The entry's program as pypto's front end builds it. */
	public static Program parse(ModuleIR module, Entry e, String text) {
		List<ProgramParser.External> externals = new ArrayList<>();
		for (Entry.ExternalSource x : e.externals()) {
			externals.add(new ProgramParser.External(x.callName(), x.function(),
					new Closure(x.closure(), module.imports()), x.inline()));
		}
		return ProgramParser.parse(e.programName(), e.source(), new Closure(e.closure(), module.imports()),
				module.pl(), module.pld(), externals, text);
	}
}
