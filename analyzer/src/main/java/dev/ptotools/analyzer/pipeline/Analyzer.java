package dev.ptotools.analyzer.pipeline;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.fixes.Suppressions;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.ParseDamage;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.passes.CallDirectionsPass;
import dev.ptotools.analyzer.passes.ClassifyFunctionsPass;
import dev.ptotools.analyzer.passes.ClassifySubscriptsPass;
import dev.ptotools.analyzer.passes.CommDomainsPass;
import dev.ptotools.analyzer.passes.FoldConstantsPass;
import dev.ptotools.analyzer.passes.JitSamplesPass;
import dev.ptotools.analyzer.passes.LowerPass;
import dev.ptotools.analyzer.passes.ParseDamagePass;
import dev.ptotools.analyzer.passes.RankLoopsPass;
import dev.ptotools.analyzer.passes.ResolveCallsPass;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;
import dev.ptotools.analyzer.rules.Rules;
import dev.ptotools.language.DeepStack;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * The one pipeline the CLI, the language server and the compiler share: passes in order, then every
 * enabled rule. A pass that throws becomes one internal-error diagnostic and the passes and rules
 * that need its facts are skipped; a rule that throws becomes one internal-error diagnostic and the
 * other rules still report. Files that do not import pypto.language get no findings.
 */
public final class Analyzer {

	/** Rule id of internal failures. */
	public static final String INTERNAL_ERROR = "PTO900";

	/** The name of {@link #INTERNAL_ERROR}, as rules have names. */
	public static final String INTERNAL_ERROR_NAME = "internal-error";

	private static final Analyzer STANDARD = new Analyzer(
			List.of(new LowerPass(), new ResolveCallsPass(), new FoldConstantsPass(), new JitSamplesPass(),
					new ClassifyFunctionsPass(), new ClassifySubscriptsPass(), new CommDomainsPass(), new RankLoopsPass(),
					new CallDirectionsPass(), new ParseDamagePass()),
			Rules.all());

	private final List<Pass> passes;
	private final List<Rule> rules;
	/** What the analyzed module's imports of its project's other modules bind, or null: not read. */
	private final dev.ptotools.analyzer.project.ImportedModules imported;

	public Analyzer(List<Pass> passes, List<Rule> rules) {
		this(passes, rules, null);
	}

	private Analyzer(List<Pass> passes, List<Rule> rules, dev.ptotools.analyzer.project.ImportedModules imported) {
		this.passes = List.copyOf(passes);
		this.rules = List.copyOf(rules);
		this.imported = imported;
	}

	/**
	 * This analyzer for the modules of one file's project: every analysis it makes (whole, or of a part
	 * of the file, as the editor's re-analysis makes them) reads the file's imports through {@code imported}.
	 */
	public Analyzer withImportedModules(dev.ptotools.analyzer.project.ImportedModules imported) {
		return new Analyzer(passes, rules, imported);
	}

	public static Analyzer standard() {
		return STANDARD;
	}

	public List<Pass> passes() {
		return passes;
	}

	public List<Rule> rules() {
		return rules;
	}

	public Analysis analyze(String text, AnalyzerConfig config) {
		return analyze(PythonFrontEnd.get().parse(text), config);
	}

	public Analysis analyze(ParsedFile file, AnalyzerConfig config) {
		return DeepStack.call(() -> run(file, config, null, null));
	}

	/**
	 * Analyzes a module of a project: its imports of the project's other modules bind what those define
	 * ({@link dev.ptotools.analyzer.project.ProjectModules#forFile}).
	 */
	public Analysis analyze(ParsedFile file, AnalyzerConfig config, dev.ptotools.analyzer.project.ImportedModules imported) {
		return DeepStack.call(() -> run(file, config, null, imported));
	}

	/**
	 * Analyzes a file whose namespace binds names before its own imports run, as DSL text given to
	 * pl.parse does ({@link EmbeddedModules}); its own strings are not searched for more such text.
	 */
	public Analysis analyze(ParsedFile file, AnalyzerConfig config, Imports prelude) {
		return DeepStack.call(() -> run(file, config, prelude, null));
	}

	/**
	 * Continues an analysis with the passes of this analyzer it did not run and the rules those make
	 * runnable: the same result as {@link #analyze(ParsedFile, AnalyzerConfig)} with this analyzer, when
	 * {@code first} was made by an analyzer whose passes begin this one's and with the same rules and
	 * configuration (the editor publishes the analyzer's findings first and adds the compile's from
	 * here, instead of running every pass twice). Without the syntax tree too: passes that read it
	 * come first. An analysis this analyzer cannot continue is made again from its parse.
	 */
	public Analysis extend(Analysis first, AnalyzerConfig config) {
		ModuleIR module = first.module();
		if (module == null || !module.importsPypto()) {
			return first; // the passes stopped at lowering, as they would again
		}
		Run done = first.facts().has(RUN) ? first.facts().get(RUN) : null;
		int ran = done == null ? 0 : done.analyzer().passes.size();
		if (done == null || ran > passes.size() || !passes.subList(0, ran).equals(done.analyzer().passes)
				|| !rules.equals(done.analyzer().rules) || !config.equals(done.config())) {
			ParsedFile file = first.file();
			ParsedFile again = file.hasSyntaxTree() ? file : PythonFrontEnd.get().parse(file.text());
			return first.facts().has(Keys.IMPORTED_MODULES) ? analyze(again, config, first.facts().get(Keys.IMPORTED_MODULES))
					: analyze(again, config);
		}
		return DeepStack.call(() -> {
			Facts facts = first.facts().copy();
			List<Diagnostic> found = new ArrayList<>(done.found());
			runPasses(passes.subList(ran, passes.size()), facts, found);
			Set<String> rulesRun = new HashSet<>(done.rules());
			runRules(facts, config, found, rulesRun);
			facts.put(RUN, new Run(this, Set.copyOf(rulesRun), List.copyOf(found), config));
			return finish(first.file(), module, facts, found, config);
		});
	}

	/**
	 * What a run did, for {@link #extend}: the analyzer whose passes ran, the rules run and the findings
	 * before filtering.
	 */
	private record Run(Analyzer analyzer, Set<String> rules, List<Diagnostic> found, AnalyzerConfig config) {
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static final Key<Run> RUN = new Key<>("pipeline run", (Class) Run.class);

	private void runPasses(List<Pass> todo, Facts facts, List<Diagnostic> found) {
		for (Pass p : todo) {
			if (!p.needs().stream().allMatch(facts::has)) {
				continue;
			}
			try {
				p.run(facts);
			} catch (RuntimeException | StackOverflowError e) {
				found.add(internal("pass " + p.name(), e));
			}
			if (facts.has(Keys.MODULE) && !facts.get(Keys.MODULE).importsPypto()) {
				break; // not a PyPTO file: nothing more to learn
			}
		}
	}

	/** Every enabled rule not in {@code done} whose facts are there; adds the ones run to {@code done}. */
	private void runRules(Facts facts, AnalyzerConfig config, List<Diagnostic> found, Set<String> done) {
		for (Rule r : rules) {
			if (done.contains(r.id()) || !config.enabled(r.id()) || !r.needs().stream().allMatch(facts::has)) {
				continue;
			}
			done.add(r.id());
			List<Diagnostic> own = new ArrayList<>();
			try {
				r.check(new RuleContext(r, facts, own::add));
				found.addAll(own);
			} catch (RuntimeException | StackOverflowError e) {
				found.add(internal("rule " + r.id(), e));
			}
		}
	}

	private Analysis run(ParsedFile file, AnalyzerConfig config, Imports prelude,
			dev.ptotools.analyzer.project.ImportedModules imported) {
		Facts facts = new Facts();
		facts.put(Keys.PARSED, file);
		facts.put(Keys.CONFIG, config);
		dev.ptotools.analyzer.project.ImportedModules importsRead = imported != null ? imported : this.imported;
		if (importsRead != null) {
			facts.put(Keys.IMPORTED_MODULES, importsRead);
		}
		if (prelude != null) {
			facts.put(Keys.PRELUDE, prelude);
		}
		List<Diagnostic> found = new ArrayList<>();
		runPasses(passes, facts, found);
		ModuleIR module = facts.has(Keys.MODULE) ? facts.get(Keys.MODULE) : null;
		if (module == null) {
			// lowering failed: its internal error is all there is to say, not silence
			return new Analysis(file, null, facts, List.copyOf(found));
		}
		if (!module.importsPypto()) {
			return new Analysis(file, module, facts, List.of());
		}
		Set<String> rulesRun = new HashSet<>();
		runRules(facts, config, found, rulesRun);
		if (prelude == null) {
			try {
				EmbeddedModules embedded = EmbeddedModules.of(file, module, config, this);
				facts.put(Keys.EMBEDDED, embedded);
				found.addAll(embedded.hostDiagnostics(file.text()));
			} catch (RuntimeException | StackOverflowError e) {
				found.add(internal("embedded modules", e));
			}
		}
		facts.put(RUN, new Run(this, Set.copyOf(rulesRun), List.copyOf(found), config));
		return finish(file, module, facts, found, config);
	}

	/** Filters, configures and sorts the findings of a run. */
	private Analysis finish(ParsedFile file, ModuleIR module, Facts facts, List<Diagnostic> found, AnalyzerConfig config) {
		// Disabled and suppressed findings go before the compile's are weighed against the analyzer's: a
		// hidden analyzer error no longer stands for pypto's rejection, so the compile's own PTO500 shows.
		List<Diagnostic> shown = new ArrayList<>();
		// A file CPython refuses before it reads a statement (a NUL byte, brackets nested too deep) has no
		// programs pypto could see.
		boolean unreadable = file.problems().stream()
				.anyMatch(p -> p.code().equals(PythonFrontEnd.NULL_BYTE) || p.code().equals(PythonFrontEnd.TOO_DEEP));
		for (Diagnostic d : withoutFollowOns(found, facts)) {
			if (unreadable && !d.rule().equals("PTO000") && !d.rule().equals(INTERNAL_ERROR)) {
				continue;
			}
			if ((d.rule().equals(INTERNAL_ERROR) || config.enabled(d.rule())) && !suppressed(d, module, file)) {
				shown.add(d);
			}
		}
		List<Diagnostic> out = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		shown = dev.ptotools.analyzer.rules.imports.ImportErrorRule.absorbCascades(shown, module.programBindings());
		for (Diagnostic d : yieldCompileFindings(frontEndFirst(shown, module, facts), module)) {
			// Two rules (or one rule twice) saying the same thing at the same place is noise.
			if (!seen.add(d.rule() + "@" + d.span().start() + ":" + d.message())) {
				continue;
			}
			Diagnostic configured = d.withSeverity(config.severity(d.rule(), d.severity()));
			if (ModuleIR.SUPPRESSIBLE.test(d.rule())) {
				List<Fix> fixes = new ArrayList<>(d.fixes());
				fixes.addAll(Suppressions.fixesFor(d, file.text()));
				configured = configured.withFixes(List.copyOf(fixes));
			}
			out.add(configured);
		}
		out.sort(Comparator.comparingInt((Diagnostic d) -> d.span().start()).thenComparing(Diagnostic::rule));
		return new Analysis(file, module, facts, List.copyOf(out));
	}

	/**
	 * Findings that stand on what the parser made up after a syntax error are consequences of it and not
	 * reported: each rule says how much source its findings stand on ({@link Rule#extent()}), and a finding
	 * whose extent meets {@link ParseDamage} goes. Syntax errors and internal errors always stay.
	 */
	private List<Diagnostic> withoutFollowOns(List<Diagnostic> found, Facts facts) {
		ParseDamage damage = facts.has(Keys.DAMAGE) ? facts.get(Keys.DAMAGE) : ParseDamage.NONE;
		if (damage.isEmpty()) {
			return found;
		}
		List<Diagnostic> out = new ArrayList<>();
		for (Diagnostic d : found) {
			Rule rule = rule(d.rule());
			boolean kept = d.rule().equals("PTO000") || d.rule().equals(INTERNAL_ERROR) || d.span() == Span.NONE
					|| rule == null;
			if (!kept) {
				kept = switch (rule.extent()) {
				case STATEMENT -> !damage.breaks(d.span());
				case RANK_LOOP -> !damage.onBrokenLoop(d);
				case FUNCTION -> !damage.breaks(d.span()) && !damage.inBrokenFunction(d.span());
				};
			}
			if (kept) {
				out.add(d);
			}
		}
		return out;
	}

	private Rule rule(String id) {
		for (Rule r : rules) {
			if (r.id().equals(id)) {
				return r;
			}
		}
		return null;
	}

	/**
	 * pypto's front end stops at the first error of a program: where the compile says its front end rejects
	 * a program, the analyzer's errors that stand for a later stage (a pass or a verifier: grouped dispatch,
	 * windows, host orchestration) are never reached, and so are front-end errors of the analyzer after that
	 * place; the front end's rejection is pypto's answer for the program. Front-end errors of the analyzer
	 * before it stay (and then stand for the program, {@link #yieldCompileFindings}).
	 */
	private static List<Diagnostic> frontEndFirst(List<Diagnostic> found, ModuleIR module, Facts facts) {
		if (!facts.has(Keys.COMPILE)) {
			return found;
		}
		List<Span> rejections = new ArrayList<>();
		for (dev.ptotools.analyzer.facts.CompileFindings.Finding f : facts.get(Keys.COMPILE).findings()) {
			if (f.frontEnd() && f.kind() == dev.ptotools.analyzer.facts.CompileFindings.Kind.REJECTED) {
				rejections.add(f.span());
			}
		}
		List<Span> parsedOnly = facts.get(Keys.COMPILE).parsedOnly();
		if (rejections.isEmpty() && parsedOnly.isEmpty()) {
			return found;
		}
		List<Diagnostic> out = new ArrayList<>();
		for (Diagnostic d : found) {
			boolean analyzerError = d.severity() == Severity.ERROR && !isCompileRule(d.rule()) && !d.rule().equals("PTO000")
					&& !d.rule().equals(INTERNAL_ERROR);
			// a program running the module only parses never meets the checks of a later stage
			boolean neverParsedFurther = !frontEndRule(d.rule()) && parsedOnly.stream().anyMatch(s -> s.contains(d.span()));
			if (!(analyzerError && (neverParsedFurther || unreached(d, rejections, module)))) {
				out.add(d);
			}
		}
		return out;
	}

	private static boolean unreached(Diagnostic d, List<Span> rejections, ModuleIR module) {
		for (dev.ptotools.analyzer.ir.Program p : module.programs()) {
			if (!p.span().contains(d.span())) {
				continue;
			}
			for (Span r : rejections) {
				if (p.span().contains(r) && (!frontEndRule(d.rule()) || d.span().start() > r.start())) {
					return true;
				}
			}
		}
		return false;
	}

	/** The analyzer's rules that stand for checks of pypto's front end (its parser), not of a pass. */
	private static boolean frontEndRule(String id) {
		return id.startsWith("PTO4") || id.equals("PTO204") || id.equals("PTO208");
	}

	/**
	 * A program with an analyzer error does not reach the compiler's output, and that error says more
	 * than what the compiler found there: compile findings inside such a program are dropped.
	 */
	private static List<Diagnostic> yieldCompileFindings(List<Diagnostic> found, ModuleIR module) {
		List<dev.ptotools.analyzer.ir.Span> erroneous = new ArrayList<>();
		for (Diagnostic d : found) {
			if (d.severity() == Severity.ERROR && !isCompileRule(d.rule())) {
				for (dev.ptotools.analyzer.ir.Program p : module.programs()) {
					if (p.span().contains(d.span())) {
						erroneous.add(p.span());
					}
				}
			}
		}
		if (erroneous.isEmpty()) {
			return found;
		}
		List<Diagnostic> out = new ArrayList<>();
		for (Diagnostic d : found) {
			if (isCompileRule(d.rule()) && erroneous.stream().anyMatch(s -> s.contains(d.span()))) {
				continue;
			}
			out.add(d);
		}
		return out;
	}

	/** Whether a rule id is one of the compile step's (PTO500, PTO501): findings only the compile makes. */
	public static boolean isCompileRule(String id) {
		return id.startsWith("PTO5");
	}

	private static boolean suppressed(Diagnostic d, ModuleIR module, ParsedFile file) {
		if (module.suppressions().isEmpty()) {
			return false;
		}
		int line = file.lines().line(d.span().start());
		for (ModuleIR.Suppression s : module.suppressions()) {
			if (s.covers(d.rule()) && (s.wholeFile() || s.line() == line)) {
				return true;
			}
		}
		return false;
	}

	private static Diagnostic internal(String where, Throwable e) {
		StringWriter trace = new StringWriter();
		e.printStackTrace(new PrintWriter(trace));
		String top = trace.toString().lines().limit(6).reduce((a, b) -> a + " | " + b.strip()).orElse("");
		return new Diagnostic(INTERNAL_ERROR, Severity.ERROR,
				"internal error in " + where + ": " + e + " (please report: " + top + ")", Span.NONE, List.of(),
				List.of());
	}
}
